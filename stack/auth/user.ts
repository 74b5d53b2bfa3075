import type { Request, Response } from 'express'
import { z } from 'zod'
import type { StackContext } from '../context'
import { assertAudience, requireCaller } from './caller'
import { inTransaction } from './db'
import { badRequest, forbidden, unprocessable, validationFailed } from './errors'
import { assertStrongPassword, hashPassword, passwordMatches } from './passwords'
import type { RateLimiter } from './rate-limit'
import { clientIp, queryParam, readJson } from './request'
import { endSessions, type LogoutScope } from './sessions'
import { findUserById, findUserByEmail, mergeMetadata, storePassword, userJson, validateEmail, type UserRow } from './users'

/**
 * The signed-in user's own routes (GoTrue's user.go, logout.go): GET and
 * PUT /user, POST /logout.
 *
 * Changing one's own email is refused (422) rather than half-done: GoTrue
 * would mail a confirmation link to both addresses, Lumen shows the email as
 * read-only, and an admin can change it with PUT /admin/users/{id}.
 */
const updateBody = z
  .object({
    email: z.string().nullish(),
    phone: z.string().nullish(),
    password: z.string().nullish(),
    current_password: z.string().nullish(),
    nonce: z.string().nullish(),
    data: z.record(z.unknown()).nullish(),
    app_metadata: z.record(z.unknown()).nullish(),
  })
  .passthrough()

export function getUser(ctx: StackContext) {
  return async (req: Request, res: Response) => {
    const caller = await requireCaller(req, ctx, ctx.pool)
    assertAudience(req, caller.claims)
    res.json(await userJson(ctx.pool, caller.user))
  }
}

export function updateUser(ctx: StackContext, limiter: RateLimiter) {
  return async (req: Request, res: Response) => {
    const { user, session } = await requireCaller(req, ctx, ctx.pool)
    await limiter.take('sign_in_sign_ups', clientIp(req, ctx))
    const body = readJson(req, updateBody)
    const email = body.email ? validateEmail(body.email) : undefined
    if (body.password != null) assertStrongPassword(ctx, body.password)
    if (body.app_metadata) throw forbidden('not_admin', 'Updating app_metadata requires admin privileges')
    if (body.phone) throw unprocessable('phone_provider_disabled', 'Phone changes are not available')
    if (email && email !== user.email) {
      if (await findUserByEmail(ctx.pool, email)) {
        throw unprocessable('email_exists', 'A user with this email address has already been registered')
      }
      throw unprocessable(
        'validation_failed',
        'Changing your email address is not available here; an administrator can change it for you',
      )
    }

    let passwordHash: string | undefined
    if (body.password != null) {
      await assertRecentSignIn(ctx, user, session?.id, body.current_password ?? undefined)
      if (user.encrypted_password && (await passwordMatches(body.password, user.encrypted_password))) {
        throw unprocessable('same_password', 'New password should be different from the old password.')
      }
      passwordHash = await hashPassword(body.password)
    }

    const updated = await inTransaction(ctx.pool, async (db) => {
      if (passwordHash) {
        await storePassword(db, user.id, passwordHash)
        // A new password means the old one may be known: every other session ends.
        await endSessions(db, user.id, session ? 'others' : 'global', session?.id)
      }
      if (body.data) await mergeMetadata(db, user.id, 'raw_user_meta_data', body.data)
      return userJson(db, (await findUserById(db, user.id))!)
    })
    res.json(updated)
  }
}

/**
 * GoTrue's `secure_password_change` (`[auth.email]`, on in Lumen's config):
 * a new password needs a session signed in within the last 24 hours — a
 * recovery link's session is new — or, where GoTrue would ask for the
 * `/reauthenticate` nonce (not served here), the current password. A stolen
 * old session cannot lock the owner out (ADR 0012, finding 2).
 */
const RECENT_SIGN_IN_MS = 24 * 60 * 60 * 1000

async function assertRecentSignIn(
  ctx: StackContext,
  user: UserRow,
  sessionId: string | undefined,
  currentPassword: string | undefined,
) {
  if (sessionId) {
    const { rows } = await ctx.pool.query<{ created_at: Date }>('select created_at from auth.sessions where id = $1', [sessionId])
    const createdAt = rows[0]?.created_at
    if (createdAt && Date.now() - new Date(createdAt).getTime() < RECENT_SIGN_IN_MS) return
  }
  if (currentPassword && user.encrypted_password && (await passwordMatches(currentPassword, user.encrypted_password))) return
  throw badRequest('reauthentication_needed', 'Password update requires reauthentication')
}

export function logout(ctx: StackContext) {
  return async (req: Request, res: Response) => {
    const { user, session } = await requireCaller(req, ctx, ctx.pool)
    const scopeParam = queryParam(req, 'scope') ?? ''
    if (!['', 'global', 'local', 'others'].includes(scopeParam)) {
      throw validationFailed(`Unsupported logout scope "${scopeParam}"`)
    }
    const scope = (scopeParam || 'global') as LogoutScope
    await endSessions(ctx.pool, user.id, session ? scope : 'global', session?.id)
    res.status(204).end()
  }
}
