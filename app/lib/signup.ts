import type { PasswordStrength } from '~/lib/password-strength'
import type { FieldErrors, SignupEcho } from '~/lib/schemas/auth'

/** What the sign-up action answers when it refuses: errors, the echo of the form (never the password) and the meter's reading. */
export interface SignupFailure {
  errors: FieldErrors
  formError: string | null
  values: SignupEcho
  /** The strength of the refused password, so the meter can show it without JavaScript. */
  strength: PasswordStrength | null
  hadFile: boolean
}
