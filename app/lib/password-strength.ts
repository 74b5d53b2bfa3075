/**
 * Password strength as docs/product.md scores it (Rules and messages): one point each for a
 * length of 8 or more, an uppercase letter, a lowercase letter, a digit and a
 * symbol. Advisory only — it never blocks sign-up.
 */
export interface PasswordStrength {
  score: 0 | 1 | 2 | 3 | 4 | 5
  /** The spec's message, or '' for an empty password (nothing to judge yet). */
  label: string
}

export const GOOD_PASSWORD_LENGTH = 8

export function passwordStrength(password: string): PasswordStrength {
  const checks = [
    password.length >= GOOD_PASSWORD_LENGTH,
    /\p{Lu}/u.test(password),
    /\p{Ll}/u.test(password),
    /\p{Nd}/u.test(password),
    /[^\p{L}\p{Nd}]/u.test(password),
  ]
  const score = checks.filter(Boolean).length as PasswordStrength['score']
  return { score, label: labelFor(password, score) }
}

function labelFor(password: string, score: number): string {
  if (!password) return ''
  if (password.length < GOOD_PASSWORD_LENGTH) return 'Password is too short'
  if (score <= 2) return 'Password is weak'
  if (score === 3) return 'Password is moderate'
  if (score === 4) return 'Password is strong'
  return 'Password is very strong'
}
