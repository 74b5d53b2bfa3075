import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { openDatabase, type DatabaseHandle } from '../../db/connect'
import { migrate } from '../../db/migrate'
import { createScratchDatabase } from './postgres'

export type DatabaseKind = 'pglite' | 'postgres'
export const databaseKinds: DatabaseKind[] = ['pglite', 'postgres']

/** A freshly migrated database of either kind, with a way to drop it. */
export async function migratedDatabase(kind: DatabaseKind): Promise<{ handle: DatabaseHandle; dispose(): Promise<void> }> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ dataDir: 'memory://' })
    await migrate(handle.pool)
    return { handle, dispose: () => handle.close() }
  }
  const scratch = await createScratchDatabase('it')
  const handle = await openDatabase({ databaseUrl: scratch.url, maxConnections: 4 })
  await migrate(handle.pool)
  return {
    handle,
    async dispose() {
      await handle.close()
      await scratch.drop()
    },
  }
}

/**
 * Inserts an auth user the way GoTrue does (the profile trigger does the
 * rest) and returns its id. `metadata` is the sign-up `data`.
 */
export async function insertAuthUser(pool: pg.Pool, metadata: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID()
  const username = (metadata.username as string | undefined) ?? `user_${id.slice(0, 8)}`
  await pool.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, '', now(), '{"provider":"email","providers":["email"]}', $3, now(), now())`,
    [id, `${username}@example.test`, JSON.stringify({ ...metadata, username })],
  )
  return id
}

export function claimsFor(userId: string) {
  return { sub: userId, role: 'authenticated' as const, aud: 'authenticated', email: `${userId}@example.test` }
}
