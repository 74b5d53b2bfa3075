import type { Request, Response } from 'express'
import { z } from 'zod'
import type { StackContext } from '../context'
import { emailMaxFrequencyMs, redirectTarget } from './auth-config'
import { inTransaction } from './db'
import { appConfirmLink, issueEmailToken, recoveryEmail, verifyLink } from './email-links'
import { AuthError, validationFailed } from './errors'
import { createFlowState, pkceParams } from './pkce'
import type { RateLimiter } from './rate-limit'
import { clientIp, queryParam, readJson } from './request'
import { findUserByEmail, findUserById, validateEmail } from './users'

/**
 * POST /recover (GoTrue's recover.go): mails a password-reset message (the
 * developer mailbox in embedded mode, SMTP in server mode) and answers `{}` — also for an unknown address, so the
 * answer tells nobody who has an account. One user gets at most one email
 * per `[auth.email] max_frequency`; the server sends at most `email_sent`
 * emails an hour.
 */
const recoverBody = z
  .object({
    email: z.string().nullish(),
    code_challenge: z.string().nullish(),
    code_challenge_method: z.string().nullish(),
  })
  .passthrough()

export function recover(ctx: StackContext, limiter: RateLimiter) {
  return async (req: Request, res: Response) => {
    const ip = clientIp(req, ctx)
    await limiter.take('sign_in_sign_ups', ip)
    const body = readJson(req, recoverBody)
    if (!body.email) throw validationFailed('Password recovery requires an email')
    const email = validateEmail(body.email)
    const pkce = pkceParams(body.code_challenge ?? undefined, body.code_challenge_method ?? undefined)
    const redirectTo = redirectTarget(ctx, queryParam(req, 'redirect_to') ?? req.get('referer'))

    const found = await findUserByEmail(ctx.pool, email)
    if (!found) {
      res.json({})
      return
    }
    await inTransaction(ctx.pool, async (db) => {
      const user = (await findUserById(db, found.id, { forUpdate: true }))!
      const waitMs = user.recovery_sent_at ? new Date(user.recovery_sent_at).getTime() + emailMaxFrequencyMs(ctx) - Date.now() : 0
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000)
        throw new AuthError(
          429,
          'over_email_send_rate_limit',
          `For security purposes, you can only request this after ${seconds} seconds.`,
          {},
          { 'Retry-After': String(seconds) },
        )
      }
      await limiter.take('email_sent', ip, db)
      if (pkce) await createFlowState(db, user.id, pkce, 'recovery')
      const { otp, hashedToken } = await issueEmailToken(db, user, 'recovery', Boolean(pkce))
      const links = {
        app: appConfirmLink(redirectTo, hashedToken, 'recovery'),
        verify: verifyLink(ctx, hashedToken, 'recovery', redirectTo),
      }
      await ctx.mail.send({ to: email, ...recoveryEmail(links, otp) }).catch((error: unknown) => {
        console.error('[auth] recovery email not sent:', error instanceof Error ? error.message : error)
        throw new AuthError(500, 'unexpected_failure', 'Error sending recovery email')
      })
    })
    res.json({})
  }
}
