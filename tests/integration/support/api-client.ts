import { readdirSync } from 'node:fs'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { expect } from 'vitest'
import { ErrorSchema } from '../../../app/server/api/schemas.server'
import { findEndpoint, matchPath, UNDOCUMENTED_ROUTE_FILES } from '../../../app/server/api/openapi.server'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import type { Person, VideoFixture } from './video-fixture'

/**
 * Calls /api the way the server does — the route module that Remix would
 * pick for the path, its loader or action, a plain Request with
 * `Authorization: Bearer …` — and checks every JSON answer against the
 * schema the OpenAPI document gives for that method, path and status.
 */
const ROUTES_DIR = path.resolve(import.meta.dirname, '../../../app/routes')

/** `api.videos.$id.like.ts` → `/videos/{id}/like`; `api.openapi[.]json.ts` → `/openapi.json`. */
export function routeFilePath(file: string): string {
  const stem = file.replace(/\.ts$/, '').replace(/\[\.\]/g, '~')
  const parts = stem.split('.').slice(1)
  return `/${parts.map((part) => (part.startsWith('$') ? `{${part.slice(1)}}` : part.replace(/~/g, '.'))).join('/')}`
}

export function apiRouteFiles(): string[] {
  return readdirSync(ROUTES_DIR).filter(
    (file) => file.startsWith('api.') && file.endsWith('.ts') && !UNDOCUMENTED_ROUTE_FILES.includes(file),
  )
}

/** Static segments win over `{id}`, as in Remix's ranking. */
function routeFor(apiPath: string): { file: string; params: Record<string, string> } {
  const candidates = apiRouteFiles()
    .map((file) => ({ file, template: routeFilePath(file) }))
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0))
  for (const { file, template } of candidates) {
    const params = matchPath(template, apiPath)
    if (params) return { file, params }
  }
  throw new Error(`no route file for ${apiPath}`)
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
  const { file, params } = routeFor(apiPath!)
  const module = (await import(path.join(ROUTES_DIR, file))) as {
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
