import express, { type NextFunction, type Request, type Response } from 'express'
import type { StackContext } from '../context'
import { createUserByAdmin, deleteUserByAdmin, generateLink, getUserByAdmin, listUsers, updateUserByAdmin } from './admin'
import { confirmationsRequested } from './auth-config'
import { requireAdmin } from './caller'
import { AuthError, OAuthError, sendAuthError } from './errors'
import { RateLimiter } from './rate-limit'
import { recover } from './recover'
import { apiKeyOf, bodyParserErrors, handle, rawBody } from './request'
import { signup } from './signup'
import { token } from './token'
import { getUser, logout, updateUser } from './user'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../../ops/health'
import { verifyLinkFollowed, verifyOtp } from './verify'

/**
 * The stand-in's GoTrue at `/auth/v1`: the part of GoTrue's HTTP API
 * that Lumen uses (see
 * docs/decisions/0005-auth-stand-in.md for what is served and what is not),
 * behind what Supabase's API gateway adds in front of GoTrue: CORS, the
 * `X-Supabase-Api-Version` header, and the API-key check.
 */
const ALLOWED_HEADERS = [
  'authorization',
  'apikey',
  'x-client-info',
  'content-type',
  'x-supabase-api-version',
  'x-upsert',
  'x-jwt-aud',
  'accept',
  'accept-profile',
  'content-profile',
  'prefer',
  'range',
  'cache-control',
  'x-retry-count',
].join(', ')
const EXPOSED_HEADERS = 'x-supabase-api-version, x-total-count, link, retry-after'

export function createAuthRouter(ctx: StackContext): express.Router {
  const limiter = new RateLimiter(ctx)
  const router = express.Router()
  if (confirmationsRequested(ctx)) {
    console.warn('[auth] [auth.email] enable_confirmations is not supported by the stand-in: sign-ups are confirmed at once')
  }

  router.use((req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS)
    res.setHeader('X-Supabase-Api-Version', '2024-01-01')
    if (req.method !== 'OPTIONS') return next()
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS)
    res.setHeader('Access-Control-Max-Age', '86400')
    res.status(204).end()
  })

  // Routes the gateway leaves open: the health check, the public keys, and the link in an email.
  router.get('/health', (_req, res) => {
    res.json({ version: 'lumen-stand-in', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' })
  })
  router.get('/.well-known/jwks.json', (_req, res) => {
    // HS256 only: there is no public key to publish.
    res.json({ keys: [] })
  })
  router.get('/verify', handle(verifyLinkFollowed(ctx, limiter)))

  router.use((req, res, next) => {
    const key = apiKeyOf(req)
    if (!key) {
      res.status(401).json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' })
    } else if (key !== ctx.keys.anonKey && key !== ctx.keys.serviceRoleKey) {
      res.status(401).json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' })
    } else {
      next()
    }
  })
  router.use(rawBody, bodyParserErrors)

  router.get('/settings', (_req, res) => {
    res.json({
      external: { anonymous_users: false, email: true, phone: false },
      disable_signup: !ctx.config.auth.enable_signup,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    })
  })
  router.post('/signup', handle(signup(ctx, limiter)))
  router.post('/token', handle(token(ctx, limiter)))
  router.post('/verify', handle(verifyOtp(ctx, limiter)))
  router.post('/recover', handle(recover(ctx, limiter)))
  router.get('/user', handle(getUser(ctx)))
  router.put('/user', handle(updateUser(ctx, limiter)))
  router.post('/logout', handle(logout(ctx)))

  const admin = express.Router()
  admin.use((req, _res, next) => {
    requireAdmin(req, ctx).then(() => next(), next)
  })
  admin.get('/users', handle(listUsers(ctx)))
  admin.post('/users', handle(createUserByAdmin(ctx)))
  admin.get('/users/:id', handle(getUserByAdmin(ctx)))
  admin.put('/users/:id', handle(updateUserByAdmin(ctx)))
  admin.delete('/users/:id', handle(deleteUserByAdmin(ctx)))
  admin.post('/generate_link', handle(generateLink(ctx)))
  router.use('/admin', admin)

  router.use((_req, res) => {
    res.status(404).type('text/plain').send('404 page not found')
  })
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof AuthError) return sendAuthError(req, res, error)
    if (error instanceof OAuthError) {
      res.status(400).json({ error: error.error, error_description: error.description })
      return
    }
    if (isDatabaseUnavailable(error)) {
      // The database is restarting or unreachable: a clean, retryable answer, not a failure.
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      sendAuthError(req, res, new AuthError(503, 'unexpected_failure', 'Service briefly unavailable, please try again shortly'))
      return
    }
    console.error('[auth] unexpected failure:', error)
    sendAuthError(
      req,
      res,
      new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'),
    )
  })
  return router
}
