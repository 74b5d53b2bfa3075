import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import type { z } from 'zod'
import { isDatabaseUnavailable } from '../../../db/unavailable'
import { DomainError, isDomainError } from '../errors.server'
import { jsonFailure } from '../http/domain-errors.server'
import { API_MESSAGES } from '~/lib/schemas/api'

/**
 * The frame every /api resource route uses: one handler per method (HEAD
 * falls back to GET), JSON answers that are never cached, refusals
 * (DomainError) turned into `{ error, fieldErrors? }` at their status by the
 * same adapter the pages' twins use, 405 for a method the route does not
 * have, 503 with Retry-After while the database is unreachable or every
 * connection is busy, and a 500 only for our own failures (logged, never echoed).
 */
export type ApiMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE'

export interface ApiArgs {
  request: Request
  params: Record<string, string | undefined>
  url: URL
  clientIp: string
}

export type ApiHandler = (args: ApiArgs) => Promise<Response | object>

const NO_STORE = { 'Cache-Control': 'no-store' }
/** As the pages' outage answer (ops/health.ts). */
const RETRY_AFTER_SECONDS = 5

export interface ApiRouteOptions {
  /** Also repeat a refusal's text as `message` (docs/product.md, The JSON API: forgot-password's clients read that field). */
  messageField?: boolean
}

export function apiRoute(handlers: Partial<Record<ApiMethod, ApiHandler>>, options: ApiRouteOptions = {}) {
  const allowed = Object.keys(handlers).concat(handlers.GET && !handlers.HEAD ? ['HEAD'] : [])
  const run = async ({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> => {
    const method = request.method.toUpperCase() as ApiMethod
    const handler = handlers[method] ?? (method === 'HEAD' ? handlers.GET : undefined)
    if (!handler) {
      return Response.json(
        { error: API_MESSAGES.methodNotAllowed },
        { status: 405, headers: { ...NO_STORE, Allow: allowed.join(', ') } },
      )
    }
    try {
      const result = await handler({ request, params, url: new URL(request.url), clientIp: context?.clientIp ?? '' })
      if (result instanceof Response) return result
      return Response.json(result, { headers: NO_STORE })
    } catch (error) {
      if (isDomainError(error)) {
        const headers: Record<string, string> = { ...NO_STORE }
        if (error.code === 'rate_limited') headers['Retry-After'] = String(retryAfterOf(error))
        const answer = jsonFailure(error, headers)
        if (!options.messageField) return answer
        const body = (await answer.json()) as Record<string, unknown>
        return Response.json({ ...body, message: error.message }, { status: answer.status, headers: answer.headers })
      }
      if (isDatabaseUnavailable(error)) {
        // The database is restarting or every connection is busy: a clean 503 the client may retry.
        return Response.json(
          { error: API_MESSAGES.unavailable },
          { status: 503, headers: { ...NO_STORE, 'Retry-After': String(RETRY_AFTER_SECONDS) } },
        )
      }
      console.error(`[api] ${method} ${new URL(request.url).pathname} failed`, error)
      return Response.json({ error: API_MESSAGES.serverError }, { status: 500, headers: NO_STORE })
    }
  }
  return { loader: run, action: run }
}

/** A refusal for too many attempts, saying how long to wait (Retry-After). */
export class RateLimited extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message)
  }
}

function retryAfterOf(error: DomainError): number {
  return error instanceof RateLimited ? Math.max(1, Math.ceil(error.retryAfterSeconds)) : 60
}

/** `data` with a status (201 for created). */
export function json(data: unknown, status = 200): Response {
  return Response.json(data, { status, headers: NO_STORE })
}

const MAX_JSON_BYTES = 64 * 1024

/**
 * The JSON body (or a urlencoded form, for simple clients), checked by
 * `schema`: 400 with the first issue's message (the spec's text) and one
 * message per field; 413 past 64 kB.
 */
export async function readBody<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.output<S>> {
  const raw = await readRawBody(request)
  return parseWith(schema, raw)
}

export function parseWith<S extends z.ZodTypeAny>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  const fieldErrors: Record<string, string> = {}
  for (const issue of parsed.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'form'
    fieldErrors[key] ??= issue.message
  }
  throw new DomainError('invalid', parsed.error.issues[0]?.message ?? API_MESSAGES.badJson, fieldErrors)
}

async function readRawBody(request: Request): Promise<unknown> {
  if (Number(request.headers.get('Content-Length') ?? 0) > MAX_JSON_BYTES) {
    throw new DomainError('too_large', API_MESSAGES.bodyTooLarge)
  }
  const text = await readLimitedText(request)
  const type = request.headers.get('Content-Type') ?? ''
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text))
  }
  if (!text.trim()) return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new DomainError('invalid', API_MESSAGES.badJson)
  }
}

async function readLimitedText(request: Request): Promise<string> {
  if (!request.body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > MAX_JSON_BYTES) throw new DomainError('too_large', API_MESSAGES.bodyTooLarge)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Runs `work`; a refusal's field errors come back under the API's field
 * names (`names`: the domain's name → the API's), its message unchanged.
 */
export async function withFieldNames<T>(names: Record<string, string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!isDomainError(error) || !error.fieldErrors) throw error
    const fieldErrors = Object.fromEntries(
      Object.entries(error.fieldErrors).map(([field, message]) => [names[field] ?? field, message]),
    )
    throw new DomainError(error.code, error.message, fieldErrors)
  }
}
