import type { Request } from 'express'
import type { StackContext } from '../context'
import { bearerToken, verifyToken, type StackClaims } from '../jwt'
import type { Db } from './db'
import { isUuid, one } from './db'
import { AuthError, badRequest, forbidden } from './errors'
import type { SessionRow } from './sessions'
import { findUserById, type UserRow } from './users'

/**
 * Who is calling, as GoTrue's `requireAuthentication` and
 * `requireAdminCredentials` decide it: a bearer token is required (401
 * `no_authorization`), it must verify (403 `bad_jwt`), its user and its
 * session must still exist (403 `user_not_found` / `session_not_found`, so a
 * deleted or signed-out user's unexpired token stops working), and admin
 * routes need the `service_role` role (403 `not_admin`).
 */
export interface Caller {
  claims: StackClaims
  user: UserRow
  session?: SessionRow
}

async function verifiedClaims(req: Request, ctx: StackContext): Promise<StackClaims> {
  const token = bearerToken(req.get('authorization'))
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token')
  const result = await verifyToken(ctx.keys, token)
  if (!result.ok) {
    const reason = result.reason === 'expired' ? 'token has invalid claims: token is expired' : 'token signature is invalid'
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`)
  }
  return result.claims
}

export async function requireCaller(req: Request, ctx: StackContext, db: Db): Promise<Caller> {
  const claims = await verifiedClaims(req, ctx)
  if (!claims.sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim')
  if (!isUuid(claims.sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID')
  const user = await findUserById(db, claims.sub)
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist')
  const sessionId = claims.session_id
  if (!sessionId || sessionId === '00000000-0000-0000-0000-000000000000') return { claims, user }
  if (!isUuid(sessionId)) throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID')
  const session = await one<SessionRow>(db, 'select id, user_id from auth.sessions where id = $1', [sessionId])
  if (!session) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist')
  return { claims, user, session }
}

export async function requireAdmin(req: Request, ctx: StackContext): Promise<StackClaims> {
  const claims = await verifiedClaims(req, ctx)
  if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') {
    throw forbidden('not_admin', 'User not allowed')
  }
  return claims
}

/** GoTrue's audience check on GET /user: the token must be for the requested audience. */
export function assertAudience(req: Request, claims: StackClaims): void {
  const requested = req.get('x-jwt-aud') || 'authenticated'
  const audience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud
  if (audience !== requested) throw badRequest('validation_failed', "Token audience doesn't match request audience")
}
