import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDatabase } from '../../db/connect'
import { migrate } from '../../db/migrate'
import { sourceHash } from '../../scripts/source-hash'
import { scratchRoot } from './scratch-dir'

/** What a migrated database is made from: the same inputs as PostgreSQL's template (./databases.ts). */
export const MIGRATION_INPUTS = ['supabase/migrations', 'db/bootstrap.sql', 'db/migrate.ts']

const PREFIX = 'lumen-pglite-template-'
/** Templates of other migration sets left by earlier runs go once this old (a day). */
const STALE_MS = 24 * 60 * 60 * 1000

/**
 * PGlite's counterpart of `CREATE DATABASE … TEMPLATE`: a migrated PGlite data directory made once
 * per set of migrations (named after their hash, in `scratchRoot()`) and copied for
 * each database a test opens. A fresh PGlite costs about 3 s of CPU for its initdb and 1.2 s for the
 * migrations; copying the folder and opening it, about 1.4 s — paid by every test file that starts the
 * stand-in on PGlite.
 *
 * Made under a name of its own and renamed when complete, so a half-made template is never copied;
 * two processes that find it missing both make one, and the second rename loses harmlessly.
 */
export async function pgliteTemplateDir(): Promise<string> {
  const dir = path.join(scratchRoot(), `${PREFIX}${sourceHash(MIGRATION_INPUTS)}`)
  if (existsSync(dir)) {
    // In use: not pruned as stale by a run on other migrations.
    utimesSync(dir, new Date(), new Date())
    return dir
  }
  pruneStaleTemplates()
  const making = `${dir}.making-${process.pid}-${randomBytes(3).toString('hex')}`
  try {
    const handle = await openDatabase({ dataDir: making })
    try {
      await migrate(handle.pool)
    } finally {
      await handle.close()
    }
    try {
      renameSync(making, dir)
    } catch (error) {
      // Another process renamed its own first: use that one.
      if (!existsSync(dir)) throw error
    }
  } finally {
    rmSync(making, { recursive: true, force: true })
  }
  return dir
}

/** A copy of the migrated template at `dataDir` (which must not exist yet), ready to open with `openDatabase`. */
export async function copyMigratedPglite(dataDir: string): Promise<void> {
  cpSync(await pgliteTemplateDir(), dataDir, { recursive: true })
}

/** Stale templates here and in the system's temporary folder (where templates were kept before `scratchRoot`). */
function pruneStaleTemplates(): void {
  for (const root of new Set([scratchRoot(), tmpdir()])) {
    for (const name of readdirSync(root)) {
      if (!name.startsWith(PREFIX)) continue
      const full = path.join(root, name)
      try {
        if (Date.now() - statSync(full).mtimeMs > STALE_MS) rmSync(full, { recursive: true, force: true })
      } catch {
        // Gone already (another process pruned it).
      }
    }
  }
}
