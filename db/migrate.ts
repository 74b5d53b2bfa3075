import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type pg from 'pg'
import { projectRoot } from '../ops/paths'

export const migrationsDir = path.join(projectRoot, 'supabase/migrations')
const bootstrapFile = path.join(projectRoot, 'db/bootstrap.sql')

/** Any number will do as long as it is ours alone: it serialises concurrent migrators. */
const MIGRATION_LOCK = 4_242_001

export interface MigrationResult {
  bootstrapped: boolean
  applied: string[]
  alreadyApplied: number
}

/**
 * Applies `supabase/migrations/*.sql` in order, each in its own transaction,
 * recording them in the same ledger the Supabase CLI uses
 * (`supabase_migrations.schema_migrations`), so `supabase db push` and this
 * runner agree about what has run. On a plain Postgres (no Supabase) it first
 * runs the bootstrap that creates Supabase's roles, `auth` and `storage`.
 */
export async function migrate(
  pool: pg.Pool,
  log: (line: string) => void = () => {},
  dir: string = migrationsDir,
): Promise<MigrationResult> {
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    const bootstrapped = !(await isSupabase(client))
    if (bootstrapped) {
      await client.query(await readFile(bootstrapFile, 'utf8'))
      log('bootstrap: Supabase roles, auth and storage schemas are in place')
    }
    await client.query(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key,
        statements text[],
        name text
      );`)
    const done = new Set(
      (await client.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map(
        (row) => row.version,
      ),
    )
    const applied: string[] = []
    for (const file of await listMigrations(dir)) {
      if (done.has(file.version)) continue
      const sql = await readFile(file.path, 'utf8')
      try {
        await client.query('begin')
        await client.query(sql)
        await client.query('insert into supabase_migrations.schema_migrations (version, statements, name) values ($1, $2, $3)', [
          file.version,
          [sql],
          file.name,
        ])
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw new Error(`migration ${file.version}_${file.name} failed: ${(error as Error).message}`, { cause: error })
      }
      applied.push(`${file.version}_${file.name}`)
      log(`applied ${file.version}_${file.name}`)
    }
    return { bootstrapped, applied, alreadyApplied: done.size }
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    client.release()
  }
}

export async function listMigrations(dir: string = migrationsDir): Promise<{ version: string; name: string; path: string }[]> {
  const files = (await readdir(dir)).filter((file) => /^\d+_.+\.sql$/.test(file)).sort()
  return files.map((file) => {
    const [, version = '', name = ''] = /^(\d+)_(.+)\.sql$/.exec(file) ?? []
    return { version, name, path: path.join(dir, file) }
  })
}

/**
 * A real Supabase database has its own admin roles; ours gets the bootstrap
 * instead. `supabase_admin` exists on every Supabase Postgres image and is
 * never created by the bootstrap.
 */
async function isSupabase(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ supabase: boolean }>(
    "select exists (select 1 from pg_roles where rolname = 'supabase_admin') as supabase",
  )
  return rows[0]?.supabase ?? false
}
