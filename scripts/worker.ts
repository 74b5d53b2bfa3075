/**
 * `npm run worker`: one media worker process against a PostgreSQL server
 * (server and hosted modes; run as many as the machines allow). Embedded
 * mode needs none: the app runs its worker in-process, since only one
 * process may open PGlite.
 *
 * Reads DATABASE_URL (required), SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY —
 * or, for the stand-in, its keys from DATA_DIR/keys.json and its URL from
 * PUBLIC_URL (default http://localhost:PORT) — WORKER_CONCURRENCY (default 1),
 * WORKER_ID, WORKER_LEASE_MS (default 60 s: how long a job stays this worker's
 * without a heartbeat, i.e. how soon another worker takes over the job of one
 * that died), WORKER_RETRY_BASE_MS (default 10 s: the first retry's backoff,
 * doubling after each failure), WORKER_POLL_MS, and FFMPEG_PATH / FFPROBE_PATH; for notification emails
 * SMTP_URL, SMTP_FROM, SITE_URL and UNSUBSCRIBE_SECRET (else derived from the JWT secret). Stops cleanly on SIGINT/SIGTERM:
 * running jobs get WORKER_STOP_GRACE_MS (default 20 s) to finish, then are
 * handed back to the queue.
 */
import path from 'node:path'
import { getEnv, publicUrl } from '../ops/env'
import { loadOrCreateKeys } from '../stack/keys'
import { openDatabase } from '../db/connect'
import { startMediaWorker } from '../worker/media-worker'
import { componentLogger } from '../ops/log'
import { smtpTransport } from '../stack/mail'
import { unsubscribeSecret } from '../mail/unsubscribe-token'

const log = componentLogger('media-worker')

const env = getEnv()
const workerEnv = env
if (!env.DATABASE_URL) {
  console.error(
    'npm run worker needs DATABASE_URL (a PostgreSQL server). In embedded mode (PGlite) `npm start` runs the worker itself.',
  )
  process.exit(1)
}

let supabaseUrl = env.SUPABASE_URL
let serviceRoleKey = env.SUPABASE_SERVICE_ROLE_KEY
let jwtSecret = env.SUPABASE_JWT_SECRET
if (!supabaseUrl || !serviceRoleKey) {
  if (env.SUPABASE_URL) {
    console.error('SUPABASE_URL is set without SUPABASE_SERVICE_ROLE_KEY: the worker writes to Storage as the service role.')
    process.exit(1)
  }
  // The app's own stand-in: its keys live in the data directory it shares with the app.
  supabaseUrl = publicUrl(env)
  const keys = await loadOrCreateKeys(path.resolve(env.DATA_DIR))
  serviceRoleKey = keys.serviceRoleKey
  jwtSecret = keys.jwtSecret
}

// Notification emails go out by SMTP, their unsubscribe links signed as the app checks them.
const secret = unsubscribeSecret({ explicit: env.UNSUBSCRIBE_SECRET, jwtSecret })
const email =
  env.SMTP_URL && secret
    ? { transport: smtpTransport({ url: env.SMTP_URL, from: env.SMTP_FROM }), siteUrl: env.SITE_URL ?? publicUrl(env), secret }
    : undefined
if (!email) {
  log.warn(
    `notification emails off in this worker: ${env.SMTP_URL ? 'set UNSUBSCRIBE_SECRET or SUPABASE_JWT_SECRET' : 'set SMTP_URL'}; they wait in public.email_outbox`,
  )
}

const database = await openDatabase({ databaseUrl: env.DATABASE_URL, maxConnections: workerEnv.WORKER_CONCURRENCY + 2 })
const worker = startMediaWorker({
  pool: database.pool,
  supabaseUrl,
  serviceRoleKey,
  workerId: workerEnv.WORKER_ID,
  concurrency: workerEnv.WORKER_CONCURRENCY,
  leaseMs: workerEnv.WORKER_LEASE_MS,
  pollMs: workerEnv.WORKER_POLL_MS,
  backoff: workerEnv.WORKER_RETRY_BASE_MS ? { baseMs: workerEnv.WORKER_RETRY_BASE_MS } : undefined,
  // The stand-in's files are in DATA_DIR; a hosted Supabase's Storage is its own.
  sweep: { storageDir: env.SUPABASE_URL ? undefined : path.join(path.resolve(env.DATA_DIR), 'storage') },
  email,
})

let stopping = false
async function shutdown(signal: NodeJS.Signals) {
  if (stopping) {
    log.warn({ signal }, 'second signal: handing running jobs back now')
    await worker.stop()
    return
  }
  stopping = true
  log.info({ signal, graceMs: workerEnv.WORKER_STOP_GRACE_MS }, 'stopping: running jobs get the grace period to finish')
  await worker.stop({ graceMs: workerEnv.WORKER_STOP_GRACE_MS })
  await database.close()
  log.info('stopped')
  process.exit(0)
}
process.on('SIGINT', (signal) => void shutdown(signal))
process.on('SIGTERM', (signal) => void shutdown(signal))
