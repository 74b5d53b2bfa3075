/**
 * `npm run db:backup [FILE]`: a consistent snapshot of the embedded database
 * and its stored files (db/backup.ts), default `lumen-backup-<time>.tar.gz`.
 * With `npm start` running, the server takes it without stopping; otherwise
 * this opens the data folder itself. Server modes: use pg_dump / Supabase's
 * backups (README: Backups).
 */
import path from 'node:path'
import { getEnv, isEmbedded } from '../ops/env'
import { backupEmbedded } from '../db/backup'
import { openDatabase } from '../db/connect'
import { askRunningServer } from '../ops/control'

const env = getEnv()
if (!isEmbedded(env)) {
  console.error('db:backup is for the embedded database. With DATABASE_URL set, use pg_dump (see README: Backups).')
  process.exit(1)
}
const dataDir = path.resolve(env.DATA_DIR)
const file = path.resolve(process.argv[2] ?? `lumen-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`)
const byServer = (await askRunningServer(dataDir, 'backup', { file })) as { objects: number } | undefined
let objects = byServer?.objects
if (byServer) console.log(`(taken by the running server, which kept serving)`)
else {
  const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') })
  try {
    ;({ objects } = await backupEmbedded(database, dataDir, file))
  } finally {
    await database.close()
  }
}
console.log(`backup written: ${file} (database and ${objects} stored files)`)
