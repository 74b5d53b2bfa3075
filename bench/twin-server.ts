/**
 * A signed-in page's "bare twin" (issue: signed-in pages close to the cost of
 * rendering them): the same built app, the same HTTP handling of a page
 * (X-Frame-Options, page compression, Remix's request handler and
 * entry.server with its nonce and policy), but every loader replaced by one
 * that returns the data the real page's loaders returned — captured once at
 * start from the real server (`<path>.data`, Remix's single-fetch answer, as
 * the signed-in learner) — so no session is read and no database asked. Its
 * CPU per request is the floor the real page is measured against (bench/ssr.ts).
 *
 * Environment: PORT, TWIN_SOURCE (the real server's base URL), TWIN_COOKIE
 * (the session cookie used once, to capture), TWIN_PATHS (JSON list of page
 * paths), LUMEN_BUILD_DIR.
 */
import { createServer } from 'node:http'
import path from 'node:path'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import { decode } from 'turbo-stream'
import { pageCompression } from '../app/server/http/page-compression.server'

type RouteData = Record<string, unknown>

/** `/feed?search=x` → `/feed.data?search=x`; `/` → `/_root.data` (Remix's single-fetch URLs). */
export function dataUrl(page: string): string {
  const url = new URL(page, 'http://twin.invalid')
  url.pathname = url.pathname === '/' ? '/_root.data' : `${url.pathname.replace(/\/$/, '')}.data`
  return `${url.pathname}${url.search}`
}

async function capture(source: string, cookie: string, page: string): Promise<RouteData> {
  const response = await fetch(source + dataUrl(page), { headers: { cookie } })
  if (!response.ok || !response.body) throw new Error(`${page}: ${response.status} from ${dataUrl(page)}`)
  const decoded = await decode(response.body, {
    plugins: [
      (type: string, ...rest: unknown[]) => {
        if (type === 'SingleFetchClassInstance') return { value: rest[0] }
        if (type === 'SingleFetchFallback') return { value: undefined }
        return false
      },
    ],
  })
  await decoded.done
  const results = decoded.value as Record<string, { data?: unknown; error?: unknown }>
  const data: RouteData = {}
  for (const [routeId, result] of Object.entries(results)) {
    if (result && 'error' in result && result.error !== undefined) throw new Error(`${page}: ${routeId} failed to load`)
    data[routeId] = result?.data
  }
  return data
}

const source = process.env.TWIN_SOURCE!
const cookie = process.env.TWIN_COOKIE ?? ''
const pages = JSON.parse(process.env.TWIN_PATHS ?? '[]') as string[]
const fixtures = new Map<string, RouteData>()
for (const page of pages) fixtures.set(page, await capture(source, cookie, page))

const buildDir = path.resolve(process.env.LUMEN_BUILD_DIR ?? 'build')
const real = (await import(path.join(buildDir, 'server/index.js'))) as ServerBuild
const routes: ServerBuild['routes'] = {}
for (const [id, route] of Object.entries(real.routes)) {
  const module = route.module
  routes[id] = {
    ...route,
    module: {
      ...module,
      action: undefined,
      loader: module.loader
        ? ({ request }) => {
            const url = new URL(request.url)
            const fixture = fixtures.get(`${url.pathname}${url.search}`)
            if (!fixture || !(id in fixture)) throw new Response('no fixture', { status: 404 })
            return fixture[id] ?? null
          }
        : undefined,
    },
  }
}
const build: ServerBuild = { ...real, routes }

const app = express()
app.disable('x-powered-by')
app.all(
  '*',
  (_req, res, next) => {
    res.setHeader('X-Frame-Options', 'DENY')
    next()
  },
  pageCompression(),
  createRequestHandler({ build, mode: 'production', getLoadContext: () => ({ clientIp: '127.0.0.1', requestCache: {} }) }),
)
const server = createServer(app)
server.keepAliveTimeout = 65_000
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('twin ready'))
