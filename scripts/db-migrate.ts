/**
 * `npm run db:migrate`: applies supabase/migrations to DATABASE_URL (any
 * PostgreSQL 15+ server, or Supabase's) or, when unset, to the embedded
 * PGlite database under DATA_DIR. Stop `npm start` first in embedded mode:
 * PGlite allows one process at a time.
 */
import { getEnv } from '../ops/env'
import { openDatabase } from '../db/connect'
import { migrate } from '../db/migrate'

const env = getEnv()
const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` })
try {
  console.log(`migrating ${handle.kind} database at ${handle.location}`)
  const result = await migrate(handle.pool, (line) => console.log(`  ${line}`))
  console.log(
    result.applied.length
      ? `done: ${result.applied.length} migration(s) applied`
      : `done: up to date (${result.alreadyApplied} applied before)`,
  )
} catch (error) {
  console.error((error as Error).message)
  process.exitCode = 1
} finally {
  await handle.close()
}
