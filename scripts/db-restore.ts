/**
 * `npm run db:restore FILE`: brings a `db:backup` file back into DATA_DIR
 * (which must hold no database yet: stop `npm start` and move the old
 * folder aside first). Then `npm start` as usual.
 */
import path from 'node:path'
import { getEnv } from '../ops/env'
import { restoreEmbedded } from '../db/backup'

const file = process.argv[2]
if (!file) {
  console.error('usage: npm run db:restore FILE   (into DATA_DIR, default .data)')
  process.exit(1)
}
const dataDir = path.resolve(getEnv().DATA_DIR)
const { objects } = await restoreEmbedded(file, dataDir)
console.log(`restored ${file} into ${dataDir} (database and ${objects} stored files)`)
