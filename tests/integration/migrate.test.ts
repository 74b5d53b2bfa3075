import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/connect'
import { listMigrations, migrate, migrationsDir } from '../../db/migrate'
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres'

const run = promisify(execFile)
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function scratchServer(label: string) {
  const scratch = await createScratchDatabase(label)
  cleanups.push(() => scratch.drop())
  const handle = await openDatabase({ databaseUrl: scratch.url, maxConnections: 4 })
  cleanups.push(() => handle.close())
  return { scratch, handle }
}

async function ledger(url: string): Promise<string[]> {
  const handle = await openDatabase({ databaseUrl: url })
  try {
    const { rows } = await handle.pool.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations order by version',
    )
    return rows.map((row) => row.version)
  } finally {
    await handle.close()
  }
}

function supabaseCli(args: string[], scratch: ScratchDatabase) {
  return run('npx', ['supabase', ...args, `--remote=${scratch.url}`], {
    env: { ...process.env, PGSSLMODE: 'disable' },
    maxBuffer: 8 * 1024 * 1024,
  })
}

describe('the migration runner', () => {
  it('applies every migration once, then finds nothing to do', async () => {
    const { scratch, handle } = await scratchServer('migrate_once')
    const files = await listMigrations()
    const first = await migrate(handle.pool)
    expect(first.bootstrapped).toBe(true)
    expect(first.applied).toHaveLength(files.length)
    const second = await migrate(handle.pool)
    expect(second.applied).toEqual([])
    expect(second.alreadyApplied).toBe(files.length)
    expect(await ledger(scratch.url)).toEqual(files.map((file) => file.version))
  })

  it('lets two instances migrate the same server at once without applying anything twice', async () => {
    const { scratch, handle } = await scratchServer('migrate_race')
    const other = await openDatabase({ databaseUrl: scratch.url })
    cleanups.push(() => other.close())
    const [a, b] = await Promise.all([migrate(handle.pool), migrate(other.pool)])
    const files = await listMigrations()
    expect([...a.applied, ...b.applied].sort()).toEqual(files.map((file) => `${file.version}_${file.name}`))
  })

  it('keeps the Supabase CLI’s ledger, so `supabase db push` agrees with it', async () => {
    const { scratch, handle } = await scratchServer('migrate_cli')
    await migrate(handle.pool)
    const { stdout } = await supabaseCli(['db', 'push', '--dry-run'], scratch)
    expect(stdout).toMatch(/up to date/i)
  })

  it('accepts a database that `supabase db push` migrated', async () => {
    const { scratch, handle } = await scratchServer('migrate_pushed')
    // A bootstrapped server with no migrations yet: the CLI applies them, we find nothing left.
    const bootstrap = await readFile(path.resolve(import.meta.dirname, '../../db/bootstrap.sql'), 'utf8')
    await handle.pool.query(bootstrap)
    await supabaseCli(['db', 'push', '--yes'], scratch)
    const result = await migrate(handle.pool)
    expect(result.applied).toEqual([])
    expect(result.alreadyApplied).toBe((await listMigrations()).length)
  })

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const { scratch, handle } = await scratchServer('migrate_fail')
    const dir = await mkdtemp(path.join(tmpdir(), 'lumen-migrations-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    await cp(migrationsDir, dir, { recursive: true })
    await writeFile(
      path.join(dir, '29990101000000_broken.sql'),
      'create table public.half_done (id int); select 1 / 0;',
    )
    await expect(migrate(handle.pool, () => {}, dir)).rejects.toThrow(/29990101000000_broken failed: division by zero/)
    const { rows } = await handle.pool.query("select to_regclass('public.half_done') as half_done")
    expect(rows[0]?.half_done).toBeNull()
    expect(await ledger(scratch.url)).not.toContain('29990101000000')
  })

  it('skips the bootstrap on a real Supabase database, which has its own roles', async () => {
    // PGlite keeps roles per database, so pretending to be Supabase touches no shared server.
    const handle = await openDatabase({ dataDir: 'memory://' })
    cleanups.push(() => handle.close())
    await handle.pool.query('create role supabase_admin')
    await expect(migrate(handle.pool)).rejects.toThrow(/failed/)
    const { rows } = await handle.pool.query("select to_regclass('auth.users') as users")
    expect(rows[0]?.users).toBeNull()
  })

  it('enables row-level security on every table in public', async () => {
    const { handle } = await scratchServer('migrate_rls')
    await migrate(handle.pool)
    const { rows } = await handle.pool.query<{ table: string }>(`
      select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`)
    expect(rows).toEqual([])
  })
})
