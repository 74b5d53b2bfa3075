import { randomUUID } from 'node:crypto'
import { createChunks, stringToBase64URL } from '@supabase/ssr'
import { createClient, type Session, type SupabaseClient } from '@supabase/supabase-js'
import { connect, disconnect } from '../../app/server/db.server'
import { pointAppEnvAt } from './support/app-env'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { startStack, type RunningStack } from '../support/stack'

/**
 * A Remix-free harness for the app's server code: the stand-in runs on a
 * free port with its own database, the app's env points at it, and
 * `db.server` talks to that same database. Tests then call loaders, actions
 * and session functions with plain `Request`s carrying the cookies a
 * browser would hold after signing in.
 */
export interface ShellHarness {
  stack: RunningStack
  /** The auth cookie name @supabase/ssr derives from the stand-in's URL. */
  cookieName: string
  service: SupabaseClient
  anon(): SupabaseClient
  /** A new account through the Auth admin API (sign-up metadata as the trigger reads it). */
  createAccount(options?: { role?: 'user' | 'creator'; metadata?: Record<string, unknown> }): Promise<Account>
  signIn(account: Account): Promise<Session>
  /** The Cookie header a browser holding `session` sends. */
  cookieHeader(session: Session): string
  request(path: string, options?: { session?: Session | null; cookie?: string; method?: string; form?: Record<string, string> }): Request
  close(): Promise<void>
}

export interface Account {
  id: string
  email: string
  password: string
  username: string
}

export const context = { clientIp: '127.0.0.1' }

export async function startShellHarness(): Promise<ShellHarness> {
  const stack = await startStack()
  const restoreEnv = pointAppEnvAt({
    SUPABASE_URL: stack.url,
    SUPABASE_ANON_KEY: stack.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    SUPABASE_JWT_SECRET: stack.jwtSecret,
    SESSION_SECRET: 'integration-test-flash-secret-0123456789abcdef',
    PUBLIC_URL: stack.url,
  })
  await disconnect()
  await connect(stack.database)

  const clientOptions = {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  }
  const service = createClient(stack.url, stack.serviceRoleKey, clientOptions)
  const anon = () => createClient(stack.url, stack.anonKey, clientOptions)
  const cookieName = `sb-${new URL(stack.url).hostname.split('.')[0]}-auth-token`

  const cookieHeader = (session: Session) =>
    createChunks(cookieName, `base64-${stringToBase64URL(JSON.stringify(session))}`)
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ')

  return {
    stack,
    cookieName,
    service,
    anon,
    async createAccount({ role = 'user', metadata = {} } = {}) {
      const suffix = randomUUID().slice(0, 8)
      const account = {
        email: `${role}-${suffix}@lumen.test`,
        password: `Pw-${randomUUID()}`,
        username: `${role}_${suffix}`,
      }
      const { data, error } = await service.auth.admin.createUser({
        email: account.email,
        password: account.password,
        email_confirm: true,
        user_metadata: { username: account.username, role, ...metadata },
      })
      if (error || !data.user) throw error ?? new Error('no user')
      return { id: data.user.id, ...account }
    },
    async signIn(account) {
      const { data, error } = await anon().auth.signInWithPassword({ email: account.email, password: account.password })
      if (error || !data.session) throw error ?? new Error('no session')
      return data.session
    },
    cookieHeader,
    request(path, options = {}) {
      const headers = new Headers()
      const cookie = options.cookie ?? (options.session ? cookieHeader(options.session) : undefined)
      if (cookie) headers.set('Cookie', cookie)
      const init: RequestInit = { method: options.method ?? (options.form ? 'POST' : 'GET'), headers }
      if (options.form) init.body = new URLSearchParams(options.form)
      return new Request(new URL(path, stack.url), init)
    },
    async close() {
      await disconnect()
      await stack.close()
      restoreEnv()
    },
  }
}

/** Set-Cookie lines of a response or a headers object, by cookie name. */
export function setCookies(headers: Headers): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const line of headers.getSetCookie()) {
    const name = line.slice(0, line.indexOf('='))
    cookies.set(name, line)
  }
  return cookies
}

/** True when `line` deletes its cookie (empty value and Max-Age=0 or an expiry in the past). */
export function clearsCookie(line: string | undefined): boolean {
  if (!line) return false
  const value = line.slice(line.indexOf('=') + 1, line.indexOf(';') === -1 ? undefined : line.indexOf(';'))
  return value === '' && (/max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line))
}

/** What a loader or action threw (guards throw redirects). */
export async function thrown(work: () => Promise<unknown>): Promise<Response> {
  try {
    await work()
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
  throw new Error('expected a thrown Response')
}
