import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type pg from 'pg'
import { projectRoot } from '../ops/paths'

const seedFile = path.join(projectRoot, 'supabase/seed.sql')

/**
 * Loads `supabase/seed.sql` (the demo accounts), the same file
 * `supabase db reset` loads on a Supabase project. The file is idempotent;
 * this tells whether it added anything.
 */
export async function seedDemoData(pool: pg.Pool): Promise<boolean> {
  const count = async () => Number((await pool.query<{ n: string }>('select count(*) as n from auth.users')).rows[0]?.n ?? 0)
  const before = await count()
  const client = await pool.connect()
  try {
    await client.query(await readFile(seedFile, 'utf8'))
  } catch (error) {
    // The file runs in its own transaction; leave the connection clean for the next user.
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
  return (await count()) > before
}
