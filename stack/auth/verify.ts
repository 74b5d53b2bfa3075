import type { Request, Response } from 'express'
import { z } from 'zod'
import type { StackContext } from '../context'
import { otpExpirySeconds, redirectTarget } from './auth-config'
import type { Db } from './db'
import { inTransaction, one } from './db'
import { AuthError, forbidden, validationFailed } from './errors'
import { issueAuthCode } from './pkce'
import type { RateLimiter } from './rate-limit'
import { clientIp, queryParam, readJson } from './request'
import { startSession, type AuthenticationMethod, type RequestMeta } from './sessions'
import { PKCE_PREFIX, tokenHash } from './tokens'
import { confirmEmail, findUserByEmail, findUserById, type UserRow } from './users'

/**
 * Emailed tokens coming back (GoTrue's verify.go):
 * - GET /verify?token=<hash>&type=…&redirect_to=… — the link in the email:
 *   303 to `redirect_to#access_token=…` (implicit flow) or
 *   `redirect_to?code=…` (PKCE flow, token prefixed `pkce_`); failures
 *   redirect too, with `error`, `error_code`, `error_description`.
 * - POST /verify {type, token_hash} or {type, email, token} — what
 *   `verifyOtp` sends: 200 with a session.
 * Types: recovery, magiclink, signup, and email (either of them). A token
 * works once and expires after `[auth.email] otp_expiry` seconds.
 */
type VerifyType = 'recovery' | 'magiclink' | 'signup' | 'email'
const VERIFY_TYPES: readonly string[] = ['recovery', 'magiclink', 'signup', 'email']

const verifyBody = z
  .object({
    type: z.string().nullish(),
    token: z.string().nullish(),
    token_hash: z.string().nullish(),
    email: z.string().nullish(),
    phone: z.string().nullish(),
  })
  .passthrough()

const EXPIRED_LINK = 'Email link is invalid or has expired'

interface Verified {
  user: UserRow
  /** The type the token turned out to be (an `email` token is a sign-up or a magic link). */
  type: Exclude<VerifyType, 'email'>
}

/** Finds the user a token belongs to, or GoTrue's 403. */
async function userForToken(
  db: Db,
  ctx: StackContext,
  type: VerifyType,
  token: { hash: string } | { email: string; otp: string },
): Promise<Verified> {
  let user: UserRow | undefined
  let hash: string
  if ('email' in token) {
    hash = tokenHash(token.email.toLowerCase(), token.otp)
    user = await findUserByEmail(db, token.email)
  } else {
    hash = token.hash
    const kinds =
      type === 'signup'
        ? ['confirmation_token']
        : type === 'email'
          ? ['confirmation_token', 'recovery_token']
          : ['recovery_token']
    const match = await one<{ user_id: string }>(
      db,
      'select user_id from auth.one_time_tokens where token_hash = $1 and token_type::text = any($2::text[]) limit 1',
      [hash, kinds],
    )
    user = match && (await findUserById(db, match.user_id, { forUpdate: true }))
  }
  const invalid = 'email' in token ? 'Token has expired or is invalid' : EXPIRED_LINK
  if (!user) throw forbidden('otp_expired', invalid)
  const matches = (stored: string | null) => Boolean(stored) && (stored === hash || stored === PKCE_PREFIX + hash)
  const isRecovery = type !== 'signup' && matches(user.recovery_token)
  const isConfirmation = (type === 'signup' || type === 'email') && !isRecovery && matches(user.confirmation_token)
  if (!isRecovery && !isConfirmation) throw forbidden('otp_expired', invalid)
  if (user.is_banned) throw forbidden('user_banned', 'User is banned')
  const sentAt = isRecovery ? user.recovery_sent_at : user.confirmation_sent_at
  if (!sentAt || new Date(sentAt).getTime() + otpExpirySeconds(ctx) * 1000 < Date.now()) {
    throw forbidden('otp_expired', invalid)
  }
  const resolved = isRecovery ? (type === 'email' ? 'magiclink' : (type as 'recovery' | 'magiclink')) : 'signup'
  return { user, type: resolved }
}

/** Spends the token: GoTrue's `Recover` (which also confirms an unconfirmed email) or `Confirm`. */
async function applyVerification(db: Db, { user, type }: Verified): Promise<UserRow> {
  if (type === 'signup') {
    await confirmEmail(db, user.id)
  } else {
    await db.query(`update auth.users set recovery_token = '', updated_at = now() where id = $1`, [user.id])
    await db.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'`, [user.id])
    if (!user.email_confirmed_at) await confirmEmail(db, user.id)
  }
  return (await findUserById(db, user.id))!
}

const flowMethod = (type: Verified['type']): AuthenticationMethod => (type === 'signup' ? 'email/signup' : type)

function requireType(type: string | null | undefined): VerifyType {
  if (!type) throw validationFailed('Verify requires a verification type')
  if (!VERIFY_TYPES.includes(type)) throw validationFailed('Unsupported verification type')
  return type as VerifyType
}

export function verifyLinkFollowed(ctx: StackContext, limiter: RateLimiter) {
  return async (req: Request, res: Response) => {
    const meta: RequestMeta = { userAgent: req.get('user-agent'), ip: clientIp(req, ctx) }
    await limiter.take('token_verifications', meta.ip)
    const token = queryParam(req, 'token')
    const type = requireType(queryParam(req, 'type'))
    if (!token) throw validationFailed('Verify requires a token or a token hash')
    const redirectTo = redirectTarget(ctx, queryParam(req, 'redirect_to') ?? req.get('referer'))
    const pkce = token.startsWith(PKCE_PREFIX)

    let location: string
    try {
      location = await inTransaction(ctx.pool, async (db) => {
        const verified = await userForToken(db, ctx, type, { hash: token })
        const user = await applyVerification(db, verified)
        if (pkce) {
          const url = new URL(redirectTo)
          url.searchParams.set('code', await issueAuthCode(db, user.id, flowMethod(verified.type)))
          return url.toString()
        }
        const session = await startSession(db, ctx, user, 'otp', meta)
        const fragment = new URLSearchParams({
          access_token: String(session.access_token),
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: String(session.refresh_token),
          token_type: 'bearer',
          type: verified.type,
        })
        return `${redirectTo}#${fragment}`
      })
    } catch (error) {
      if (!(error instanceof AuthError)) throw error
      location = errorRedirect(redirectTo, error, pkce)
    }
    res.redirect(303, location)
  }
}

/** GoTrue's `prepErrorRedirectURL`: the error in the fragment, and in the query too for PKCE. */
function errorRedirect(redirectTo: string, error: AuthError, pkce: boolean): string {
  const url = new URL(redirectTo)
  const oauthError = { 400: 'invalid_request', 401: 'unauthorized_client', 403: 'access_denied', 500: 'server_error' }[
    error.status
  ]
  const params = new URLSearchParams({
    ...(oauthError ? { error: oauthError } : {}),
    error_code: error.code,
    error_description: error.message,
  })
  if (pkce) for (const [key, value] of params) url.searchParams.set(key, value)
  url.hash = params.toString()
  return url.toString()
}

export function verifyOtp(ctx: StackContext, limiter: RateLimiter) {
  return async (req: Request, res: Response) => {
    const meta: RequestMeta = { userAgent: req.get('user-agent'), ip: clientIp(req, ctx) }
    await limiter.take('token_verifications', meta.ip)
    const body = readJson(req, verifyBody)
    const type = requireType(body.type)
    if (body.phone) throw validationFailed('Only an email address or phone number should be provided on verify')
    const token = body.token_hash
      ? { hash: body.token_hash }
      : body.token && body.email
        ? { email: body.email, otp: body.token }
        : undefined
    if (!token) throw validationFailed('Verify requires either a token or a token hash')
    const session = await inTransaction(ctx.pool, async (db) => {
      const user = await applyVerification(db, await userForToken(db, ctx, type, token))
      return startSession(db, ctx, user, 'otp', meta)
    })
    res.json(session)
  }
}
