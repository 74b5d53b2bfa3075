import { z } from 'zod'
import { API_ROLE_MESSAGE } from '~/lib/schemas/api'
import { AUTH_MESSAGES, emailOnlySchema, makeSignupSchema, signinSchema } from '~/lib/schemas/auth'
import {
  getAccount,
  isEmailRegistered,
  requestPasswordReset,
  SIGN_IN_RETRY_AFTER_SECONDS,
  signIn,
  signUp,
} from '../accounts.server'
import { DomainError } from '../errors.server'
import { verifyAccessToken } from '../session.server'
import { createSupabaseTokenClient, type Supabase } from '../supabase.server'
import { categoryId } from './videos.server'
import { parseWith, RateLimited } from './route.server'
import { accountShape } from './shapes.server'

/**
 * The account calls of docs/product.md (The JSON API) over the pages' own functions
 * (accounts.server.ts): the same Auth calls, the same messages, the same
 * throttles. The API hands the session's tokens back instead of setting
 * cookies.
 */

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** The session a fresh sign-in or sign-up left in `supabase`, as `{ token, refreshToken, expiresAt, user }`. */
async function issued(supabase: Supabase) {
  const { data } = await supabase.auth.getSession()
  const session = data.session
  const claims = session ? await verifyAccessToken(session.access_token) : null
  const account = claims ? await getAccount(claims) : null
  if (!session || !account) throw new Error('Auth signed the user in without a usable session')
  return {
    token: session.access_token,
    refreshToken: session.refresh_token,
    expiresAt: session.expires_at ?? null,
    user: accountShape(account),
  }
}

/** The named text fields of a JSON body ('' when absent or not text), so a missing field gets the spec's own message. */
function fields<K extends string>(body: unknown, names: readonly K[]): Record<K, string> {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {}
  return Object.fromEntries(names.map((name) => [name, text(record[name])])) as Record<K, string>
}

export async function apiLogin(body: unknown, clientIp: string) {
  const input = parseWith(signinSchema, fields(body, ['email', 'password']))
  const supabase = createSupabaseTokenClient({ clientIp })
  const result = await signIn(supabase, input)
  if (!result.ok) {
    const message = result.message ?? AUTH_MESSAGES.loginFailed
    if (result.retryAfterSeconds) throw new RateLimited(message, result.retryAfterSeconds)
    throw new DomainError('unauthenticated', message)
  }
  return issued(supabase)
}

const signupBody = z.object({
  username: z.unknown(),
  email: z.unknown(),
  password: z.unknown(),
  role: z.unknown(),
  bio: z.unknown(),
  fieldOfInterest: z.unknown(),
  concentration: z.unknown(),
  creatorCategories: z.unknown(),
})

/**
 * Sign-up as a learner ('user', the default) or a creator (bio and
 * `creatorCategories: [{ name }]`; the portfolio comes later through the
 * profile). A self-made account is never an admin and never verified: the
 * role must be 'user' or 'creator', and the database's sign-up trigger
 * makes every new profile unverified whatever the metadata says.
 */
export async function apiSignup(body: unknown, clientIp: string) {
  const raw = parseWith(signupBody, body)
  if (!text(raw.username).trim() || !text(raw.email).trim() || !text(raw.password)) {
    throw new DomainError('invalid', AUTH_MESSAGES.fillRequired)
  }
  const role = raw.role === undefined || raw.role === '' ? 'user' : raw.role
  if (role !== 'user' && role !== 'creator') throw new DomainError('invalid', API_ROLE_MESSAGE, { role: API_ROLE_MESSAGE })
  const categories = Array.isArray(raw.creatorCategories)
    ? raw.creatorCategories.map(
        (entry: unknown) => categoryId(text((entry as { name?: unknown } | null)?.name) || text(entry)) ?? '',
      )
    : []
  const input = parseWith(makeSignupSchema({ portfolio: 'later' }), {
    role,
    username: text(raw.username),
    email: text(raw.email),
    password: text(raw.password),
    confirmPassword: text(raw.password),
    fieldOfInterest: text(raw.fieldOfInterest),
    concentration: text(raw.concentration),
    bio: text(raw.bio),
    categories,
    portfolioType: '',
    portfolio: null,
  })
  const supabase = createSupabaseTokenClient({ clientIp })
  const result = await signUp(supabase, input, null)
  if (!result.ok) {
    const [field, message] = Object.entries(result.fieldErrors ?? {})[0] ?? []
    if (field === 'email' && message === AUTH_MESSAGES.accountExists)
      throw new DomainError('conflict', message, result.fieldErrors)
    if (field === 'username' && message === AUTH_MESSAGES.usernameTaken)
      throw new DomainError('conflict', message, result.fieldErrors)
    if (result.message === AUTH_MESSAGES.tooManyAttempts) throw new RateLimited(result.message, SIGN_IN_RETRY_AFTER_SECONDS)
    throw new DomainError('invalid', message ?? result.message ?? AUTH_MESSAGES.signupFailed, result.fieldErrors)
  }
  if (!result.signedIn) throw new DomainError('unauthenticated', 'Your account is ready. Please sign in.')
  return issued(supabase)
}

/** Mails a reset link as the page does; the answer never says whether the address has an account. */
export async function apiForgotPassword(body: unknown, clientIp: string) {
  const { email } = parseWith(emailOnlySchema, fields(body, ['email']))
  const result = await requestPasswordReset(createSupabaseTokenClient({ clientIp }), email)
  if (result.ok) return { message: AUTH_MESSAGES.resetSent }
  if (result.message === AUTH_MESSAGES.tooManyAttempts || result.message === AUTH_MESSAGES.tooManyResetEmails) {
    throw new RateLimited(result.message, 60)
  }
  if (result.fieldErrors)
    throw new DomainError('invalid', Object.values(result.fieldErrors)[0] ?? AUTH_MESSAGES.resetFailed, result.fieldErrors)
  if (result.message && /seconds/.test(result.message)) throw new RateLimited(result.message, 60)
  throw new DomainError('unavailable', result.message ?? AUTH_MESSAGES.resetFailed)
}

/** 'Check if account exists', throttled per address by the same limiter as the page's. */
export async function apiCheckEmail(email: unknown, clientIp: string) {
  const input = parseWith(emailOnlySchema, { email: text(email) })
  const check = await isEmailRegistered(input.email, clientIp)
  if (!check.ok) throw new RateLimited(check.message, 5 * 60)
  return { exists: check.exists }
}
