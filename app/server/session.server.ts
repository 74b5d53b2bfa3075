import { jwtVerify } from 'jose'
import { sql } from 'kysely'
import { asCaller, type JwtClaims } from './db.server'
import { createSupabaseServerClient, supabaseSettings, type LumenLoadContext, type Supabase } from './supabase.server'

export type Role = 'user' | 'creator' | 'admin'

/** The signed-in visitor as the pages need them: identity from the token, rights from the database. */
export interface SessionUser {
  id: string
  email: string
  username: string
  role: Role
  isVerified: boolean
  avatarPath: string | null
}

export interface RequestSession {
  supabase: Supabase
  /** Set-Cookie (refreshed or cleared session) and cache headers: return them with every response. */
  headers: Headers
  user: SessionUser | null
  claims: JwtClaims | null
}

/**
 * Reads the visitor's session from their cookies, once per request: the root
 * loader and the route's guard share one token check and one profile read
 * (Remix hands every loader of a document request the same Request).
 *
 * The access token is verified locally (no network call); @supabase/ssr
 * refreshes it first when it is about to expire, writing new cookies into
 * `headers`. Rights (role, verification) are read from the database as the
 * caller, so a demoted admin loses them at once, and in the same query the
 * database says whether the token's session still exists: after signing out,
 * or once the user is deleted, an unexpired token opens nothing.
 */
export function getSession(request: Request, context?: Partial<LumenLoadContext>): Promise<RequestSession> {
  const key = request
  let pending = sessions.get(key)
  if (!pending) {
    pending = readSession(request, context)
    sessions.set(key, pending)
    // A failed read is not remembered: the next caller tries again.
    pending.catch(() => sessions.delete(key))
  }
  return pending
}

const sessions = new WeakMap<object, Promise<RequestSession>>()

async function readSession(request: Request, context?: Partial<LumenLoadContext>): Promise<RequestSession> {
  const { supabase, headers } = createSupabaseServerClient(request, context)
  const empty = { supabase, headers, user: null, claims: null }
  const { data } = await supabase.auth.getSession()
  const token = data.session?.access_token
  if (!token) return empty
  const claims = await verifyAccessToken(token)
  if (!claims) {
    await supabase.auth.signOut({ scope: 'local' })
    return empty
  }
  const user = await readSessionUser(claims)
  if (!user) {
    // The account is gone (deleted by an admin) or the session was ended: the token is worthless.
    await supabase.auth.signOut({ scope: 'local' })
    return empty
  }
  return { supabase, headers, claims, user }
}

/**
 * The signed-in user behind verified claims, with their rights read from the
 * database as them — or null when the account is gone or the token's
 * session was ended (`public.session_is_active()`). The page session and
 * the /api bearer caller (app/server/api/caller.server.ts) both ask this.
 */
export async function readSessionUser(claims: JwtClaims): Promise<SessionUser | null> {
  const profile = await asCaller(claims, (tx) =>
    tx
      .selectFrom('profiles')
      .select(['username', 'role', 'is_verified', 'avatar_path'])
      .select(sql<boolean>`public.session_is_active()`.as('session_active'))
      .where('id', '=', claims.sub)
      .executeTakeFirst(),
  )
  if (!profile || !profile.session_active) return null
  return {
    id: claims.sub,
    email: claims.email ?? '',
    username: profile.username,
    role: profile.role as Role,
    isVerified: profile.is_verified,
    avatarPath: profile.avatar_path,
  }
}

/** The claims of an access token Auth issued (signature, audience and role checked locally), or null. */
export async function verifyAccessToken(token: string): Promise<JwtClaims | null> {
  const { jwtSecret } = supabaseSettings()
  if (!jwtSecret) throw new Error('SUPABASE_JWT_SECRET is required to verify access tokens locally')
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(jwtSecret), {
      algorithms: ['HS256'],
      audience: 'authenticated',
    })
    if (payload.role !== 'authenticated' || typeof payload.sub !== 'string') return null
    return payload as JwtClaims
  } catch {
    return null
  }
}

/** The path and query to come back to after signing in. */
export function returnTo(request: Request): string {
  const url = new URL(request.url)
  return `${url.pathname}${url.search}`
}

/**
 * Only same-site paths are followed after sign-in, never another origin: a
 * path that starts with one slash and holds no control character (browsers
 * drop tabs and newlines, so `/\t/evil.example` would become
 * `//evil.example`), no backslash (read as a slash) and no `//`; and that
 * still resolves to our own origin.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof target !== 'string' || target.length > 2048 || !target.startsWith('/')) return fallback
  const path = target.split(/[?#]/, 1)[0]!
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(target) || path.includes('//')) return fallback
  const base = 'http://lumen.invalid'
  try {
    return new URL(target, base).origin === base ? target : fallback
  } catch {
    return fallback
  }
}

export type SignedInSession = RequestSession & { user: SessionUser; claims: JwtClaims }
