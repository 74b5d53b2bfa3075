import { randomUUID } from 'node:crypto'
import type { Request, Response } from 'express'
import { z } from 'zod'
import type { StackContext } from '../context'
import { inTransaction } from './db'
import { AuthError, badRequest, unprocessable, validationFailed } from './errors'
import { hashPassword, assertStrongPassword } from './passwords'
import { pkceParams } from './pkce'
import type { RateLimiter } from './rate-limit'
import { clientIp, readJson } from './request'
import { startSession } from './sessions'
import { createUser, emailIdentityData, findUserByEmail, validateEmail } from './users'

/**
 * POST /signup (GoTrue's signup.go) with email confirmations off, as
 * `supabase start` runs by default: the user is confirmed at once and the
 * answer is a session. The sign-up `data` becomes user_metadata together with
 * GoTrue's identity claims (sub, email, email_verified, phone_verified), in
 * the same INSERT, so database triggers on auth.users see it.
 */
const signupBody = z
  .object({
    email: z.string().nullish(),
    phone: z.string().nullish(),
    password: z.string().nullish(),
    data: z.record(z.unknown()).nullish(),
    code_challenge: z.string().nullish(),
    code_challenge_method: z.string().nullish(),
  })
  .passthrough()

export function signup(ctx: StackContext, limiter: RateLimiter) {
  return async (req: Request, res: Response) => {
    const body = readJson(req, signupBody)
    if (!body.email && !body.phone) {
      throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled')
    }
    await limiter.take('sign_in_sign_ups', clientIp(req, ctx))
    if (!ctx.config.auth.enable_signup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance')

    if (!body.password) throw validationFailed('Signup requires a valid password')
    assertStrongPassword(ctx, body.password)
    if (body.email && body.phone) {
      throw validationFailed('Only an email address or phone number should be provided on signup.')
    }
    // With confirmations off there is nothing for a PKCE flow to carry, but bad parameters are still refused.
    pkceParams(body.code_challenge ?? undefined, body.code_challenge_method ?? undefined)
    if (!body.email) throw badRequest('phone_provider_disabled', 'Phone signups are disabled')
    const email = validateEmail(body.email)

    if (await findUserByEmail(ctx.pool, email)) throw unprocessable('user_already_exists', 'User already registered')
    const passwordHash = await hashPassword(body.password)

    const id = randomUUID()
    const identityData: Record<string, unknown> = { ...emailIdentityData(email), sub: id }
    for (const [key, value] of Object.entries(body.data ?? {})) if (!(key in identityData)) identityData[key] = value
    const session = await inTransaction(ctx.pool, async (db) => {
      const user = await createUser(db, {
        id,
        email,
        passwordHash,
        confirmed: true,
        identityData,
        userMetadata: { ...identityData, email_verified: true },
        appMetadata: { provider: 'email', providers: ['email'] },
      }).catch((error: unknown) => {
        throw databaseError(error)
      })
      return startSession(db, ctx, user, 'password', { userAgent: req.get('user-agent'), ip: clientIp(req, ctx) })
    })
    res.json(session)
  }
}

/**
 * A concurrent sign-up with the same email is a duplicate. The migrations'
 * handle_new_user() refuses bad sign-up data with SQLSTATE 22023 and a
 * message naming the field: a 422 with that message (GoTrue would answer
 * 500 "Database error saving new user"); a constraint the trigger missed is
 * still the client's data, not a server failure. Anything else is GoTrue's 500.
 */
function databaseError(error: unknown): AuthError {
  const { code, message } = error as { code?: string; message?: string }
  if (code === '23505') return unprocessable('user_already_exists', 'User already registered')
  if (code === '22023') return unprocessable('validation_failed', `Invalid sign-up data: ${message}`)
  if (code === '23514' || code === '22001') return unprocessable('validation_failed', 'Invalid sign-up data')
  return new AuthError(500, 'unexpected_failure', 'Database error saving new user')
}
