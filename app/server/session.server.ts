import { redirect } from '@remix-run/node'
import { jwtVerify } from 'jose'
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
 * Reads the visitor's session from their cookies. The access token is
 * verified locally (no network call); @supabase/ssr refreshes it first when
 * it is about to expire, writing new cookies into `headers`. Rights (role,
 * verification) are read from the database as the caller, so a demoted admin
 * loses them at once.
 */
export async function getSession(request: Request, context?: Partial<LumenLoadContext>): Promise<RequestSession> {
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
  const profile = await asCaller(claims, (tx) =>
    tx
      .selectFrom('profiles')
      .select(['username', 'role', 'is_verified', 'avatar_path'])
      .where('id', '=', claims.sub)
      .executeTakeFirst(),
  )
  if (!profile) {
    // The account is gone (deleted by an admin): its session is worthless.
    await supabase.auth.signOut({ scope: 'local' })
    return empty
  }
  return {
    supabase,
    headers,
    claims,
    user: {
      id: claims.sub,
      email: claims.email ?? '',
      username: profile.username,
      role: profile.role as Role,
      isVerified: profile.is_verified,
      avatarPath: profile.avatar_path,
    },
  }
}

async function verifyAccessToken(token: string): Promise<JwtClaims | null> {
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

/** Only same-site paths are followed after sign-in, never another origin. */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return fallback
  }
  return target
}

export type SignedInSession = RequestSession & { user: SessionUser; claims: JwtClaims }

/**
 * The signed-in visitor, or a redirect to /login that remembers where they
 * were going. `verify: true` also asks Auth whether the session is still
 * live (signed out elsewhere, banned) — for actions that change things.
 */
export async function requireUser(
  request: Request,
  context?: Partial<LumenLoadContext>,
  options: { verify?: boolean } = {},
): Promise<SignedInSession> {
  const session = await getSession(request, context)
  if (session.user && session.claims && options.verify) {
    const { error } = await session.supabase.auth.getUser()
    if (error) {
      await session.supabase.auth.signOut({ scope: 'local' })
      session.user = null
    }
  }
  if (!session.user || !session.claims) {
    throw redirect(`/login?redirectTo=${encodeURIComponent(returnTo(request))}`, { headers: session.headers })
  }
  return session as SignedInSession
}

/** As `requireUser`, and the visitor must hold one of `roles`; others are sent to `fallback`. */
export async function requireRole(
  request: Request,
  context: Partial<LumenLoadContext> | undefined,
  roles: Role[],
  fallback = '/profile',
): Promise<SignedInSession> {
  const session = await requireUser(request, context, { verify: true })
  if (!roles.includes(session.user.role)) throw redirect(fallback, { headers: session.headers })
  return session
}
