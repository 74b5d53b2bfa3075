import { createHash } from 'node:crypto'
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { rateLimit, ipKeyGenerator, type Options } from 'express-rate-limit'
import { isTrustedProxy } from '../../../stack/net'
import { API_MESSAGES } from '~/lib/schemas/api'
import { AUTH_MESSAGES } from '~/lib/schemas/auth'
import { counterStore, postgresCounter, type WindowCounter } from '../rate-limits.server'

/**
 * The /api's front door in Express (mounted in server.ts before Remix):
 * CORS for an allow-list of origins (off by default), and rate limits —
 * per address for everyone, per token for signed-in callers, and stricter
 * per address for sign-in, sign-up, password reset and the email check
 * (Auth and `isEmailRegistered` keep their own limits too). A refusal is
 * 429 with Retry-After and the JSON error shape of every other refusal.
 * The counts are in Postgres (app/server/rate-limits.server.ts), shared by
 * every process: N processes allow what one allows.
 */
export interface ApiLimits {
  /** Requests per address per minute, on every /api path. */
  perAddress: number
  /** Requests per token per minute (signed-in callers). */
  perToken: number
  /** Sign-in, sign-up, password-reset and email-check calls per address per 5 minutes. */
  accountCalls: number
}

export const DEFAULT_API_LIMITS: ApiLimits = { perAddress: 600, perToken: 300, accountCalls: 20 }

const ACCOUNT_PATHS = new Set(['/api/auth/login', '/api/auth/signup', '/api/auth/forgot-password', '/api/auth/check-email'])

const addressKey = (req: ExpressRequest) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')

function tokenKey(req: ExpressRequest): string {
  const header = req.get('authorization') ?? ''
  return createHash('sha256').update(header).digest('base64url').slice(0, 22)
}

function refusal(message: string): Options['handler'] {
  return (req: ExpressRequest, res: ExpressResponse, _next, options) => {
    const info = (req as ExpressRequest & { rateLimit?: { resetTime?: Date } }).rateLimit
    const seconds = info?.resetTime
      ? Math.max(1, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000))
      : Math.ceil(options.windowMs / 1000)
    res.setHeader('Retry-After', String(seconds))
    res.setHeader('Cache-Control', 'no-store')
    res.status(429).json({ error: message })
  }
}

/** `counter`: where the windows are counted; Postgres unless a test of the front door alone says otherwise. */
export function apiRateLimits(limits: ApiLimits = DEFAULT_API_LIMITS, counter: WindowCounter = postgresCounter): RequestHandler[] {
  const common = { standardHeaders: 'draft-7' as const, legacyHeaders: false }
  return [
    rateLimit({
      ...common,
      windowMs: 5 * 60_000,
      limit: limits.accountCalls,
      keyGenerator: addressKey,
      skip: (req) => !ACCOUNT_PATHS.has(req.originalUrl.split('?')[0]!),
      handler: refusal(AUTH_MESSAGES.tooManyAttempts),
      store: counterStore('api:account', counter),
    }),
    rateLimit({
      ...common,
      windowMs: 60_000,
      limit: limits.perAddress,
      keyGenerator: addressKey,
      handler: refusal(API_MESSAGES.tooManyRequests),
      store: counterStore('api:address', counter),
    }),
    rateLimit({
      ...common,
      windowMs: 60_000,
      limit: limits.perToken,
      keyGenerator: tokenKey,
      skip: (req) => !req.get('authorization'),
      handler: refusal(API_MESSAGES.tooManyRequests),
      store: counterStore('api:token', counter),
      identifier: 'per-token',
    }),
  ]
}

/**
 * Express's `trust proxy` for TRUSTED_PROXY (`loopback`, addresses, or `none`), judged as the
 * stand-in judges its own callers: `req.ip` is then X-Forwarded-For read from the right while the
 * hop is trusted, else the socket's address. The rate limits above key on it.
 */
export function trustProxy(setting: string): (address: string) => boolean {
  return (address) => isTrustedProxy(setting, address)
}

/** `API_CORS_ORIGINS`: a comma-separated list of origins (`https://app.example`); empty means no CORS. */
export function parseCorsOrigins(value: string | undefined): Set<string> {
  const origins = new Set<string>()
  for (const part of (value ?? '').split(',')) {
    const trimmed = part.trim().replace(/\/+$/, '')
    if (!trimmed) continue
    try {
      const url = new URL(trimmed)
      if (url.origin === trimmed) origins.add(url.origin)
    } catch {
      // Not an origin: ignored (the env check reports it at boot).
    }
  }
  return origins
}

/**
 * CORS for /api: only for allow-listed origins, never with credentials
 * (the API reads bearer tokens, not cookies). Preflights answer 204.
 */
export function apiCors(allowed: Set<string>): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin')
    res.vary('Origin')
    if (origin && allowed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin)
      res.setHeader(
        'Access-Control-Expose-Headers',
        'Retry-After, RateLimit, RateLimit-Policy, X-Next-Cursor, Content-Range, Accept-Ranges',
      )
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, DELETE')
        res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Range')
        res.setHeader('Access-Control-Max-Age', '600')
      }
    }
    if (req.method === 'OPTIONS') {
      res.status(204).end()
      return
    }
    next()
  }
}
