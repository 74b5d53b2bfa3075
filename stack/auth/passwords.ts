import bcrypt from 'bcryptjs'
import type { StackContext } from '../context'
import { AuthError, validationFailed } from './errors'

/**
 * Passwords as GoTrue keeps them: bcrypt at cost 10 in the `$2a$` form Go's
 * bcrypt writes (bcryptjs writes `$2b$`, the same algorithm below 255 bytes),
 * so a database the stand-in filled can be handed to a real GoTrue.
 */
const COST = 10
/** bcrypt ignores everything past 72 bytes; GoTrue refuses such passwords. */
const MAX_PASSWORD_BYTES = 72

export async function hashPassword(password: string): Promise<string> {
  const hash = await bcrypt.hash(password, COST)
  return hash.replace(/^\$2b\$/, '$2a$')
}

/** A hash of nothing anyone knows: comparing against it costs what a real check costs. */
const DUMMY_HASH = bcrypt.hashSync('lumen stand-in: no such user', COST)

/** True when `password` matches; with no hash it still spends a comparison so timing does not tell. */
export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(password, DUMMY_HASH)
    return false
  }
  try {
    return await bcrypt.compare(password, hash)
  } catch {
    // Not a bcrypt hash (another algorithm imported from elsewhere): no match.
    return false
  }
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
