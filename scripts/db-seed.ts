/**
 * `npm run db:seed`: loads the demo accounts (supabase/seed.sql) into
 * DATABASE_URL or the embedded database. Safe to run again.
 */
import { getEnv } from '../app/server/env.server'
import { openDatabase } from '../db/connect'
import { seedDemoData } from '../db/seed'

const env = getEnv()
const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` })
try {
  const added = await seedDemoData(handle.pool)
  console.log(added ? 'demo accounts loaded (see README: Demo accounts)' : 'demo accounts were already there')
} catch (error) {
  console.error((error as Error).message)
  process.exitCode = 1
} finally {
  await handle.close()
}
