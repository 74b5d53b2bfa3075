import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import path from 'node:path'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import { connect, disconnect } from './app/server/db.server'
import { getEnv, isEmbedded, publicUrl, reloadEnv, usesStandIn } from './app/server/env.server'
import { apiCors, apiRateLimits, parseCorsOrigins } from './app/server/api/limits.server'
import { sameOriginWrites } from './app/server/http/same-origin.server'
import type { LumenLoadContext } from './app/server/supabase.server'
import { createStack, type Stack } from './stack/index'
import { smtpTransport } from './stack/mail'
import { migrate } from './db/migrate'
import { seedDemoContent } from './stack/demo-content'
import { seedDemoData } from './db/seed'
import { startMediaWorker, type MediaWorker } from './worker/media-worker'

/**
 * Lumen's one HTTP entry. Unless SUPABASE_URL names a Supabase project, it
 * prepares the database (migrations, demo accounts) and mounts the
 * Docker-free Supabase stand-in on this same origin; then it serves the Remix
 * app — through Vite's middleware in development, from `build/` in production.
 */
const env = getEnv()
const production = env.NODE_ENV === 'production'
const log = (line: string) => console.log(`[lumen] ${line}`)

const { handle } = await connect()
log(`database: ${handle.kind} at ${handle.location}`)

const app = express()
app.disable('x-powered-by')
app.use((_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
  next()
})

let stack: Stack | undefined
// The demo accounts' password is published in the README: only ever on a machine's own embedded database.
const demoData = isEmbedded(env) && env.SEED_DEMO_DATA !== false
let mediaWorker: MediaWorker | undefined
if (usesStandIn(env)) {
  if (!isEmbedded(env) && !env.SMTP_URL) {
    // Password resets must reach the user's inbox, and there is no mailbox outside embedded mode.
    console.error('[lumen] server mode (DATABASE_URL set) needs SMTP_URL for password-reset emails: see .env.example')
    await disconnect()
    process.exit(1)
  }
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
  process.env.SUPABASE_URL = publicUrl(env)
  process.env.SUPABASE_ANON_KEY = keys.anonKey
  process.env.SUPABASE_SERVICE_ROLE_KEY = keys.serviceRoleKey
  process.env.SUPABASE_JWT_SECRET = keys.jwtSecret
  process.env.SESSION_SECRET ??= createHmac('sha256', keys.jwtSecret).update('lumen flash cookies').digest('base64url')
  reloadEnv()
  app.use(stack.router)
  if (env.MEDIA_WORKER === 'in-process' || (env.MEDIA_WORKER === undefined && isEmbedded(env))) {
    // Embedded mode: only this process may open PGlite, so the media worker lives here.
    mediaWorker = startMediaWorker({
      pool: handle.pool,
      supabaseUrl: publicUrl(env),
      serviceRoleKey: keys.serviceRoleKey,
      log: (level, message) => (level === 'info' ? log(message) : console.warn(`[lumen] ${message}`)),
    })
    log(`media worker: in-process (${mediaWorker.id})`)
  }
  log(`supabase stand-in: ${publicUrl(env)}/{auth,storage,functions}/v1`)
  if (stack.context.mailboxSecret) {
    log(`mailbox (this machine only): ${publicUrl(env)}/mailbox?key=${stack.context.mailboxSecret}`)
  } else {
    log(`mail: through SMTP (${new URL(env.SMTP_URL!).host}); no mailbox in server mode`)
  }
}

let build: ServerBuild | (() => Promise<ServerBuild>)
if (production) {
  const buildDir = path.resolve(import.meta.dirname, process.env.LUMEN_BUILD_DIR ?? 'build')
  app.use('/assets', express.static(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }))
  app.use(express.static(path.join(buildDir, 'client'), { maxAge: '1h' }))
  build = (await import(path.join(buildDir, 'server/index.js'))) as ServerBuild
} else {
  const vite = await import('vite').then((module) =>
    module.createServer({ server: { middlewareMode: true }, appType: 'custom' }),
  )
  app.use(vite.middlewares)
  build = () => vite.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
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
  createRequestHandler({
    build,
    mode: env.NODE_ENV,
    getLoadContext: (req) =>
      ({ clientIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '' }) satisfies LumenLoadContext,
  }),
)

const server = createServer(app)
// Uploads may take up to 30 minutes (spec section 9): a no-JS multipart post or a slow TUS chunk must
// not meet Node's default 5-minute request timeout first.
server.requestTimeout = 30 * 60 * 1000
server.listen(env.PORT, env.HOST, () => {
  log(`ready: ${publicUrl(env)} (${production ? 'production' : 'development'})`)
  if (stack && demoData) {
    // Demo videos are stored through Storage's HTTP API, so they are made once the server listens.
    const { serviceRoleKey } = stack.context.keys
    seedDemoContent({ pool: handle.pool, supabaseUrl: publicUrl(env), serviceRoleKey, log }).catch((error: unknown) =>
      console.warn(`[lumen] demo content not added: ${error instanceof Error ? error.message : String(error)}`),
    )
  }
})

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  log(`${signal}: shutting down`)
  server.close()
  server.closeAllConnections()
  await mediaWorker?.stop({ graceMs: 5_000 })
  await stack?.close()
  await disconnect()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
