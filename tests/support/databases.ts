import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { openDatabase, type DatabaseHandle } from '../../db/connect'
import { migrate } from '../../db/migrate'
import { sourceHash } from '../../scripts/source-hash'
import { copyMigratedPglite, MIGRATION_INPUTS } from './pglite-template'
import { createScratchDatabase, testServerUrl, type ScratchDatabase } from './postgres'
import { scratchRoot } from './scratch-dir'

export type DatabaseKind = 'pglite' | 'postgres'
export const databaseKinds: DatabaseKind[] = ['pglite', 'postgres']

/** A freshly migrated database of either kind (a copy of its kind's template), with a way to drop it. */
export async function migratedDatabase(kind: DatabaseKind): Promise<{ handle: DatabaseHandle; dispose(): Promise<void> }> {
  if (kind === 'pglite') {
    const dataDir = path.join(await mkdtemp(path.join(scratchRoot(), 'lumen-pglite-')), 'pglite')
    await copyMigratedPglite(dataDir)
    const handle = await openDatabase({ dataDir })
    return {
      handle,
      async dispose() {
        await handle.close()
        await rm(path.dirname(dataDir), { recursive: true, force: true })
      },
    }
  }
  const scratch = await migratedScratchDatabase('it')
  const handle = await openDatabase({ databaseUrl: scratch.url, maxConnections: 4 })
  return {
    handle,
    async dispose() {
      await handle.close()
      await scratch.drop()
    },
  }
}

/** Any number will do as long as it is ours alone: one process makes the template, the others wait. */
const TEMPLATE_LOCK = 4_242_029

/**
 * A new scratch database on the test server, already migrated: a copy
 * (`CREATE DATABASE … TEMPLATE`) of a template migrated once per set of
 * migrations, named after their hash (`lumen_template_<hash>`), instead of
 * running every migration again for each test file. The template is made
 * under a new name and renamed when complete, so a half-made one is never copied.
 */
export async function migratedScratchDatabase(label: string): Promise<ScratchDatabase> {
  const template = `lumen_template_${sourceHash(MIGRATION_INPUTS)}`
  const admin = new pg.Client({ connectionString: testServerUrl() })
  await admin.connect()
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK])
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [template])
      if (!rowCount) {
        const making = await createScratchDatabase('template_making')
        try {
          const handle = await openDatabase({ databaseUrl: making.url, maxConnections: 1 })
          try {
            await migrate(handle.pool)
          } finally {
            await handle.close()
          }
          await admin.query(`alter database ${making.name} rename to ${template}`)
        } catch (error) {
          await making.drop()
          throw error
        }
      }
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK])
    }
  } finally {
    await admin.end()
  }
  return createScratchDatabase(label, template)
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
