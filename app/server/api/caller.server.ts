import { API_MESSAGES } from '~/lib/schemas/api'
import type { JwtClaims } from '../db.server'
import { DomainError } from '../errors.server'
import { readSessionUser, verifyAccessToken, type SessionUser } from '../session.server'
import { createSupabaseTokenClient, type Supabase } from '../supabase.server'

/**
 * Who is calling /api: the bearer token of `Authorization: Bearer <access
 * token>` — the same access token Auth issues to the pages' sessions —
 * verified exactly as a page session's is (signature, audience and role
 * locally; the account and its session still alive in the database, rights
 * read as the caller). Cookies are never read here, so a browser's ambient
 * session cannot act through /api (no CSRF to guard against).
 */

export interface ApiCaller {
  claims: JwtClaims
  user: SessionUser
  token: string
  /** Acts as the caller (Storage uploads and removals in their own folders). */
  supabase: Supabase
}

/** The bearer token's text, or null when the request carries none. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('Authorization')
  if (!header) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match ? match[1]! : ''
}

/**
 * The caller, or null for a request without a token. A token that is
 * malformed, expired, forged, or whose session was ended: 401.
 */
export async function optionalCaller(request: Request, clientIp?: string): Promise<ApiCaller | null> {
  const token = bearerToken(request)
  if (token === null) return null
  if (!token || token.length > 8192) throw new DomainError('unauthenticated', API_MESSAGES.badToken)
  const claims = await verifyAccessToken(token)
  if (!claims) throw new DomainError('unauthenticated', API_MESSAGES.badToken)
  const user = await readSessionUser(claims)
  if (!user) throw new DomainError('unauthenticated', API_MESSAGES.badToken)
  return { claims, user, token, supabase: createSupabaseTokenClient({ accessToken: token, clientIp }) }
}

/** The caller; 401 'No authentication token found' without a token (`message` to word it for one call). */
export async function requireCaller(
  request: Request,
  clientIp?: string,
  message: string = API_MESSAGES.noToken,
): Promise<ApiCaller> {
  const caller = await optionalCaller(request, clientIp)
  if (!caller) throw new DomainError('unauthenticated', message)
  return caller
}
