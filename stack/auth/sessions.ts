import { randomUUID } from 'node:crypto'
import { isIP } from 'node:net'
import type pg from 'pg'
import type { StackContext } from '../context'
import type { Db } from './db'
import { inTransaction, isUuid, one } from './db'
import { badRequest, type AuthError } from './errors'
import { newRefreshToken, signAccessToken, type AmrEntry } from './tokens'
import { findUserById, tokenSubject, userJson, type UserRow } from './users'

/**
 * Sessions in `auth.sessions`, their refresh tokens in `auth.refresh_tokens`
 * and how they were authenticated in `auth.mfa_amr_claims`, with GoTrue's
 * refresh-token rotation (internal/api/token_refresh.go): every refresh
 * revokes the token it used and issues a child; a revoked token still works
 * while it is the parent of the session's live token or within
 * `refresh_token_reuse_interval` seconds of its revocation; after that it is
 * `refresh_token_already_used` and, with rotation on, the whole session's
 * tokens are revoked.
 */
export type AuthenticationMethod = 'password' | 'otp' | 'recovery' | 'magiclink' | 'email/signup'

export interface RequestMeta {
  userAgent?: string
  ip: string
}

export interface SessionRow {
  id: string
  user_id: string
}

interface RefreshTokenRow {
  id: number
  token: string
  user_id: string
  revoked: boolean
  parent: string | null
  session_id: string | null
  /** Computed: revoked so recently that GoTrue still accepts it. */
  within_reuse_interval: boolean
}

/** GoTrue's session response body. */
export async function sessionJson(
  db: Db,
  ctx: StackContext,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<Record<string, unknown>> {
  const { token, expiresAt } = await signAccessToken(ctx, tokenSubject(user), sessionId, await amrOf(db, sessionId))
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ctx.config.auth.jwt_expiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await userJson(db, user),
  }
}

/** Starts a session for `user` (GoTrue's `issueRefreshToken`) and answers it. */
export async function startSession(
  db: Db,
  ctx: StackContext,
  user: UserRow,
  method: AuthenticationMethod,
  meta: RequestMeta,
): Promise<Record<string, unknown>> {
  const sessionId = randomUUID()
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', $3, $4)`,
    [sessionId, user.id, meta.userAgent ?? null, isIP(meta.ip) ? meta.ip : null],
  )
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, now(), now(), $2)
     on conflict (session_id, authentication_method) do update set updated_at = excluded.updated_at`,
    [sessionId, method],
  )
  const refreshToken = await insertRefreshToken(db, user.id, sessionId, null)
  await db.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [user.id])
  return sessionJson(db, ctx, (await findUserById(db, user.id))!, sessionId, refreshToken)
}

async function insertRefreshToken(db: Db, userId: string, sessionId: string, parent: string | null): Promise<string> {
  const token = newRefreshToken()
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token, userId, parent, sessionId],
  )
  return token
}

/** The `amr` claim: how the session was authenticated, newest first. */
async function amrOf(db: Db, sessionId: string): Promise<AmrEntry[]> {
  const { rows } = await db.query<{ method: string; timestamp: number }>(
    `select authentication_method as method, extract(epoch from updated_at)::bigint as timestamp
     from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
    [sessionId],
  )
  return rows.map((row) => ({ method: row.method, timestamp: Number(row.timestamp) }))
}

type RefreshOutcome = { session: Record<string, unknown> } | { error: AuthError }

/** The refresh-token grant. Revoking a reused token's family is committed even though the request fails. */
export async function refreshSession(
  pool: pg.Pool,
  ctx: StackContext,
  refreshToken: string,
  meta: RequestMeta,
): Promise<Record<string, unknown>> {
  const outcome = await inTransaction<RefreshOutcome>(pool, async (db) => {
    const token = await one<RefreshTokenRow>(
      db,
      `select rt.*, rt.updated_at > now() - make_interval(secs => $2) as within_reuse_interval
       from auth.refresh_tokens rt where rt.token = $1 for update`,
      [refreshToken, ctx.config.auth.refresh_token_reuse_interval],
    )
    const user = token && isUuid(token.user_id) ? await findUserById(db, token.user_id) : undefined
    if (!token || !user) {
      return { error: badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
    }
    if (user.is_banned) return { error: badRequest('user_banned', 'Invalid Refresh Token: User Banned') }
    const session =
      token.session_id &&
      (await one<SessionRow>(db, 'select id, user_id from auth.sessions where id = $1 for update', [token.session_id]))
    if (!session) {
      await db.query('delete from auth.refresh_tokens where id = $1', [token.id])
      return { error: badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found') }
    }

    let issued: string | undefined
    if (token.revoked) {
      const active = await one<{ token: string; parent: string | null }>(
        db,
        `select token, parent from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1`,
        [session.id],
      )
      if (active && active.parent === token.token) {
        // The client lost the answer to its last refresh: hand it the same live token again.
        issued = active.token
      } else if (!token.within_reuse_interval) {
        if (ctx.config.auth.enable_refresh_token_rotation) {
          await db.query(
            'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked',
            [session.id],
          )
        }
        return { error: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used') }
      }
    }
    if (!issued) {
      await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [token.id])
      issued = await insertRefreshToken(db, user.id, session.id, token.token)
    }
    await db.query(
      `update auth.sessions set refreshed_at = timezone('utc', now()), updated_at = now(), user_agent = $2, ip = $3
       where id = $1`,
      [session.id, meta.userAgent ?? null, isIP(meta.ip) ? meta.ip : null],
    )
    return { session: await sessionJson(db, ctx, user, session.id, issued) }
  })
  if ('error' in outcome) throw outcome.error
  return outcome.session
}

export type LogoutScope = 'global' | 'local' | 'others'

/** Ends sessions; their refresh tokens go with them (on delete cascade). */
export async function endSessions(db: Db, userId: string, scope: LogoutScope, sessionId?: string): Promise<void> {
  if (scope === 'local' && sessionId) {
    await db.query('delete from auth.sessions where id = $1', [sessionId])
  } else if (scope === 'others' && sessionId) {
    await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId])
  } else {
    await db.query('delete from auth.sessions where user_id = $1', [userId])
  }
}
