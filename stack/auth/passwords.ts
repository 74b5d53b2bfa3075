import { hash, verify } from '@node-rs/bcrypt'
import type { StackContext } from '../context'
import { AuthError, validationFailed } from './errors'

/**
 * Passwords as GoTrue keeps them: bcrypt at cost 10 in the `$2a$` form Go's
 * bcrypt writes, so a database the stand-in filled can be handed to a real
 * GoTrue (and the `$2b$` hashes older stand-ins wrote still verify).
 *
 * `@node-rs/bcrypt` hashes natively on libuv's thread pool: a sign-in costs
 * 50 ms of a pool thread instead of 74 ms of the event loop (bcryptjs, pure
 * JavaScript), so other requests are not kept waiting behind it.
 */
const COST = 10
/** bcrypt ignores everything past 72 bytes; GoTrue refuses such passwords. */
const MAX_PASSWORD_BYTES = 72

export async function hashPassword(password: string): Promise<string> {
  return hash(password, { cost: COST, version: '2a' })
}

/**
 * Not the hash of any password (its digest is made-up text): comparing against it costs what a
 * real check costs, and no password matches it.
 */
const DUMMY_HASH = '$2a$10$wW1p6Yj0dGk0ZbN5Y3v2zeV1l6Fz3cJqkq8vQ1o0b8Kc6m0S0yq7a'

/** True when `password` matches; with no hash it still spends a comparison so timing does not tell. */
export async function passwordMatches(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) {
    await verify(password, DUMMY_HASH)
    return false
  }
  // Not a bcrypt hash (another algorithm imported from elsewhere): `verify` answers false.
  return verify(password, stored).catch(() => false)
}

export interface WeakPassword {
  message: string
  reasons: string[]
}

/** GoTrue's strength rules that apply here: the configured minimum length, and bcrypt's maximum. */
export function weakness(ctx: StackContext, password: string): WeakPassword | undefined {
  const minimum = ctx.config.auth.minimum_password_length
  if ([...password].length < minimum) {
    return { message: `Password should be at least ${minimum} characters.`, reasons: ['length'] }
  }
  return undefined
}

/** Throws GoTrue's errors for a password that may not be set. */
export function assertStrongPassword(ctx: StackContext, password: string): void {
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
    throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`)
  }
  const weak = weakness(ctx, password)
  if (weak) throw new AuthError(422, 'weak_password', weak.message, { weak_password: { reasons: weak.reasons } })
}
