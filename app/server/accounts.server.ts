import { openAsBlob } from 'node:fs'
import type { AuthError } from '@supabase/supabase-js'
import { fileTypeFromFile } from 'file-type'
import { jwtVerify } from 'jose'
import { sql } from 'kysely'
import {
  AUTH_MESSAGES,
  type FieldErrors,
  type PortfolioFileInfo,
  type SignupInput,
} from '~/lib/schemas/auth'
import { asCaller, asServiceRole, type JwtClaims } from './db.server'
import { publicUrl } from './env.server'
import { supabaseSettings, type Supabase } from './supabase.server'
import { WindowLimiter } from './rate-limits.server'

/**
 * Accounts: sign-up (with a creator's portfolio), sign-in, the
 * "is this email registered?" check, password reset by email and setting a
 * new password. Routes parse and validate their forms with the shared
 * schemas (app/lib/schemas/auth.ts) and call these; each call acts through
 * the request's Supabase client, so the session cookies it sets go back
 * with the response.
 */

export type AccountResult =
  | { ok: true }
  /** `retryAfterSeconds`: Auth refused for too many attempts; the page answers 429 with Retry-After. */
  | { ok: false; message?: string; fieldErrors?: FieldErrors; retryAfterSeconds?: number }

/** Auth's window for failed sign-ins (15 per 5 minutes per address and per account). */
export const SIGN_IN_RETRY_AFTER_SECONDS = 300

// ─── The portfolio ───────────────────────────────────────────────────────────

export interface ReceivedPortfolio {
  /** A temporary file holding the upload (absent when it was too large to keep). */
  path: string | null
  name: string
  size: number
  /** What its content says it is (magic bytes), never what the browser claimed. */
  info: PortfolioFileInfo
}

/**
 * The file's type from its first bytes. An old Word document is a generic
 * Compound File, so it counts as one only with a .doc name.
 */
export async function inspectPortfolio(file: Omit<ReceivedPortfolio, 'info'>): Promise<PortfolioFileInfo> {
  if (!file.path) return { name: file.name, size: file.size, type: 'application/octet-stream' }
  const detected = await fileTypeFromFile(file.path)
  let type = detected?.mime ?? 'application/octet-stream'
  if (detected?.ext === 'cfb') type = /\.doc$/i.test(file.name) ? 'application/msword' : 'application/x-cfb'
  return { name: file.name, size: file.size, type }
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
}

// ─── Sign-up ─────────────────────────────────────────────────────────────────

export type SignupResult =
  | { ok: true; userId: string; username: string; signedIn: boolean; portfolioStored: boolean }
  | { ok: false; message?: string; fieldErrors?: FieldErrors }

/** Whether a username is in use (usernames are unique regardless of case). */
export async function isUsernameTaken(username: string): Promise<boolean> {
  const row = await asCaller(null, (tx) =>
    tx
      .selectFrom('profiles')
      .select('id')
      .where(sql<string>`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst(),
  )
  return Boolean(row)
}

/**
 * Creates the account and signs the visitor in (the client sets the session
 * cookies). For a creator the portfolio, already checked by the caller, is
 * then stored in their own folder of the `portfolios` bucket as the new
 * user, and recorded on their profile, which updates their pending
 * application. The database trigger makes the profile, the pending
 * categories and the application from the sign-up metadata.
 */
export async function signUp(
  supabase: Supabase,
  input: SignupInput,
  portfolio: ReceivedPortfolio | null,
): Promise<SignupResult> {
  // The database would quietly give a taken name a suffix; ask first so the visitor can choose.
  if (await isUsernameTaken(input.username)) {
    return { ok: false, fieldErrors: { username: AUTH_MESSAGES.usernameTaken } }
  }
  const { data, error } = await supabase.auth.signUp({
    email: input.email,
    password: input.password,
    options: {
      data: {
        username: input.username,
        role: input.role,
        bio: input.bio,
        field_of_interest: input.fieldOfInterest ?? '',
        concentration: input.concentration ?? '',
        creator_categories: input.categories,
        portfolio_type: input.portfolioType ?? '',
      },
    },
  })
  if (error || !data.user) return { ok: false, ...signupError(error) }

  const userId = data.user.id
  const profile = await asCaller(null, (tx) =>
    tx.selectFrom('profiles').select('username').where('id', '=', userId).executeTakeFirst(),
  )
  const username = profile?.username ?? input.username
  if (!data.session) return { ok: true, userId, username, signedIn: false, portfolioStored: false }

  let portfolioStored = false
  if (input.role === 'creator' && portfolio?.path && input.portfolioType) {
    portfolioStored = await storePortfolio(supabase, data.session.access_token, userId, portfolio, input.portfolioType)
  }
  return { ok: true, userId, username, signedIn: true, portfolioStored }
}

function signupError(error: AuthError | null): { message?: string; fieldErrors?: FieldErrors } {
  switch (error?.code) {
    case 'user_already_exists':
    case 'email_exists':
      return { fieldErrors: { email: AUTH_MESSAGES.accountExists } }
    case 'weak_password':
      return { fieldErrors: { password: error.message || AUTH_MESSAGES.passwordTooShort } }
    case 'validation_failed':
      return /email/i.test(error.message)
        ? { fieldErrors: { email: AUTH_MESSAGES.emailInvalid } }
        : { message: AUTH_MESSAGES.signupFailed }
    case 'over_request_rate_limit':
      return { message: AUTH_MESSAGES.tooManyAttempts }
    case 'signup_disabled':
      return { message: AUTH_MESSAGES.signupDisabled }
    default:
      return { message: AUTH_MESSAGES.signupFailed }
  }
}

async function storePortfolio(
  supabase: Supabase,
  accessToken: string,
  userId: string,
  portfolio: ReceivedPortfolio,
  type: NonNullable<SignupInput['portfolioType']>,
): Promise<boolean> {
  const claims = await verifiedClaims(accessToken)
  if (!claims || claims.sub !== userId || !portfolio.path) return false
  const mime = portfolio.info.type
  const extension = EXTENSIONS[mime] ?? mime.split('/')[1]?.replace(/^x-/, '').replace(/[^a-z0-9]/g, '') ?? 'bin'
  const objectName = `${userId}/portfolio-${Date.now()}.${extension}`
  // A Blob backed by the file: it is streamed to Storage, not read into memory.
  const body = await openAsBlob(portfolio.path, { type: mime })
  const { error } = await supabase.storage.from('portfolios').upload(objectName, body, { contentType: mime, upsert: false })
  if (error) return false
  const updated = await asCaller(claims, (tx) =>
    tx
      .updateTable('profiles')
      .set({ portfolio_path: objectName, portfolio_type: type })
      .where('id', '=', userId)
      .executeTakeFirst(),
  )
  return Number(updated.numUpdatedRows) === 1
}

/** The claims of a token Auth just issued, checked the way every request's are. */
async function verifiedClaims(token: string): Promise<JwtClaims | null> {
  const { jwtSecret } = supabaseSettings()
  if (!jwtSecret) return null
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(jwtSecret), {
      algorithms: ['HS256'],
      audience: 'authenticated',
    })
    return payload.role === 'authenticated' && typeof payload.sub === 'string' ? (payload as JwtClaims) : null
  } catch {
    return null
  }
}

// ─── Sign-in ─────────────────────────────────────────────────────────────────

export async function signIn(supabase: Supabase, credentials: { email: string; password: string }): Promise<AccountResult> {
  const { error } = await supabase.auth.signInWithPassword({
    email: credentials.email.toLowerCase(),
    password: credentials.password,
  })
  if (!error) return { ok: true }
  switch (error.code) {
    case 'over_request_rate_limit':
      return { ok: false, message: AUTH_MESSAGES.tooManyAttempts, retryAfterSeconds: SIGN_IN_RETRY_AFTER_SECONDS }
    case 'user_banned':
      return { ok: false, message: AUTH_MESSAGES.accountSuspended }
    default:
      return { ok: false, message: AUTH_MESSAGES.loginFailed }
  }
}

// ─── Is this email registered? ───────────────────────────────────────────────

export const EMAIL_CHECKS_PER_WINDOW = 10
/** Counted in Postgres, shared by every process (app/server/rate-limits.server.ts). */
const emailChecks = new WindowLimiter(EMAIL_CHECKS_PER_WINDOW, 5 * 60_000, 'email-check')

export type EmailCheck = { ok: true; exists: boolean } | { ok: false; message: string }

/**
 * The sign-in screen's 'Check if account exists', rate-limited per visitor
 * address. Emails live only in auth.users, which no API role may read, so
 * the answer comes from `public.email_is_registered`, a yes/no function only
 * the service role may call.
 */
export async function isEmailRegistered(email: string, clientIp: string, limiter = emailChecks): Promise<EmailCheck> {
  if (!(await limiter.take(clientIp || 'unknown'))) {
    return { ok: false, message: AUTH_MESSAGES.tooManyChecks }
  }
  const { rows } = await asServiceRole('sign-in screen: check whether an email is registered', (tx) =>
    sql<{ registered: boolean }>`select public.email_is_registered(${email}) as registered`.execute(tx),
  )
  return { ok: true, exists: Boolean(rows[0]?.registered) }
}

// ─── Password reset ──────────────────────────────────────────────────────────

/** The page the emailed link leads to, through /auth/confirm. */
export function resetLinkTarget(): string {
  return `${publicUrl()}/reset-password`
}

/**
 * Mails a reset link. Auth answers the same for unknown addresses, so the
 * answer tells nobody who has an account.
 */
export async function requestPasswordReset(supabase: Supabase, email: string): Promise<AccountResult> {
  const { error } = await supabase.auth.resetPasswordForEmail(email.toLowerCase(), { redirectTo: resetLinkTarget() })
  if (!error) return { ok: true }
  switch (error.code) {
    case 'over_request_rate_limit':
      return { ok: false, message: AUTH_MESSAGES.tooManyAttempts }
    case 'over_email_send_rate_limit':
      // Auth's own text says how long to wait ("…only request this after 42 seconds.").
      return {
        ok: false,
        message: /seconds/.test(error.message)
          ? error.message
          : AUTH_MESSAGES.tooManyResetEmails,
      }
    case 'validation_failed':
      return { ok: false, fieldErrors: { email: AUTH_MESSAGES.emailInvalid } }
    default:
      return { ok: false, message: AUTH_MESSAGES.resetFailed }
  }
}

export const RECOVERY_LINK_TYPES = ['recovery', 'email', 'magiclink', 'signup', 'invite', 'email_change'] as const
export type RecoveryLinkType = (typeof RECOVERY_LINK_TYPES)[number]

/** Spends an emailed link's token: the client signs the visitor in (session cookies). */
export async function verifyEmailLink(supabase: Supabase, tokenHash: string, type: RecoveryLinkType): Promise<boolean> {
  const { error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type })
  return !error
}

/** The PKCE variant of the link (Auth's own /verify sends `?code=` back). */
export async function exchangeCode(supabase: Supabase, code: string): Promise<boolean> {
  const { error } = await supabase.auth.exchangeCodeForSession(code)
  return !error
}

export async function updatePassword(supabase: Supabase, password: string): Promise<AccountResult> {
  const { error } = await supabase.auth.updateUser({ password })
  if (!error) return { ok: true }
  switch (error.code) {
    case 'same_password':
      return { ok: false, fieldErrors: { password: AUTH_MESSAGES.samePassword } }
    case 'weak_password':
      return { ok: false, fieldErrors: { password: error.message || AUTH_MESSAGES.passwordTooShort } }
    case 'over_request_rate_limit':
      return { ok: false, message: AUTH_MESSAGES.tooManyAttempts }
    case 'session_not_found':
    case 'bad_jwt':
    case 'user_not_found':
      return { ok: false, message: AUTH_MESSAGES.resetLinkExpired }
    default:
      return { ok: false, message: AUTH_MESSAGES.passwordUpdateFailed }
  }
}

// ─── The signed-in account ───────────────────────────────────────────────────

/** One's own account as Auth and the profile hold it (GET /api/auth/me, and sign-in's answer). */
export interface Account {
  id: string
  email: string
  username: string
  role: 'user' | 'creator' | 'admin'
  bio: string
  avatarPath: string | null
  isVerified: boolean
  fieldOfInterest: string | null
  concentration: string | null
  interests: string[]
  portfolioPath: string | null
  createdAt: string
  categories: { id: string; name: string; status: 'pending' | 'approved' | 'rejected' }[]
}

/**
 * The caller's own account, read as them (null when their profile is gone). The
 * private fields come through `public.profile_private` (ADR 0013), which answers
 * for oneself and admins only.
 */
export async function getAccount(claims: JwtClaims): Promise<Account | null> {
  return asCaller(claims, async (tx) => {
    const card = await tx
      .selectFrom('profiles')
      .select(['id', 'username', 'role', 'bio', 'avatar_path', 'is_verified', 'created_at'])
      .where('id', '=', claims.sub)
      .executeTakeFirst()
    if (!card) return null
    const { rows } = await sql<{
      field_of_interest: string | null
      concentration: string | null
      interests: string[] | null
      portfolio_path: string | null
    }>`select field_of_interest, concentration, interests, portfolio_path
         from public.profile_private(array[${claims.sub}]::uuid[])`.execute(tx)
    const own = rows[0]
    const profile = {
      ...card,
      field_of_interest: own?.field_of_interest ?? null,
      concentration: own?.concentration ?? null,
      interests: own?.interests ?? [],
      portfolio_path: own?.portfolio_path ?? null,
    }
    const categories = await tx
      .selectFrom('creator_categories as cc')
      .innerJoin('categories as c', 'c.id', 'cc.category_id')
      .select(['c.id', 'c.name', 'cc.status'])
      .where('cc.creator_id', '=', claims.sub)
      .orderBy('c.name')
      .execute()
    return {
      id: profile.id,
      email: claims.email ?? '',
      username: profile.username,
      role: profile.role as Account['role'],
      bio: profile.bio,
      avatarPath: profile.avatar_path,
      isVerified: profile.is_verified,
      fieldOfInterest: profile.field_of_interest,
      concentration: profile.concentration,
      interests: profile.interests,
      portfolioPath: profile.portfolio_path,
      createdAt: new Date(profile.created_at).toISOString(),
      categories: categories.map((row) => ({
        id: row.id,
        name: row.name,
        status: row.status as Account['categories'][number]['status'],
      })),
    }
  })
}
