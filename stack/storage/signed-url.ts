import { errors, jwtVerify, SignJWT } from 'jose'
import type { StackKeys } from '../keys'
import { ERRORS } from './errors'

/**
 * Signed URL tokens as Storage makes them (`ObjectStorage.signObjectUrl`):
 * an HS256 JWT `{url: "bucket/name", iat, exp}` with the project's JWT
 * secret; signed upload URLs add `owner` and `upsert`. Verified without
 * clock tolerance, like Storage's jsonwebtoken, so a URL dies on time.
 */
export interface SignedUrlClaims {
  url: string
  owner?: string
  upsert?: boolean
  exp: number
}

function secret(keys: StackKeys) {
  return new TextEncoder().encode(keys.jwtSecret)
}

export async function signUrlToken(
  keys: StackKeys,
  claims: { url: string; owner?: string; upsert?: boolean },
  expiresInSeconds: number,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(secret(keys))
}

/** Verifies a token for `bucket/name`: `InvalidJWT` ("jwt expired", …) or `InvalidSignature` when it names another object. */
export async function verifyUrlToken(keys: StackKeys, token: string, url: string): Promise<SignedUrlClaims> {
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(token, secret(keys), { algorithms: ['HS256'] }))
  } catch (error) {
    throw ERRORS.invalidJwt(error instanceof errors.JWTExpired ? 'jwt expired' : 'invalid signature')
  }
  if (payload.url !== url || typeof payload.exp !== 'number') throw ERRORS.invalidSignature()
  return payload as unknown as SignedUrlClaims
}
