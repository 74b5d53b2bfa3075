import { parseCookieHeader, stringFromBase64URL } from '@supabase/ssr'
import { jwtVerify } from 'jose'
import { sql } from 'kysely'
import { componentLogger } from '../../ops/log'
import { asCaller, connect, onDisconnect, type JwtClaims } from './db.server'
import { listenForInvalidation, SessionCache, type CachedSession } from './session-cache.server'
import {
  createSupabaseServerClient,
  sessionCookieName,
  supabaseSettings,
  type LumenLoadContext,
  type Supabase,
} from './supabase.server'

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
 * loader and the route's guard share one token check and one profile read.
 * Remix hands each loader its own copy of the Request, so the read is kept
 * in the request's load context (`requestCache`, made per GET request by
 * server.ts); without one (tests, other methods) it is kept per Request.
 *
 * The access token is verified locally (no network call). When the cookie
 * holds a token that is not about to expire — nearly every request — it is
 * read straight from the cookie and no Supabase client is made; otherwise
 * @supabase/ssr reads it, refreshing it first when it is about to expire and
 * writing new cookies into `headers`. Rights (role, verification) are read
 * from the database as the caller, so a demoted admin loses them at once,
 * and in the same query the database says whether the token's session still
 * exists: after signing out, or once the user is deleted, an unexpired token
 * opens nothing.
 */
export function getSession(request: Request, context?: Partial<LumenLoadContext>): Promise<RequestSession> {
  const cache = context?.requestCache as { session?: Promise<RequestSession> } | undefined
  if (cache) {
    if (!cache.session) {
      const pending = readSession(request, context)
      cache.session = pending
      // A failed read is not remembered: the next caller tries again.
      pending.catch(() => {
        if (cache.session === pending) cache.session = undefined
      })
    }
    return cache.session
  }
  const key = request
  let pending = sessions.get(key)
  if (!pending) {
    pending = readSession(request, context)
    sessions.set(key, pending)
    pending.catch(() => sessions.delete(key))
  }
  return pending
}

const sessions = new WeakMap<object, Promise<RequestSession>>()

/**
 * GoTrue refreshes a token that expires within 90 s when the session is read;
 * a token further from its expiry than this is used as the cookie holds it.
 */
const FRESH_FOR_MS = 120_000

async function readSession(request: Request, context?: Partial<LumenLoadContext>): Promise<RequestSession> {
  const headers = new Headers()
  let client: Supabase | undefined
  const supabase = () => (client ??= createSupabaseServerClient(request, context, headers).supabase)
  const session = (claims: JwtClaims | null, user: SessionUser | null): RequestSession => ({
    // Made on first use: most requests only read the cookie.
    get supabase() {
      return supabase()
    },
    headers,
    claims,
    user,
  })

  const stored = storedAccessToken(request)
  if (stored === null) return session(null, null)
  if (stored.fresh) {
    const claims = await verifyAccessToken(stored.token)
    const user = claims ? await readSessionUser(claims) : null
    if (claims && user) return session(claims, user)
    // Anything else takes the long way below, which also clears the cookies.
  }

  const { data } = await supabase().auth.getSession()
  const token = data.session?.access_token
  if (!token) return session(null, null)
  const claims = await verifyAccessToken(token)
  if (!claims) {
    await supabase().auth.signOut({ scope: 'local' })
    return session(null, null)
  }
  const user = await readSessionUser(claims)
  if (!user) {
    // The account is gone (deleted by an admin) or the session was ended: the token is worthless.
    await supabase().auth.signOut({ scope: 'local' })
    return session(null, null)
  }
  return session(claims, user)
}

/**
 * The access token in the request's session cookie (as @supabase/ssr writes
 * it: `base64-` and the session's JSON, maybe in chunks), and whether it is
 * far enough from expiring to be used as is. Null when there is no session
 * cookie at all; `fresh: false` for anything else Supabase's client should
 * look at (an old format, a token about to expire, a malformed value).
 */
function storedAccessToken(request: Request): { token: string; fresh: boolean } | null {
  const header = request.headers.get('Cookie')
  const name = sessionCookieName()
  if (!header || !header.includes(name)) return null
  const cookies = new Map(parseCookieHeader(header).map(({ name, value }) => [name, value ?? '']))
  let value = cookies.get(name)
  if (value === undefined) {
    const chunks: string[] = []
    for (let index = 0; cookies.has(`${name}.${index}`); index++) chunks.push(cookies.get(`${name}.${index}`)!)
    if (chunks.length === 0) return [...cookies.keys()].some((key) => key.startsWith(name)) ? { token: '', fresh: false } : null
    value = chunks.join('')
  }
  try {
    if (!value.startsWith('base64-')) return { token: '', fresh: false }
    const parsed = JSON.parse(stringFromBase64URL(value.slice('base64-'.length))) as {
      access_token?: unknown
      expires_at?: unknown
    }
    if (typeof parsed.access_token !== 'string' || typeof parsed.expires_at !== 'number') return { token: '', fresh: false }
    return { token: parsed.access_token, fresh: parsed.expires_at * 1000 - Date.now() > FRESH_FOR_MS }
  } catch {
    return { token: '', fresh: false }
  }
}

/**
 * The signed-in user behind verified claims, with their rights read from the
 * database as them — or null when the account is gone or the token's
 * session was ended (`public.session_is_active()`). The page session and
 * the /api bearer caller (app/server/api/caller.server.ts) both ask this.
 *
 * What the database said is kept per session in a cache that the database
 * empties itself (LISTEN/NOTIFY, app/server/session-cache.server.ts and
 * docs/decisions/0033-session-cache-pushed-invalidation.md): a signed-out,
 * deleted, banned or demoted user loses access on every process as soon as
 * the change is committed, and whenever that channel is not confirmed
 * working every request asks the database, as before.
 */
export async function readSessionUser(claims: JwtClaims): Promise<SessionUser | null> {
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : ''
  const key = sessionId ? `${claims.sub}:${sessionId}` : ''
  const cache = sessionCache()
  const cached = key ? cache.get(key) : undefined
  if (cached) return sessionUser(claims, cached)

  const generation = cache.begin()
  const profile = await asCaller(claims, (tx) =>
    tx
      .selectFrom('profiles')
      .select(['username', 'role', 'is_verified', 'avatar_path'])
      .select(sql<boolean>`public.session_is_active()`.as('session_active'))
      .select(sql<string | null>`public.session_not_after()`.as('session_not_after'))
      .where('id', '=', claims.sub)
      .executeTakeFirst(),
  )
  if (!profile || !profile.session_active) return null
  const value: CachedSession = {
    username: profile.username,
    role: profile.role as Role,
    isVerified: profile.is_verified,
    avatarPath: profile.avatar_path,
  }
  if (key) {
    const notAfter = profile.session_not_after ? Date.parse(profile.session_not_after) : Infinity
    cache.store(key, claims.sub, value, generation, notAfter)
  }
  return sessionUser(claims, value)
}

function sessionUser(claims: JwtClaims, value: CachedSession): SessionUser {
  return { id: claims.sub, email: claims.email ?? '', ...value }
}

/**
 * The process's session cache, listening from its first use (exported for tests). Until the
 * listener is confirmed (and whenever it is not), the cache serves nothing.
 */
export function sessionCache(): SessionCache {
  const state = cacheRegistry.__lumenSessionCache
  if (state) return state
  const cache = new SessionCache()
  cacheRegistry.__lumenSessionCache = cache
  const stopping = connect()
    .then((connection) => listenForInvalidation(connection.handle, cache))
    .catch((error: unknown) => {
      componentLogger('session-cache').warn({ error: (error as Error).message }, 'could not listen for session changes')
      // Serves nothing; the next request tries again.
      if (cacheRegistry.__lumenSessionCache === cache) cacheRegistry.__lumenSessionCache = undefined
      return undefined
    })
  onDisconnect(async () => {
    if (cacheRegistry.__lumenSessionCache === cache) cacheRegistry.__lumenSessionCache = undefined
    cache.down()
    await (await stopping)?.stop()
  })
  return cache
}

/** On globalThis for the same reason as the connection (app/server/db.server.ts). */
const cacheRegistry = globalThis as typeof globalThis & { __lumenSessionCache?: SessionCache }

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
