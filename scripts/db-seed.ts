/**
 * `npm run db:seed`: loads the demo accounts (supabase/seed.sql) into the
 * embedded database. Safe to run again. Their password is published, so a
 * server (DATABASE_URL) gets them only with `--demo-accounts-on-server`, for
 * a throwaway test database; create a real admin with `npm run create-admin`.
 */
import { getEnv } from '../ops/env'
import { openDatabase } from '../db/connect'
import { seedDemoData } from '../db/seed'

const env = getEnv()
if (env.DATABASE_URL && !process.argv.includes('--demo-accounts-on-server')) {
  console.error(
    "DATABASE_URL is set: the demo accounts (with the README's password) are for the embedded database only.\n" +
      'Use `npm run create-admin` for the first admin, or pass --demo-accounts-on-server for a throwaway test database.',
  )
  process.exit(1)
}
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
