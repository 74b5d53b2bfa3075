import type { FormFailure } from '~/lib/forms'
import type { PasswordStrength } from '~/lib/password-strength'
import type { SignupEcho } from '~/lib/schemas/auth'

/**
 * What the sign-up action answers when it refuses: the one form failure (app/lib/forms.ts) — field errors,
 * the echo of the form (never the password), whether a portfolio was chosen — plus the meter's reading.
 */
export interface SignupFailure extends FormFailure<SignupEcho> {
  /** The strength of the refused password, so the meter can show it without JavaScript. */
  strength: PasswordStrength | null
}
