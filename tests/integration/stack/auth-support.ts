import { randomUUID } from 'node:crypto'
import type { StackConfig } from '../../../stack/config'
import type { StackContext } from '../../../stack/context'
import { clientFor, type ContractTarget } from '../../support/target'

/**
 * Helpers shared by the auth contract suites (tests/integration/stack/auth*.test.ts):
 * fresh identities, raw requests the way the gateway expects them, and the
 * few places where the stand-in and a real Supabase must be reached
 * differently (its config, its database, its mailbox).
 */
export const PASSWORD = 'correct-horse-battery'

export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@lumen.test`
}

export function uniqueUsername(label: string): string {
  return `${label}_${randomUUID().slice(0, 8)}`
}

/** The running stand-in's context; only the stand-in exposes one. */
export function standIn(target: ContractTarget): StackContext {
  if (!target.running) throw new Error('only the stand-in has a context')
  return target.running.stack.context
}

/** Changes `[auth]` settings of the stand-in for the duration of `work`. */
export async function withAuthConfig<T>(
  target: ContractTarget,
  change: (auth: StackConfig['auth']) => void,
  work: () => Promise<T>,
): Promise<T> {
  const auth = standIn(target).config.auth
  const saved = structuredClone(auth)
  change(auth)
  try {
    return await work()
  } finally {
    for (const key of Object.keys(auth)) if (!(key in saved)) delete (auth as Record<string, unknown>)[key]
    Object.assign(auth, saved)
  }
}

/** A fetch to `/auth/v1<path>` with the anon key and auth-js's version header, unless overridden. */
export function authFetch(target: ContractTarget, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  if (!headers.has('apikey')) headers.set('apikey', target.anonKey)
  if (!headers.has('x-supabase-api-version')) headers.set('x-supabase-api-version', '2024-01-01')
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json')
  return fetch(`${target.url}/auth/v1${path}`, { ...init, headers })
}

/** Signs a user up through supabase-js and returns their credentials and first session. */
export async function signUp(target: ContractTarget, label: string, data: Record<string, unknown> = {}) {
  const email = uniqueEmail(label)
  const username = uniqueUsername(label)
  const { data: result, error } = await clientFor(target).auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { username, ...data } },
  })
  if (error || !result.session || !result.user) throw error ?? new Error('sign-up returned no session')
  return { email, username, password: PASSWORD, id: result.user.id, session: result.session }
}

/** The user's row in public.profiles, read the way each target allows. */
export async function profileOf(target: ContractTarget, userId: string): Promise<{ username: string } | undefined> {
  if (target.running) {
    const { rows } = await target.running.database.pool.query<{ username: string }>(
      'select username from public.profiles where id = $1',
      [userId],
    )
    return rows[0]
  }
  const { data, error } = await clientFor(target, 'service').from('profiles').select('username').eq('id', userId).maybeSingle()
  if (error) throw error
  return data ?? undefined
}

export interface ReceivedEmail {
  subject: string
  text: string
  html: string
}

/**
 * The newest email to `to`: the stand-in's mailbox, or a local Supabase's
 * Mailpit (`CONTRACT_SUPABASE_MAILPIT_URL`, default http://127.0.0.1:54324).
 */
export async function latestEmail(target: ContractTarget, to: string): Promise<ReceivedEmail | undefined> {
  if (target.running) return (await standIn(target).mailbox.list(to))[0]
  const mailpit = process.env.CONTRACT_SUPABASE_MAILPIT_URL ?? 'http://127.0.0.1:54324'
  const search = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`)
  const { messages } = (await search.json()) as { messages: { ID: string }[] }
  if (!messages[0]) return undefined
  const message = (await (await fetch(`${mailpit}/api/v1/message/${messages[0].ID}`)).json()) as {
    Subject: string
    Text: string
    HTML: string
  }
  return { subject: message.Subject, text: message.Text, html: message.HTML }
}

/** Every http(s) URL in an email's text. */
export function linksIn(email: ReceivedEmail): URL[] {
  return [...email.text.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((match) => new URL(match[0]))
}

/** The key/value pairs of a URL fragment (`#access_token=…`). */
export function fragmentOf(location: string): URLSearchParams {
  return new URLSearchParams(new URL(location).hash.slice(1))
}
