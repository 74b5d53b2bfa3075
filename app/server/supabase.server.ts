import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '../../db/database.types'
import { getEnv, publicUrl } from './env.server'
import { nodeRealtimeOptions } from '../../db/supabase-node'

export type Supabase = SupabaseClient<Database>

/** What Express hands every loader and action (see server.ts). */
export interface LumenLoadContext {
  /** The visitor's address, forwarded to Auth so its rate limits count per visitor, not per server. */
  clientIp: string
  /**
   * What the loaders of one GET request share (server.ts makes a new one per
   * request): the session read, so the root loader and the route's guard
   * read it once. Absent for other methods, where an action may change the
   * session before the loaders run.
   */
  requestCache?: { session?: Promise<unknown> }
}

declare module '@remix-run/node' {
  interface AppLoadContext extends LumenLoadContext {}
}

export function supabaseSettings() {
  const env = getEnv()
  if (!env.SUPABASE_URL || !env.SUPABASE_ANON_KEY || !env.SUPABASE_SERVICE_ROLE_KEY) {
    throw new Error(
      'SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY must be set (server.ts fills them in for the stand-in)',
    )
  }
  return {
    url: env.SUPABASE_URL,
    anonKey: env.SUPABASE_ANON_KEY,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
    jwtSecret: env.SUPABASE_JWT_SECRET,
    secureCookies: publicUrl(env).startsWith('https://'),
  }
}

/**
 * A client with the service role key, which bypasses row-level security:
 * for Storage clean-up, signing an admin's portfolio URL and the Auth admin
 * API (adding users). Callers check the user's rights in Postgres first.
 */
export function serviceClient(): Supabase {
  const settings = supabaseSettings()
  return createClient<Database>(settings.url, settings.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}

/**
 * Supabase's URL as browsers reach it, for Storage's public URLs (posters,
 * avatars). When the stand-in serves it on the app's own origin this is ''
 * — relative URLs — so pages work under whatever address the visitor used,
 * not only PUBLIC_URL's (finding 8 of the security issue).
 */
export function browserSupabaseUrl(): string {
  const env = getEnv()
  const url = env.SUPABASE_URL ?? publicUrl(env)
  return url.replace(/\/$/, '') === publicUrl(env) ? '' : url
}

/**
 * A URL Supabase made (a signed Storage URL) as browsers reach it: relative
 * when the stand-in serves Storage on the app's own origin, so the visitor
 * stays at the address they used rather than PUBLIC_URL's.
 */
export function forBrowser(url: string): string {
  const base = supabaseSettings().url.replace(/\/$/, '')
  return url.startsWith(`${base}/`) ? `${browserSupabaseUrl()}${url.slice(base.length)}` : url
}

/**
 * A Supabase client for one request, the @supabase/ssr way: it reads the
 * session from the request's cookies and collects any cookies it sets
 * (sign-in, refresh, sign-out) into `headers`, which every response —
 * redirects and thrown responses too — must carry.
 */
export function createSupabaseServerClient(
  request: Request,
  context?: Partial<LumenLoadContext>,
  headers: Headers = new Headers(),
) {
  const settings = supabaseSettings()
  const supabase = createServerClient<Database>(settings.url, settings.anonKey, {
    ...nodeRealtimeOptions,
    // HttpOnly: no script on the page can read the session (XSS cannot steal it). The one
    // browser-side use, resumable uploads, asks /auth/token for a short-lived access token.
    cookieOptions: { secure: settings.secureCookies, sameSite: 'lax', path: '/', httpOnly: true },
    cookies: {
      getAll() {
        return parseCookieHeader(request.headers.get('Cookie') ?? '').map(({ name, value }) => ({ name, value: value ?? '' }))
      },
      setAll(cookies, cacheHeaders) {
        for (const { name, value, options } of cookies) {
          headers.append('Set-Cookie', serializeCookieHeader(name, value, options))
        }
        for (const [key, value] of Object.entries(cacheHeaders ?? {})) headers.set(key, value)
      },
    },
    global: { fetch: forwardingFetch(context?.clientIp, settings.serviceRoleKey) },
  })
  return { supabase, headers }
}

/** The name of the session cookie @supabase/ssr writes (chunks add `.0`, `.1`, …): `sb-<first label of the host>-auth-token`. */
export function sessionCookieName(): string {
  const { url } = supabaseSettings()
  if (cookieName?.url !== url) cookieName = { url, name: `sb-${new URL(url).hostname.split('.')[0]}-auth-token` }
  return cookieName.name
}
let cookieName: { url: string; name: string } | undefined

/**
 * A Supabase client for one /api call: no cookies, no stored session. With
 * `accessToken` it acts as that user (Storage uploads as the caller); without
 * it, as a visitor (sign-in, sign-up: the session it gets back stays in this
 * client's memory). Auth calls carry the visitor's address, as the pages' do.
 */
export function createSupabaseTokenClient(options: { accessToken?: string; clientIp?: string } = {}): Supabase {
  const settings = supabaseSettings()
  return createClient<Database>(settings.url, settings.anonKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      fetch: forwardingFetch(options.clientIp, settings.serviceRoleKey),
      ...(options.accessToken ? { headers: { Authorization: `Bearer ${options.accessToken}` } } : {}),
    },
  })
}

/**
 * Auth rate-limits per client address. The server calls Auth for every
 * visitor, so it passes the visitor's address as `Sb-Forwarded-For`, which
 * Supabase believes only alongside the service-role key as `apikey`. The
 * bearer (the visitor's token, or the anon key) still decides who is acting.
 */
function forwardingFetch(clientIp: string | undefined, serviceRoleKey: string): typeof fetch {
  return (input, init) => {
    if (!clientIp) return fetch(input, init)
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (!new URL(url).pathname.includes('/auth/v1/')) return fetch(input, init)
    const headers = new Headers(init?.headers)
    if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${headers.get('apikey') ?? ''}`)
    headers.set('apikey', serviceRoleKey)
    headers.set('Sb-Forwarded-For', clientIp)
    return fetch(input, { ...init, headers })
  }
}
