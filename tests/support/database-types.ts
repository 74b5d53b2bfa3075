import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { openDatabase } from '../../db/connect'
import { migrate } from '../../db/migrate'
import { createScratchDatabase } from './postgres'

export const typesFile = path.resolve(import.meta.dirname, '../../db/database.types.ts')

/** The `Database` type that `supabase gen types` makes of a freshly migrated database. */
export async function generateDatabaseTypes(): Promise<string> {
  const scratch = await createScratchDatabase('types')
  try {
    const handle = await openDatabase({ databaseUrl: scratch.url })
    try {
      await migrate(handle.pool)
    } finally {
      await handle.close()
    }
    const { stdout } = await promisify(execFile)(
      'npx',
      ['supabase', 'gen', 'types', '--lang', 'typescript', '--schema', 'public', `--remote=${scratch.url}`],
      { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, PGSSLMODE: 'disable' } },
    )
    // The CLI may print connection notes on stdout before the code; keep the code.
    const start = stdout.indexOf('export type Json')
    if (start < 0) throw new Error(`supabase gen types printed no types:\n${stdout}`)
    return stdout.slice(start)
  } finally {
    await scratch.drop()
  }
}
