/**
 * `npm run doctor`: reconciliation (worker/reconcile.ts). Checks counters,
 * stored files against their rows, abandoned resumable uploads and videos
 * that can never become ready; prints what it found and what it fixed
 * (only what it is sure of). `--dry-run` fixes nothing. Exit code 0 when
 * nothing was left for a person, 1 otherwise.
 *
 * Embedded mode with `npm start` running: the server does it (only one
 * process may open PGlite). Otherwise this opens DATABASE_URL or the
 * embedded database itself.
 */
import path from 'node:path'
import { getEnv, usesStandIn } from '../ops/env'
import { openDatabase } from '../db/connect'
import { askRunningServer } from '../ops/control'
import { describeReport, reconcile, type ReconcileReport } from '../worker/reconcile'

const env = getEnv()
const fix = !process.argv.includes('--dry-run')
const dataDir = path.resolve(env.DATA_DIR)

let report = (await askRunningServer(dataDir, 'doctor', { fix }).catch((error: unknown) => {
  console.error(String(error))
  process.exit(2)
})) as ReconcileReport | undefined
if (report) console.log(`(run by the server that has ${dataDir} open)`)
else {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: path.join(dataDir, 'pglite') })
  try {
    report = await reconcile({
      pool: database.pool,
      storageDir: usesStandIn(env) ? path.join(dataDir, 'storage') : undefined,
      fix,
    })
  } finally {
    await database.close()
  }
}
for (const line of describeReport(report)) console.log(line)
process.exit(report.findings.some((finding) => !finding.fixed) ? 1 : 0)
