import { randomUUID } from 'node:crypto'
import type { Request, Response } from 'express'
import { z } from 'zod'
import type { StackContext } from '../context'
import { parseGoDuration, redirectTarget } from './auth-config'
import type { Db } from './db'
import { inTransaction, isUuid, one } from './db'
import { issueEmailToken, verifyLink } from './email-links'
import { AuthError, notFound, unprocessable, validationFailed } from './errors'
import { assertStrongPassword, hashPassword } from './passwords'
import { queryParam, readJson } from './request'
import { endSessions } from './sessions'
import {
  confirmEmail,
  createUser,
  emailIdentityData,
  findUserByEmail,
  findUserById,
  mergeMetadata,
  softDeleteUser,
  storePassword,
  userJson,
  validateEmail,
  type UserRow,
} from './users'

/**
 * GoTrue's admin API (admin.go): users listed, created, read, updated and
 * deleted, and email links generated without sending them. The router lets
 * only a `service_role` bearer in. Admin changes apply at once, with no
 * confirmation emails; a new password or a ban ends the user's sessions.
 */
const metadata = z.record(z.unknown()).nullish()

const createBody = z
  .object({
    id: z.string().nullish(),
    email: z.string().nullish(),
    phone: z.string().nullish(),
    password: z.string().nullish(),
    email_confirm: z.boolean().nullish(),
    user_metadata: metadata,
    app_metadata: metadata,
    role: z.string().nullish(),
    ban_duration: z.string().nullish(),
  })
  .passthrough()

const updateBody = createBody.omit({ id: true })

const deleteBody = z.object({ should_soft_delete: z.boolean().nullish() }).passthrough()

const linkBody = z
  .object({
    type: z.string().nullish(),
    email: z.string().nullish(),
    password: z.string().nullish(),
    data: metadata,
    redirect_to: z.string().nullish(),
  })
  .passthrough()

const DUPLICATE_EMAIL = 'A user with this email address has already been registered'
const USER_NOT_FOUND = 'User not found'

/** Milliseconds of a ban: a Go duration, or "none" to lift it. */
function banDuration(text: string): number | null {
  if (text === 'none') return null
  const ms = parseGoDuration(text)
  if (ms === undefined || ms < 0) throw validationFailed(`invalid format for ban duration: ${text}`)
  return ms
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null))
}

async function loadUser(db: Db, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID')
  const user = await findUserById(db, id)
  if (!user) throw notFound('user_not_found', USER_NOT_FOUND)
  return user
}

export function listUsers(ctx: StackContext) {
  return async (req: Request, res: Response) => {
    const page = positive(queryParam(req, 'page'), 1)
    const perPage = positive(queryParam(req, 'per_page'), 50)
    const { rows: users } = await ctx.pool.query<UserRow>(
      `select u.*, (u.banned_until is not null and u.banned_until > now()) as is_banned
       from auth.users u order by u.created_at desc, u.id limit $1 offset $2`,
      [perPage, (page - 1) * perPage],
    )
    const count = await one<{ total: number }>(ctx.pool, 'select count(*)::int as total from auth.users')
    const total = count?.total ?? 0
    const lastPage = Math.ceil(total / perPage)
    const base = `${ctx.publicUrl}/auth/v1/admin/users`
    const links = page < lastPage ? [`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`] : []
    links.push(`<${base}?page=${lastPage}&per_page=${perPage}>; rel="last"`)
    res.setHeader('X-Total-Count', String(total))
    res.setHeader('Link', links.join(', '))
    const body = []
    for (const user of users) body.push(await userJson(ctx.pool, user))
    res.json({ users: body, aud: 'authenticated' })
  }
}

function positive(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) throw validationFailed('Bad Pagination Parameters')
  return value
}

export function createUserByAdmin(ctx: StackContext) {
  return async (req: Request, res: Response) => {
    const body = readJson(req, createBody)
    if (body.phone) throw unprocessable('phone_provider_disabled', 'Phone signups are disabled')
    if (!body.email) throw validationFailed('Cannot create a user without either an email or phone')
    const email = validateEmail(body.email)
    if (body.id != null && !isUuid(body.id)) throw validationFailed('ID must conform to the uuid v4 format')
    if (body.password != null) assertStrongPassword(ctx, body.password)
    const banMs = body.ban_duration ? banDuration(body.ban_duration) : null
    if (await findUserByEmail(ctx.pool, email)) throw unprocessable('email_exists', DUPLICATE_EMAIL)
    const passwordHash = body.password ? await hashPassword(body.password) : null

    const user = await inTransaction(ctx.pool, async (db) => {
      const created = await createUser(db, {
        id: body.id ?? randomUUID(),
        email,
        passwordHash,
        role: body.role ?? undefined,
        confirmed: Boolean(body.email_confirm),
        identityData: emailIdentityData(email),
        userMetadata: {
          ...withoutNulls(body.user_metadata ?? {}),
          ...(body.email_confirm ? { email_verified: true } : {}),
        },
        appMetadata: { provider: 'email', providers: ['email'], ...withoutNulls(body.app_metadata ?? {}) },
        bannedUntilMs: banMs ?? undefined,
      }).catch((error: unknown) => {
        const { code, message } = error as { code?: string; message?: string }
        if (code === '23505') throw unprocessable('email_exists', DUPLICATE_EMAIL)
        // handle_new_user() names the bad metadata field (see signup.ts).
        if (code === '22023') throw unprocessable('validation_failed', `Invalid user metadata: ${message}`)
        throw new AuthError(500, 'unexpected_failure', 'Database error creating new user')
      })
      return userJson(db, created)
    })
    res.json(user)
  }
}

export function getUserByAdmin(ctx: StackContext) {
  return async (req: Request, res: Response) => {
    res.json(await userJson(ctx.pool, await loadUser(ctx.pool, String(req.params.id))))
  }
}

export function updateUserByAdmin(ctx: StackContext) {
  return async (req: Request, res: Response) => {
    const existing = await loadUser(ctx.pool, String(req.params.id))
    const body = readJson(req, updateBody)
    if (body.phone) throw unprocessable('phone_provider_disabled', 'Phone changes are not available')
    const email = body.email ? validateEmail(body.email) : undefined
    if (email && email !== existing.email && (await findUserByEmail(ctx.pool, email))) {
      throw unprocessable('email_exists', DUPLICATE_EMAIL)
    }
    if (body.password != null) assertStrongPassword(ctx, body.password)
    const banMs = body.ban_duration ? banDuration(body.ban_duration) : undefined
    const passwordHash = body.password != null ? await hashPassword(body.password) : undefined

    const user = await inTransaction(ctx.pool, async (db) => {
      const id = existing.id
      if (body.role) await db.query('update auth.users set role = $2, updated_at = now() where id = $1', [id, body.role])
      if (email && email !== existing.email) {
        await db.query(`update auth.users set email = $2, email_change = '', updated_at = now() where id = $1`, [id, email])
        await db.query(
          `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
           where user_id = $1 and provider = 'email'`,
          [id, email],
        )
      }
      if (body.email_confirm) await confirmEmail(db, id)
      if (passwordHash) {
        await storePassword(db, id, passwordHash)
        await endSessions(db, id, 'global')
      }
      if (body.user_metadata) await mergeMetadata(db, id, 'raw_user_meta_data', body.user_metadata)
      if (body.app_metadata) await mergeMetadata(db, id, 'raw_app_meta_data', body.app_metadata)
      if (banMs !== undefined) {
        await db.query(
          `update auth.users set banned_until = case when $2::float8 is null then null
             else now() + make_interval(secs => $2::float8 / 1000) end, updated_at = now()
           where id = $1`,
          [id, banMs],
        )
        if (banMs !== null) await endSessions(db, id, 'global')
      }
      return userJson(db, (await findUserById(db, id))!)
    })
    res.json(user)
  }
}

export function deleteUserByAdmin(ctx: StackContext) {
  return async (req: Request, res: Response) => {
    const user = await loadUser(ctx.pool, String(req.params.id))
    const body = readJson(req, deleteBody, { optional: true })
    await inTransaction(ctx.pool, async (db) => {
      if (body.should_soft_delete) await softDeleteUser(db, user)
      else await db.query('delete from auth.users where id = $1', [user.id])
    })
    res.json({})
  }
}

/** POST /admin/generate_link for the recovery, magiclink and signup types. */
export function generateLink(ctx: StackContext) {
  return async (req: Request, res: Response) => {
    const body = readJson(req, linkBody)
    const type = body.type ?? ''
    if (!['recovery', 'magiclink', 'signup'].includes(type)) {
      throw validationFailed(`Invalid email action link type requested: ${type}`)
    }
    const email = validateEmail(body.email ?? undefined)
    const redirectTo = redirectTarget(ctx, body.redirect_to ?? queryParam(req, 'redirect_to'))
    const existing = await findUserByEmail(ctx.pool, email)
    if (type === 'recovery' && !existing) throw notFound('user_not_found', 'User with this email not found')
    if (type === 'signup' && existing?.email_confirmed_at) throw unprocessable('email_exists', DUPLICATE_EMAIL)
    // A magic link for a new address signs the address up, as in GoTrue.
    const verificationType = existing || type === 'recovery' ? type : 'signup'
    if (verificationType === 'signup' && !existing) {
      if (type === 'signup' && !body.password) throw validationFailed('Signup requires a valid password')
      if (body.password) assertStrongPassword(ctx, body.password)
    }
    const passwordHash = body.password && !existing ? await hashPassword(body.password) : null

    const answer = await inTransaction(ctx.pool, async (db) => {
      let user = existing
      if (!user) {
        const id = randomUUID()
        const identityData = { ...emailIdentityData(email), sub: id }
        user = await createUser(db, {
          id,
          email,
          passwordHash,
          confirmed: false,
          identityData,
          userMetadata: { ...withoutNulls(body.data ?? {}), ...identityData },
          appMetadata: { provider: 'email', providers: ['email'] },
        })
      }
      const kind = verificationType === 'signup' ? 'confirmation' : 'recovery'
      const { otp, hashedToken } = await issueEmailToken(db, user, kind, false)
      return {
        ...(await userJson(db, (await findUserById(db, user.id))!)),
        action_link: verifyLink(ctx, hashedToken, verificationType, redirectTo),
        email_otp: otp,
        hashed_token: hashedToken,
        verification_type: verificationType,
        redirect_to: redirectTo,
      }
    })
    res.json(answer)
  }
}
