import { errors, jwtVerify, type JWTPayload } from 'jose'
import type { StackKeys } from './keys'

/** Claims of any token the stand-in accepts: API keys, access tokens. */
export interface StackClaims extends JWTPayload {
  role?: string
  sub?: string
  email?: string
  session_id?: string
  aal?: string
}

export type VerifyResult = { ok: true; claims: StackClaims } | { ok: false; reason: 'expired' | 'invalid' }

/**
 * Verifies an HS256 token with the stand-in's secret, as GoTrue, PostgREST
 * and Storage do: only HS256 (so `alg: none` and key confusion fail), with
 * expiry, and at most 30 s of clock skew.
 */
export async function verifyToken(keys: StackKeys, token: string): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify<StackClaims>(token, new TextEncoder().encode(keys.jwtSecret), {
      algorithms: ['HS256'],
      clockTolerance: 30,
    })
    return { ok: true, claims: payload }
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' }
  }
}

/** The bearer token of a request's Authorization header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '')
  return match?.[1]
}
