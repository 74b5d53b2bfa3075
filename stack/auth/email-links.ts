import type { StackContext } from '../context'
import type { Db } from './db'
import { newOtp, PKCE_PREFIX, tokenHash } from './tokens'
import type { UserRow } from './users'

/**
 * Emailed one-time tokens and the links that carry them. Like GoTrue, the
 * user's row and `auth.one_time_tokens` keep only the hash of
 * email + six-digit code (prefixed `pkce_` when the request started a PKCE
 * flow); the link carries the hash, the email may also show the code.
 */
export type EmailTokenKind = 'recovery' | 'confirmation'

export interface EmailToken {
  otp: string
  /** What links carry and `verifyOtp({ token_hash })` sends back. */
  hashedToken: string
}

export async function issueEmailToken(db: Db, user: UserRow, kind: EmailTokenKind, pkce: boolean): Promise<EmailToken> {
  const email = user.email ?? ''
  const otp = newOtp()
  const hashedToken = (pkce ? PKCE_PREFIX : '') + tokenHash(email, otp)
  const column = kind === 'recovery' ? 'recovery' : 'confirmation'
  await db.query(`update auth.users set ${column}_token = $2, ${column}_sent_at = now(), updated_at = now() where id = $1`, [
    user.id,
    hashedToken,
  ])
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $3, $4, now(), now())
     on conflict (user_id, token_type) do update
       set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = excluded.updated_at`,
    [user.id, `${column}_token`, hashedToken, email],
  )
  return { otp, hashedToken }
}

/** GoTrue's `{{ .ConfirmationURL }}`: the stand-in's GET /verify, which signs in and redirects. */
export function verifyLink(ctx: StackContext, hashedToken: string, type: string, redirectTo: string): string {
  const query = new URLSearchParams({ token: hashedToken, type, redirect_to: redirectTo })
  return `${ctx.publicUrl}/auth/v1/verify?${query}`
}

/**
 * Supabase's server-side (SSR) template: a link to the app's own
 * `/auth/confirm`, which calls `verifyOtp({ type, token_hash })` and sets the
 * session cookies, then goes on to `next` — the path of `redirect_to`, or
 * /reset-password.
 */
export function appConfirmLink(redirectTo: string, hashedToken: string, type: string): string {
  const target = new URL(redirectTo)
  const path = target.pathname + target.search
  const next = path === '/' ? '/reset-password' : path
  const query = new URLSearchParams({ token_hash: hashedToken, type, next })
  return `${target.origin}/auth/confirm?${query}`
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!)

/** GoTrue's default "Reset Your Password" message, with the app link first. */
export function recoveryEmail(
  links: { app: string; verify: string },
  otp: string,
): { subject: string; text: string; html: string } {
  return {
    subject: 'Reset Your Password',
    text: [
      'Reset Password',
      '',
      'Follow this link to reset the password for your user:',
      links.app,
      '',
      'If that page does not open, this link signs you in and takes you back to the site:',
      links.verify,
      '',
      `Or enter this code: ${otp}`,
    ].join('\n'),
    html: [
      '<h2>Reset Password</h2>',
      '<p>Follow this link to reset the password for your user:</p>',
      `<p><a href="${escapeHtml(links.app)}">Reset Password</a></p>`,
      '<p>If that page does not open, this link signs you in and takes you back to the site:</p>',
      `<p><a href="${escapeHtml(links.verify)}">Sign in and reset</a></p>`,
      `<p>Or enter this code: ${escapeHtml(otp)}</p>`,
    ].join('\n'),
  }
}
