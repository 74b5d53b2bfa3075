import type { FieldErrors } from '~/lib/schemas/auth'

/** /login with its mode and where to go after signing in, as the forms post and link to it. */
export function loginUrl(redirectTo: string | null, mode?: 'reset') {
  const query = new URLSearchParams()
  if (mode) query.set('mode', mode)
  if (redirectTo) query.set('redirectTo', redirectTo)
  const search = query.toString()
  return search ? `/login?${search}` : '/login'
}

/** What the sign-in page's action answers, per intent: the sign-in, 'Check if account exists' and the reset link. */
export type LoginActionData =
  | { intent: 'signin'; errors: FieldErrors; formError: string | null; email: string }
  | { intent: 'check'; errors: FieldErrors; email: string; registered: boolean | null; formError: string | null }
  | { intent: 'reset'; errors: FieldErrors; email: string; sent: boolean; formError: string | null }
