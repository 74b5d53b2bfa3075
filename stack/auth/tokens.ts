import { createHash, randomInt, timingSafeEqual } from 'node:crypto'
import { SignJWT } from 'jose'
import type { StackContext } from '../context'

/**
 * The secrets GoTrue hands out: access tokens (HS256 JWTs with GoTrue's
 * claims, in GoTrue's order), opaque refresh tokens, email OTPs with their
 * hashes, and the PKCE check.
 */
export interface AmrEntry {
  method: string
  timestamp: number
}

export interface AccessTokenSubject {
  id: string
  aud: string
  role: string
  email: string
  phone: string
  appMetadata: Record<string, unknown>
  userMetadata: Record<string, unknown>
  isAnonymous: boolean
}

export async function signAccessToken(
  ctx: StackContext,
  user: AccessTokenSubject,
  sessionId: string,
  amr: AmrEntry[],
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(Date.now() / 1000)
  const expiresAt = issuedAt + ctx.config.auth.jwt_expiry
  const token = await new SignJWT({
    iss: `${ctx.publicUrl}/auth/v1`,
    sub: user.id,
    aud: user.aud,
    exp: expiresAt,
    iat: issuedAt,
    email: user.email,
    phone: user.phone,
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    role: user.role,
    aal: 'aal1',
    amr,
    session_id: sessionId,
    is_anonymous: user.isAnonymous,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(ctx.keys.jwtSecret))
  return { token, expiresAt }
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** An opaque refresh token: 16 lowercase letters and digits (about 82 bits). */
export function newRefreshToken(): string {
  let token = ''
  for (let i = 0; i < 16; i++) token += ALPHANUMERIC[randomInt(0, ALPHANUMERIC.length)]
  return token
}

/** A six-digit email code, as GoTrue's default `mailer_otp_length`. */
export function newOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

/** GoTrue's `GenerateTokenHash`: hex SHA-224 of the email followed by the code. */
export function tokenHash(email: string, otp: string): string {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex')
}

/** Marks a link token as belonging to a PKCE flow (GET /verify then answers `?code=`). */
export const PKCE_PREFIX = 'pkce_'

export type ChallengeMethod = 's256' | 'plain'

export function pkceMatches(method: ChallengeMethod, challenge: string, verifier: string): boolean {
  const expected = method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier
  const a = Buffer.from(expected)
  const b = Buffer.from(challenge)
  return a.length === b.length && timingSafeEqual(a, b)
}
