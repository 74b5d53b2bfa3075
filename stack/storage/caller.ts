import type { Request } from 'express'
import type pg from 'pg'
import { bearerToken, verifyToken } from '../jwt'
import type { StackKeys } from '../keys'
import type { DatabaseRole } from '../../db/as-role'
import { ERRORS, StorageError } from './errors'

/**
 * Who is calling Storage, decided as Supabase decides it: the bearer JWT's
 * `role` and `sub` (the anon key is a JWT with role anon, the service-role
 * key one with role service_role). Every `storage.objects` query then runs
 * as this caller, so the migrations' storage policies decide.
 *
 * Beyond Storage, which trusts a valid signature alone (ADR 0012, finding 4):
 * a user's token counts only while its user exists (not deleted, not
 * banned) and its session (`session_id`) has not ended — one indexed lookup
 * per request, so signing out or deleting a user stops their writes at once.
 */
export interface Caller {
  role: DatabaseRole
  /** The verified JWT payload, handed to Postgres as `request.jwt.claims`. */
  claims: Record<string, unknown>
  /** The user id (`sub`) when there is one; Storage records it as the owner. */
  owner?: string
  /** Whether a valid JWT came with the request (Storage's `isAuthenticated`; the anon key counts). */
  hasJwt: boolean
}

const ROLES = new Set<DatabaseRole>(['anon', 'authenticated', 'service_role'])

export const ANONYMOUS: Caller = { role: 'anon', claims: { role: 'anon' }, hasJwt: false }

/**
 * The gateway's rule in front of Storage: an `apikey` header, when present,
 * must be one of the project's keys; the bearer token wins over it, and
 * without an Authorization header the apikey is the bearer.
 */
function checkApiKey(keys: StackKeys, req: Request): StorageError | undefined {
  const apikey = req.headers.apikey
  if (apikey === undefined) return undefined
  if (apikey === keys.anonKey || apikey === keys.serviceRoleKey) return undefined
  return new StorageError(401, 'InvalidApiKey', 'Invalid API key', 'Unauthorized', 401)
}

/**
 * The caller of a request, or the error Storage sends for a bad token
 * (`AccessDenied` with jsonwebtoken's message). No token at all gives the
 * unauthenticated anon caller; routes that need a user refuse it themselves.
 */
export async function resolveCaller({ keys, pool }: { keys: StackKeys; pool: pg.Pool }, req: Request): Promise<Caller> {
  const keyError = checkApiKey(keys, req)
  if (keyError) throw keyError
  const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined
  const token = bearerToken(req.headers.authorization) ?? apikey
  if (!token) return ANONYMOUS
  const result = await verifyToken(keys, token)
  if (!result.ok) throw ERRORS.accessDenied(result.reason === 'expired' ? 'jwt expired' : 'invalid signature')
  const role = (result.claims.role ?? 'anon') as DatabaseRole
  if (!ROLES.has(role)) throw ERRORS.accessDenied(`role "${String(result.claims.role)}" is not allowed`)
  const claims = result.claims as Record<string, unknown>
  if (role === 'authenticated') await assertLiveSession(pool, claims)
  return { role, claims, owner: typeof claims.sub === 'string' ? claims.sub : undefined, hasJwt: true }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NIL_SESSION = '00000000-0000-0000-0000-000000000000'

/** The user of an `authenticated` token still exists and may sign in, and its session has not ended. */
async function assertLiveSession(pool: pg.Pool, claims: Record<string, unknown>): Promise<void> {
  const { sub, session_id: sessionId } = claims
  if (typeof sub !== 'string' || !UUID.test(sub)) throw ERRORS.accessDenied('invalid claim: sub must be a user id')
  const session = typeof sessionId === 'string' && sessionId !== NIL_SESSION ? sessionId : null
  if (session !== null && !UUID.test(session)) throw ERRORS.accessDenied('invalid claim: session_id must be a UUID')
  const { rows } = await pool.query<{ user_ok: boolean | null; session_ok: boolean }>(
    `select (select u.deleted_at is null and (u.banned_until is null or u.banned_until <= now())
               from auth.users u where u.id = $1) as user_ok,
            ($2::uuid is null or exists (select 1 from auth.sessions s where s.id = $2::uuid and s.user_id = $1)) as session_ok`,
    [sub, session],
  )
  if (!rows[0]?.user_ok) throw ERRORS.accessDenied('User from sub claim in JWT does not exist')
  if (!rows[0].session_ok) throw ERRORS.accessDenied('Session from session_id claim in JWT does not exist')
}

/** Like `resolveCaller`, but a missing token is refused too (Storage: "jwt must be provided"). */
export async function requireCaller(services: { keys: StackKeys; pool: pg.Pool }, req: Request): Promise<Caller> {
  const caller = await resolveCaller(services, req)
  if (!caller.hasJwt) throw ERRORS.accessDenied('jwt must be provided')
  return caller
}
