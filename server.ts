import { createServer } from 'node:http'
import path from 'node:path'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import { connect, disconnect } from './app/server/db.server'
import { getEnv, isEmbedded } from './app/server/env.server'
import { migrate } from './stack/postgres/migrate'
import { seedDemoData } from './stack/postgres/seed'

/**
 * Lumen's one HTTP entry. It prepares the database (embedded mode: PGlite,
 * migrated and seeded on boot), then serves the Remix app — through Vite's
 * middleware in development, from `build/` in production.
 */
const env = getEnv()
const production = env.NODE_ENV === 'production'
const log = (line: string) => console.log(`[lumen] ${line}`)

const { handle } = await connect()
log(`database: ${handle.kind} at ${handle.location}`)
if (isEmbedded(env)) {
  const result = await migrate(handle.pool, log)
  if (result.applied.length === 0) log('database: migrations up to date')
  if (env.SEED_DEMO_DATA !== false) {
    const seeded = await seedDemoData(handle.pool)
    if (seeded) log('database: demo accounts loaded (see README: Demo accounts)')
  }
}

const app = express()
app.disable('x-powered-by')
app.use((_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
  res.setHeader('X-Frame-Options', 'DENY')
  next()
})

let build: ServerBuild | (() => Promise<ServerBuild>)
if (production) {
  const buildDir = path.resolve(import.meta.dirname, 'build')
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
app.all('*', createRequestHandler({ build, mode: env.NODE_ENV }))

const server = createServer(app)
server.listen(env.PORT, env.HOST, () => {
  log(`ready: http://localhost:${env.PORT} (${production ? 'production' : 'development'})`)
})

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  log(`${signal}: shutting down`)
  server.close()
  server.closeAllConnections()
  await disconnect()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
