import type { Request, Response } from 'express'
import { z } from 'zod'
import type { StackContext } from '../context'
import { inTransaction, one } from './db'
import { badRequest, notFound, OAuthError, unprocessable, validationFailed } from './errors'
import { FLOW_STATE_EXPIRY_SECONDS } from './auth-config'
import { passwordMatches, weakness } from './passwords'
import type { RateLimiter } from './rate-limit'
import { clientIp, queryParam, readJson } from './request'
import { refreshSession, startSession, type AuthenticationMethod, type RequestMeta } from './sessions'
import { pkceMatches, type ChallengeMethod } from './tokens'
import { findUserByEmail, findUserById } from './users'

/**
 * POST /token (GoTrue's token.go, token_refresh.go): the password,
 * refresh_token and pkce grants, all counted against `token_refresh`.
 */
const passwordBody = z
  .object({ email: z.string().nullish(), phone: z.string().nullish(), password: z.string().nullish() })
  .passthrough()
const refreshBody = z.object({ refresh_token: z.string().nullish() }).passthrough()
const pkceBody = z.object({ auth_code: z.string().nullish(), code_verifier: z.string().nullish() }).passthrough()

export function token(ctx: StackContext, limiter: RateLimiter) {
  return async (req: Request, res: Response) => {
    const grant = queryParam(req, 'grant_type')
    const handler =
      grant === 'password' ? passwordGrant : grant === 'refresh_token' ? refreshGrant : grant === 'pkce' ? pkceGrant : undefined
    // GoTrue answers an unknown grant with invalid_credentials and this message.
    if (!handler) throw badRequest('invalid_credentials', 'unsupported_grant_type')
    const meta: RequestMeta = { userAgent: req.get('user-agent'), ip: clientIp(req, ctx) }
    await limiter.take('token_refresh', meta.ip)
    res.json(await handler(ctx, req, meta, limiter))
  }
}

const INVALID_LOGIN = 'Invalid login credentials'

async function passwordGrant(ctx: StackContext, req: Request, meta: RequestMeta, limiter: RateLimiter) {
  const body = readJson(req, passwordBody)
  if (body.email && body.phone) throw validationFailed('Only an email address or phone number should be provided on login.')
  if (body.phone) throw unprocessable('phone_provider_disabled', 'Phone logins are disabled')
  if (!body.email) throw validationFailed('missing email or phone')
  const password = body.password ?? ''
  // Brute force: refused before the password is even compared.
  await limiter.checkSignIn(meta.ip, body.email)
  const invalid = async () => {
    await limiter.failedSignIn(meta.ip, body.email!)
    return badRequest('invalid_credentials', INVALID_LOGIN)
  }

  const user = await findUserByEmail(ctx.pool, body.email)
  if (!user || !user.encrypted_password) {
    await passwordMatches(password, undefined)
    throw await invalid()
  }
  if (user.is_banned) throw badRequest('user_banned', 'User is banned')
  if (!(await passwordMatches(password, user.encrypted_password))) throw await invalid()
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed')

  const session = await inTransaction(ctx.pool, (db) => startSession(db, ctx, user, 'password', meta))
  // GoTrue signs in a password that no longer meets the rules, and says so.
  const weak = weakness(ctx, password)
  return weak ? { ...session, weak_password: weak } : session
}

async function refreshGrant(ctx: StackContext, req: Request, meta: RequestMeta, _limiter: RateLimiter) {
  const body = readJson(req, refreshBody)
  if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token required')
  return refreshSession(ctx.pool, ctx, body.refresh_token, meta)
}

interface FlowStateRow {
  id: string
  user_id: string | null
  code_challenge_method: ChallengeMethod
  code_challenge: string
  authentication_method: string
  expired: boolean
}

async function pkceGrant(ctx: StackContext, req: Request, meta: RequestMeta, _limiter: RateLimiter) {
  const body = readJson(req, pkceBody)
  if (!body.auth_code || !body.code_verifier) {
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty')
  }
  const { auth_code: authCode, code_verifier: verifier } = body
  return inTransaction(ctx.pool, async (db) => {
    // Only a code that an email link has handed out can be exchanged.
    const flow = await one<FlowStateRow>(
      db,
      `select id, user_id, code_challenge_method, code_challenge, authentication_method,
         auth_code_issued_at < now() - make_interval(secs => $2) as expired
       from auth.flow_state where auth_code = $1 and auth_code_issued_at is not null for update`,
      [authCode, FLOW_STATE_EXPIRY_SECONDS],
    )
    if (!flow || !flow.user_id) throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found')
    if (flow.expired) throw unprocessable('flow_state_expired', 'invalid flow state, flow state has expired')
    if (!pkceMatches(flow.code_challenge_method, flow.code_challenge, verifier)) {
      throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier')
    }
    const user = await findUserById(db, flow.user_id)
    if (!user) throw notFound('user_not_found', 'User not found')
    if (user.is_banned) throw badRequest('user_banned', 'User is banned')
    await db.query('delete from auth.flow_state where id = $1', [flow.id])
    return startSession(db, ctx, user, flow.authentication_method as AuthenticationMethod, meta)
  })
}
