import type { Request } from 'express'
import { bearerToken, verifyToken } from '../jwt'
import type { StackKeys } from '../keys'
import type { DatabaseRole } from '../../db/as-role'
import { ERRORS, StorageError } from './errors'

/**
 * Who is calling Storage, decided as Supabase decides it: the bearer JWT's
 * `role` and `sub` (the anon key is a JWT with role anon, the service-role
 * key one with role service_role). Every `storage.objects` query then runs
 * as this caller, so the migrations' storage policies decide.
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
export async function resolveCaller(keys: StackKeys, req: Request): Promise<Caller> {
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
  return { role, claims, owner: typeof claims.sub === 'string' ? claims.sub : undefined, hasJwt: true }
}

/** Like `resolveCaller`, but a missing token is refused too (Storage: "jwt must be provided"). */
export async function requireCaller(keys: StackKeys, req: Request): Promise<Caller> {
  const caller = await resolveCaller(keys, req)
  if (!caller.hasJwt) throw ERRORS.accessDenied('jwt must be provided')
  return caller
}
