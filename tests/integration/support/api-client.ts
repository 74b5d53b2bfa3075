import path from 'node:path'
import { resolveConfig } from '@remix-run/dev/dist/config.js'
import { matchRoutes, type AgnosticRouteObject } from '@remix-run/router'
import { createClient } from '@supabase/supabase-js'
import { expect } from 'vitest'
import { ErrorSchema } from '../../../app/server/api/schemas.server'
import { findEndpoint, UNDOCUMENTED_ROUTE_FILES } from '../../../app/server/api/openapi.server'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import { remixConfig } from '../../../remix.config'
import type { Person, VideoFixture } from './video-fixture'

/**
 * Calls /api the way the server does — the route Remix's own router picks
 * for the URL (the route manifest Remix's Vite plugin builds from
 * remix.config.ts: its flat routes and ignoredRouteFiles, matched with
 * @remix-run/router's matchRoutes, the deepest match answering as a
 * resource route), its loader or action, a plain Request with
 * `Authorization: Bearer …` — and checks every JSON answer against the
 * schema the OpenAPI document gives for that method, path and status.
 */
const ROOT_DIR = path.resolve(import.meta.dirname, '../../..')
const APP_DIR = path.resolve(ROOT_DIR, remixConfig.appDirectory ?? 'app')

interface ManifestRoute {
  id: string
  parentId?: string
  path?: string
  index?: boolean
  caseSensitive?: boolean
  file: string
}

type AppRoute = AgnosticRouteObject & { id: string; file?: string }

let manifest: Promise<Record<string, ManifestRoute>> | undefined

/** The app's routes as Remix's Vite plugin resolves them (the same function, the same options it passes). */
function routeManifest(): Promise<Record<string, ManifestRoute>> {
  manifest ??= resolveConfig(
    {
      appDirectory: remixConfig.appDirectory,
      ignoredRouteFiles: remixConfig.ignoredRouteFiles,
      future: remixConfig.future,
      ...(remixConfig.routes ? { routes: remixConfig.routes } : {}),
    } as Parameters<typeof resolveConfig>[0],
    { rootDirectory: ROOT_DIR } as Parameters<typeof resolveConfig>[1],
  ).then((config) => config.routes as unknown as Record<string, ManifestRoute>)
  return manifest
}

/** The manifest as the nested route objects Remix's server matches against. */
function routeTree(routes: Record<string, ManifestRoute>, parentId?: string): AppRoute[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) => {
      const children = routeTree(routes, route.id)
      return route.index
        ? { id: route.id, file: route.file, index: true, path: route.path, caseSensitive: route.caseSensitive }
        : { id: route.id, file: route.file, path: route.path, caseSensitive: route.caseSensitive, children }
    })
}

/** The route Remix picks for `/api<apiPath>`: the deepest match (a resource route), with its params. */
async function routeFor(apiPath: string): Promise<{ file: string; params: Record<string, string> }> {
  const matches = matchRoutes(routeTree(await routeManifest()), `/api${apiPath}`)
  const leaf = matches?.at(-1)
  if (!leaf) throw new Error(`no route for /api${apiPath}`)
  return { file: (leaf.route as AppRoute).file!, params: leaf.params as Record<string, string> }
}

/**
 * Every route Remix registers under /api as `{ file, path }`, the path in the
 * OpenAPI document's form (`/videos/{id}/like`); the catch-all splat and
 * the reference page (UNDOCUMENTED_ROUTE_FILES: not calls of the API) left out.
 */
export async function apiRoutes(): Promise<{ file: string; path: string }[]> {
  const routes = await routeManifest()
  const fullPath = (route: ManifestRoute): string => {
    const parent = route.parentId ? routes[route.parentId] : undefined
    const own = route.path ?? ''
    return [parent ? fullPath(parent) : '', own].filter(Boolean).join('/')
  }
  return Object.values(routes)
    .map((route) => ({ file: route.file, full: `/${fullPath(route)}` }))
    .filter(({ file, full }) => full.startsWith('/api/') && !UNDOCUMENTED_ROUTE_FILES.includes(file.replace(/^routes\//, '')))
    .map(({ file, full }) => ({ file, path: full.slice('/api'.length).replace(/:(\w+)/g, '{$1}') }))
}

export interface ApiAnswer {
  status: number
  headers: Headers
  body: unknown
  /** The body as an object (for JSON answers). */
  json: Record<string, unknown> & { error?: string }
}

export interface CallOptions {
  token?: string | null
  json?: unknown
  form?: FormData
  headers?: Record<string, string>
  /** Skip the schema check (a deliberately odd call). */
  unchecked?: boolean
}

export async function call(method: string, apiPathAndQuery: string, options: CallOptions = {}): Promise<ApiAnswer> {
  const [apiPath] = apiPathAndQuery.split('?')
  const { file, params } = await routeFor(apiPath!)
  const module = (await import(path.join(APP_DIR, file))) as {
    loader: (args: unknown) => Promise<Response>
    action: (args: unknown) => Promise<Response>
  }
  const headers = new Headers(options.headers)
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`)
  let body: BodyInit | undefined
  if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json')
    body = JSON.stringify(options.json)
  } else if (options.form) body = options.form
  const request = new Request(`http://lumen.test/api${apiPathAndQuery}`, { method, headers, body })
  const run = ['GET', 'HEAD'].includes(method) ? module.loader : module.action
  const response = await run({ request, params, context: { clientIp: '127.0.0.1' } })
  const type = response.headers.get('Content-Type') ?? ''
  const parsed = type.includes('application/json')
    ? ((await response.json()) as unknown)
    : method === 'HEAD'
      ? null
      : await response.arrayBuffer()
  const answer: ApiAnswer = {
    status: response.status,
    headers: response.headers,
    body: parsed,
    json: (parsed ?? {}) as ApiAnswer['json'],
  }
  if (!options.unchecked && type.includes('application/json')) checkAgainstDocument(method, apiPath!, answer)
  return answer
}

/** The answer matches its documented schema: the success schema, or the error shape for a documented refusal. */
function checkAgainstDocument(method: string, apiPath: string, answer: ApiAnswer) {
  const endpoint =
    findEndpoint(method === 'HEAD' ? 'head' : method, apiPath) ?? (method === 'HEAD' ? findEndpoint('get', apiPath) : undefined)
  expect(endpoint, `${method} ${apiPath} is in the OpenAPI table`).toBeDefined()
  if (answer.status === endpoint!.ok.status) {
    if (endpoint!.ok.schema) {
      const result = endpoint!.ok.schema.safeParse(answer.body)
      expect(result.success ? null : result.error.issues, `${method} ${apiPath} answers its documented schema`).toBeNull()
    }
    return
  }
  expect([...endpoint!.errors, 429], `${method} ${apiPath} documents ${answer.status}`).toContain(answer.status)
  const result = ErrorSchema.safeParse(answer.body)
  expect(result.success, `${method} ${apiPath} ${answer.status} is { error }`).toBe(true)
}

/** An access token for `person`, from Auth itself (what /api/auth/login hands out). */
export async function tokenFor(fixture: VideoFixture, person: Person): Promise<string> {
  const anon = createClient(fixture.running.url, fixture.running.anonKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const { data, error } = await anon.auth.signInWithPassword({ email: person.email, password: person.password })
  if (error || !data.session) throw new Error(`could not sign in: ${error?.message}`)
  return data.session.access_token
}
