import { isIP } from 'node:net'
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import express from 'express'
import type { z } from 'zod'
import type { StackContext } from '../context'
import { forwardedClientIp, normaliseIp } from '../net'
import { AuthError, badRequest, validationFailed } from './errors'

/**
 * Reading requests the way GoTrue does: the body is JSON whatever its
 * content type, a malformed one is `bad_json`, and a field of the wrong type
 * is `bad_json` too (Go's decoder fails there). On top of GoTrue: bodies over
 * 1 MB are refused before they are read, and a null byte (which Postgres text
 * cannot store) or absurd nesting is a 400 instead of a database error.
 */
const BODY_LIMIT = '1mb'
const MAX_DEPTH = 64

/** Buffers the raw body (up to the limit) for `readJson`. */
export const rawBody: RequestHandler = express.raw({ type: () => true, limit: BODY_LIMIT })

/** Turns body-parser's own failures (too large, aborted) into GoTrue-shaped errors. */
export function bodyParserErrors(error: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const type = (error as { type?: string } | null)?.type
  if (type === 'entity.too.large') return next(new AuthError(413, 'request_too_large', 'Request body is larger than 1 MB'))
  if (type === 'request.aborted' || type === 'entity.verify.failed' || type === 'encoding.unsupported') {
    return next(badRequest('bad_json', 'Could not read the request body'))
  }
  next(error)
}

/** The parsed JSON body, checked against `schema`; `optional` lets an empty body mean `{}`. */
export function readJson<T extends z.ZodTypeAny>(req: Request, schema: T, options: { optional?: boolean } = {}): z.output<T> {
  const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : ''
  let value: unknown
  if (raw.trim() === '') {
    if (!options.optional) throw badRequest('bad_json', 'Could not parse request body as JSON: unexpected end of JSON input')
    value = {}
  } else {
    try {
      value = JSON.parse(raw)
    } catch (error) {
      throw badRequest('bad_json', `Could not parse request body as JSON: ${(error as Error).message}`)
    }
  }
  assertStorable(value)
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? issue.path.join('.') : 'body'
    throw badRequest('bad_json', `Could not parse request body as JSON: ${where}: ${issue?.message ?? 'invalid value'}`)
  }
  return parsed.data
}

/** Refuses null bytes anywhere (keys included) and nesting deeper than MAX_DEPTH, without recursion. */
export function assertStorable(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }]
  while (stack.length) {
    const { value: current, depth } = stack.pop()!
    if (typeof current === 'string') {
      if (current.includes('\u0000')) throw validationFailed('Request contains a null byte')
    } else if (current && typeof current === 'object') {
      if (depth >= MAX_DEPTH) throw validationFailed('Request body is nested too deeply')
      for (const [key, child] of Object.entries(current)) {
        if (key.includes('\u0000')) throw validationFailed('Request contains a null byte')
        stack.push({ value: child, depth: depth + 1 })
      }
    }
  }
}

/** A query parameter as one string (the first when repeated), refusing null bytes. */
export function queryParam(req: Request, name: string): string | undefined {
  const value = req.query[name]
  const first = Array.isArray(value) ? value[0] : value
  if (typeof first !== 'string') return undefined
  if (first.includes('\u0000')) throw validationFailed('Request contains a null byte')
  return first
}

/** The API key the gateway would read: the `apikey` header, else `?apikey=`. */
export function apiKeyOf(req: Request): string | undefined {
  return req.get('apikey') ?? queryParam(req, 'apikey')
}

/**
 * The address rate limits count against. Two ways to name the client:
 * Supabase's `Sb-Forwarded-For` (or X-Forwarded-For) alongside the
 * service-role key, and `X-Forwarded-For` from a direct peer that
 * TRUSTED_PROXY trusts (by default loopback: the app's own server, whose
 * supabase-js calls come from this machine). Anyone else could otherwise
 * pick a fresh address for every request.
 */
export function clientIp(req: Request, ctx: StackContext): string {
  if (apiKeyOf(req) === ctx.keys.serviceRoleKey) {
    const forwarded = (req.get('sb-forwarded-for') ?? req.get('x-forwarded-for'))?.split(',')[0]?.trim()
    if (forwarded && isIP(forwarded)) return normaliseIp(forwarded)
  }
  return forwardedClientIp(ctx.trustedProxy, req.socket.remoteAddress, req.get('x-forwarded-for'))
}

/** Express 4 does not catch rejected promises: hand them to the error middleware. */
export function handle(work: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    work(req, res).catch(next)
  }
}
