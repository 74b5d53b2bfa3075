// First: the heap's growth is set before anything allocates (ops/heap.ts).
import './ops/heap'
import cluster from 'node:cluster'
import { createHmac } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { createServer } from 'node:http'
import path from 'node:path'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import { connect, disconnect } from './app/server/db.server'
import { getEnv, isEmbedded, publicUrl, supplySettings, usesStandIn } from './app/server/env.server'
import { apiCors, apiRateLimits, parseCorsOrigins, trustProxy } from './app/server/api/limits.server'
import { compressedAssets } from './app/server/http/compressed-assets.server'
import { pageCompression } from './app/server/http/page-compression.server'
import { fairStart } from './app/server/http/fair-start.server'
import { sameOriginWrites } from './app/server/http/same-origin.server'
import { visitorPageCache } from './app/server/http/visitor-page-cache.server'
import type { LumenLoadContext } from './app/server/supabase.server'
import { createStack, type Stack } from './stack/index'
import { smtpTransport } from './stack/mail'
import { migrate } from './db/migrate'
import { openDatabase } from './db/connect'
import { loadOrCreateKeys } from './stack/keys'
import { clusterSize, isShutdownMessage, runClusterPrimary } from './ops/cluster'
import { seedDemoContent } from './stack/demo-content'
import { seedDemoData } from './db/seed'
import { startMediaWorker, type MediaWorker } from './worker/media-worker'
import { componentLogger, errorFields } from './ops/log'
import { projectRoot } from './ops/paths'
import { DatabaseHealth, databaseErrors, healthRoutes, requestContext } from './ops/health'
import { withDatabaseOutage503 } from './ops/outage'
import { reportMemory, watchStalls } from './ops/stalls'
import { loadOrCreateOpsKey, opsRouter, removeServerState, writeServerState } from './ops/control'
import { backupEmbedded } from './db/backup'
import { reconcile } from './worker/reconcile'
import { unsubscribeSecret } from './mail/unsubscribe-token'

/**
 * Lumen's one HTTP entry. Unless SUPABASE_URL names a Supabase project, it
 * prepares the database (migrations, demo accounts) and mounts the
 * Docker-free Supabase stand-in on this same origin; then it serves the Remix
 * app — through Vite's middleware in development, from `build/` in production.
 */
const env = getEnv()
const production = env.NODE_ENV === 'production'
const logger = componentLogger('server')
const log = (line: string) => logger.info(line)
// A promise someone forgot to await must not take every visitor down with it (embedded mode has no
// supervisor to start it again): log it loudly, with its stack, and keep serving.
process.on('unhandledRejection', (reason) => logger.error({ ...errorFields(reason, true) }, 'unhandled rejection (kept running)'))
/** How long in-flight requests get to finish after SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = env.SHUTDOWN_GRACE_MS

if (usesStandIn(env) && !isEmbedded(env) && !env.SMTP_URL) {
  // Password resets must reach the user's inbox, and there is no mailbox outside embedded mode.
  console.error('[lumen] server mode (DATABASE_URL set) needs SMTP_URL for password-reset emails: see .env.example')
  process.exit(1)
}

const workers = clusterSize({ embedded: isEmbedded(env) })
if (workers > 1) {
  // Server mode on several cores: this process prepares what must exist once, then only supervises (ops/cluster.ts).
  await runClusterPrimary(workers, async () => {
    if (!usesStandIn(env)) return
    const prepared = await openDatabase({ databaseUrl: env.DATABASE_URL, maxConnections: 1 })
    try {
      await migrate(prepared.pool, log)
    } finally {
      await prepared.close()
    }
    // Made once here, so that every worker signs and checks with the same ones.
    await loadOrCreateKeys(path.resolve(env.DATA_DIR))
    await loadOrCreateOpsKey(path.resolve(env.DATA_DIR))
  })
}

const { handle } = await connect()
log(`database: ${handle.kind} at ${handle.location}`)
const health = new DatabaseHealth(handle.pool)
watchStalls({ pool: handle.pool })
reportMemory()
let stopping = false

const app = express()
app.disable('x-powered-by')
// The client's address (req.ip: the /api rate limits, and the address pages pass on to Auth for its
// sign-in limits): X-Forwarded-For read from the right while the hop is a trusted proxy
// (TRUSTED_PROXY, as the stand-in judges its own callers), else the socket's. Without it, every
// visitor behind a load balancer shared the balancer's address, and its limits.
app.set('trust proxy', trustProxy(env.TRUSTED_PROXY))
app.use(requestContext())
app.use((_req, res, next) => {
  // A 500 may be the database going away under a page's loader: check, so the next requests get a clean 503.
  res.on('finish', () => res.statusCode >= 500 && void health.probe())
  next()
})
app.use(healthRoutes({ health, stopping: () => stopping }))
// One request started per turn of the event loop, first come first served: a busy server still takes in new connections.
app.use(fairStart())
app.use((_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
  next()
})

let stack: Stack | undefined
// The demo accounts' password is published in the README: only ever on a machine's own embedded database.
const demoData = isEmbedded(env) && env.SEED_DEMO_DATA !== false
let mediaWorker: MediaWorker | undefined
let startInProcessWorker: (() => void) | undefined
if (usesStandIn(env)) {
  const result = await migrate(handle.pool, log)
  if (result.applied.length === 0) log('database: migrations up to date')
  if (demoData) {
    if (await seedDemoData(handle.pool)) log('database: demo accounts loaded (see README: Demo accounts)')
  } else if (env.SEED_DEMO_DATA && !isEmbedded(env)) {
    log('database: SEED_DEMO_DATA ignored: the demo accounts (published password) are for embedded mode only')
  }
  stack = await createStack({
    pool: handle.pool,
    dataDir: env.DATA_DIR,
    publicUrl: publicUrl(env),
    siteUrl: env.SITE_URL ?? publicUrl(env),
    mode: isEmbedded(env) ? 'embedded' : 'server',
    mail: env.SMTP_URL ? smtpTransport({ url: env.SMTP_URL, from: env.SMTP_FROM }) : undefined,
    trustedProxy: env.TRUSTED_PROXY,
  })
  const { keys } = stack.context
  // The app reaches the stand-in like any Supabase: its URL and keys become settings (not process.env).
  supplySettings({
    SUPABASE_URL: publicUrl(env),
    SUPABASE_ANON_KEY: keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
    SUPABASE_JWT_SECRET: keys.jwtSecret,
    SESSION_SECRET: env.SESSION_SECRET ?? createHmac('sha256', keys.jwtSecret).update('lumen flash cookies').digest('base64url'),
  })
  // `npm run doctor` and `npm run db:backup` ask this process (PGlite allows one): loopback and DATA_DIR/ops.key only.
  const dataDir = path.resolve(env.DATA_DIR)
  app.use(
    opsRouter(await loadOrCreateOpsKey(dataDir), {
      doctor: (body) => reconcile({ pool: handle.pool, storageDir: path.join(dataDir, 'storage'), fix: body.fix !== false }),
      backup: async (body) => {
        if (typeof body.file !== 'string' || !path.isAbsolute(body.file)) throw new Error('backup needs an absolute file path')
        return backupEmbedded(handle, dataDir, body.file)
      },
    }),
  )
  app.use(stack.router)
  if (env.MEDIA_WORKER === 'in-process' || (env.MEDIA_WORKER === undefined && isEmbedded(env))) {
    // Embedded mode: only this process may open PGlite, so the media worker lives here. It reads and
    // writes media through Storage's HTTP API on this very server, so it starts once the server listens
    // (a job left from the last run would otherwise fail its download and wait for its retry).
    startInProcessWorker = () => {
      mediaWorker = startMediaWorker({
        pool: handle.pool,
        supabaseUrl: publicUrl(env),
        serviceRoleKey: keys.serviceRoleKey,
        sweep: { storageDir: path.join(path.resolve(env.DATA_DIR), 'storage') },
        // Notification emails through the stand-in's transport: the mailbox in embedded mode, SMTP in server mode.
        email: {
          transport: stack!.context.mail,
          siteUrl: env.SITE_URL ?? publicUrl(env),
          secret: unsubscribeSecret({ explicit: env.UNSUBSCRIBE_SECRET, jwtSecret: keys.jwtSecret })!,
        },
      })
      log(`media worker: in-process (${mediaWorker.id})`)
    }
  }
  log(`supabase stand-in: ${publicUrl(env)}/{auth,storage,functions}/v1`)
  if (stack.context.mailboxSecret) {
    // The key opens every reset link: it goes to the terminal, never into the logs.
    log(`mailbox (this machine only): ${publicUrl(env)}/mailbox (its URL with key: npm run stack:status)`)
    if (process.stdout.isTTY) console.log(`  mailbox: ${publicUrl(env)}/mailbox?key=${stack.context.mailboxSecret}`)
  } else {
    log(`mail: through SMTP (${new URL(env.SMTP_URL!).host}); no mailbox in server mode`)
  }
}

let build: ServerBuild | (() => Promise<ServerBuild>)
if (production) {
  const buildDir = path.resolve(projectRoot, env.LUMEN_BUILD_DIR)
  // Scripts and styles compressed once each, in memory (ADR 0027); the rest as files.
  app.use('/assets', compressedAssets(path.join(buildDir, 'client/assets')))
  app.use('/assets', express.static(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }))
  // The other public files (favicon, …): only the paths that exist, so a page request costs no file-system lookup.
  const clientDir = path.join(buildDir, 'client')
  const publicFiles = new Set(
    readdirSync(clientDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
      .filter((file) => !file.startsWith('/assets/')),
  )
  const publicStatic = express.static(clientDir, { maxAge: '1h', index: false })
  app.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()))
  build = withDatabaseOutage503(health, (await import(path.join(buildDir, 'server/index.js'))) as ServerBuild)
} else {
  const vite = await import('vite').then((module) => module.createServer({ server: { middlewareMode: true }, appType: 'custom' }))
  app.use(vite.middlewares)
  build = () =>
    (vite.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>).then((module) =>
      withDatabaseOutage503(health, module),
    )
}
// The JSON API: CORS for the allow-listed origins only, and rate limits (429 with Retry-After).
app.use('/api', apiCors(parseCorsOrigins(env.API_CORS_ORIGINS)), ...apiRateLimits())
app.all(
  '*',
  (_req, res, next) => {
    // Pages may not be framed by other sites (clickjacking); the stand-in's APIs above set their own headers.
    res.setHeader('X-Frame-Options', 'DENY')
    next()
  },
  sameOriginWrites(new URL(publicUrl(env)).origin),
  // HTML and Remix's data compressed (ADR 0030); never JSON, which may carry a token.
  pageCompression(),
  // The welcome page as every visitor gets it: rendered once a minute, each copy with its own nonce.
  visitorPageCache({ paths: ['/'] }),
  createRequestHandler({
    build,
    mode: env.NODE_ENV,
    getLoadContext: (req) =>
      ({
        clientIp: (req.ip ?? req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
        // Shared by the loaders of one GET (the session is read once); an action may change it, so not for POSTs.
        ...(req.method === 'GET' || req.method === 'HEAD' ? { requestCache: {} } : {}),
      }) satisfies LumenLoadContext,
  }),
)
app.use(databaseErrors(health))

const server = createServer(app)
// Uploads may take up to 30 minutes (docs/product.md, Limits and timers): a no-JS multipart post or a slow TUS chunk must
// not meet Node's default 5-minute request timeout first.
server.requestTimeout = 30 * 60 * 1000
// Idle keep-alive connections stay open longer than a load balancer's or a client's own idle limit
// (60 s at AWS's, 4 s in Node's fetch): Node's default 5 s lets the server close a connection just as a
// busy client reuses it, and that request fails with a reset ("fetch failed" in the load test).
server.keepAliveTimeout = 65_000
server.headersTimeout = 66_000
server.listen(env.PORT, env.HOST, () => {
  if (stack) void writeServerState(path.resolve(env.DATA_DIR), env.PORT)
  log(`ready: ${publicUrl(env)} (${production ? 'production' : 'development'})`)
  if (!stopping) startInProcessWorker?.()
  if (stack && demoData) {
    // Demo videos are stored through Storage's HTTP API, so they are made once the server listens.
    const { serviceRoleKey } = stack.context.keys
    seedDemoContent({ pool: handle.pool, supabaseUrl: publicUrl(env), serviceRoleKey, log }).catch((error: unknown) =>
      logger.warn({ ...errorFields(error) }, 'demo content not added'),
    )
  }
})

/**
 * SIGTERM (or SIGINT): stop accepting connections, let in-flight requests
 * finish for up to SHUTDOWN_GRACE_MS (default 10 s; /readyz answers 503
 * meanwhile), hand the in-process worker's job back to the queue, close
 * the database, exit 0. A second signal cuts the grace short.
 */
let cutShort = () => {}
async function stop(signal: string) {
  if (stopping) {
    logger.warn({ signal }, 'second signal: closing open connections now')
    cutShort()
    return
  }
  stopping = true
  logger.info({ signal, graceMs: SHUTDOWN_GRACE_MS }, 'shutting down: no new connections, finishing in-flight requests')
  const drained = new Promise<void>((resolve) => server.close(() => resolve()))
  // Keep-alive connections between requests are closed at once, and each as soon as its request ends.
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100)
  server.closeIdleConnections()
  const workerStopped = mediaWorker?.stop({ graceMs: Math.min(5_000, SHUTDOWN_GRACE_MS) })
  let timer: NodeJS.Timeout | undefined
  const graceOver = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), SHUTDOWN_GRACE_MS)
    cutShort = () => resolve('timeout')
  })
  if ((await Promise.race([drained.then(() => 'drained' as const), graceOver])) === 'timeout') {
    logger.warn('grace period over: closing the connections still open')
    server.closeAllConnections()
  }
  clearTimeout(timer)
  clearInterval(idleSweep)
  await workerStopped
  await stack?.close()
  await disconnect()
  await removeServerState(path.resolve(env.DATA_DIR)).catch(() => {})
  logger.info('stopped')
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
if (cluster.isWorker) {
  // The primary tells its workers when to stop; Ctrl-C reaches them too, and is left to it.
  process.on('message', (message) => isShutdownMessage(message) && void stop('shutdown'))
  process.on('SIGINT', () => {})
} else {
  process.on('SIGINT', () => void stop('SIGINT'))
}
