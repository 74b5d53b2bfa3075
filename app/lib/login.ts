import type { FormFailure } from '~/lib/forms'

/** /login with its mode and where to go after signing in, as the forms post and link to it. */
export function loginUrl(redirectTo: string | null, mode?: 'reset') {
  const query = new URLSearchParams()
  if (mode) query.set('mode', mode)
  if (redirectTo) query.set('redirectTo', redirectTo)
  const search = query.toString()
  return search ? `/login?${search}` : '/login'
}

/** Which of the sign-in page's forms was posted: the sign-in, 'Check if account exists' and the reset link. */
export type LoginIntent = 'signin' | 'check' | 'reset'

/** What the forms echo back: the email, never the password. */
export interface LoginValues {
  email: string
}

/**
 * What the sign-in page's action answers: the one form failure (app/lib/forms.ts) with its `intent`,
 * or the check's answer, or the reset link sent.
 */
export type LoginActionData =
  | (FormFailure<LoginValues> & { intent: LoginIntent })
  | { ok: true; intent: 'check'; registered: boolean; values: LoginValues }
  | { ok: true; intent: 'reset'; sent: true; values: LoginValues }
