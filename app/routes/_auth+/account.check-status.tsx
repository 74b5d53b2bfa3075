import type { ActionFunctionArgs } from '@remix-run/node'
import { redirectWithFlash } from '~/server/http/flash.server'
import { redirectWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { safeRedirect } from '~/server/session.server'

export const STATUS_MESSAGES = {
  verified: 'Your account is verified! You can now upload content.',
  pending: 'Your account is still pending verification. We will let you know when an admin has reviewed it.',
  learner: 'Your account is up to date.',
} as const

/** Only the form posts here; a GET goes to the profile, where the status is shown. */
export function loader() {
  return redirectWithHeaders('/profile')
}

/**
 * Check Status / Refresh (docs/product.md, States, Creator verification: re-reads the
 * user). The session is checked with Auth and the rights are read again from
 * the database, then the visitor goes back where they were with the answer.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user, headers } = await requireUser(request, context, { verify: true })
  const form = await request.formData()
  const back = safeRedirect(form.get('returnTo'), '/profile')
  const flash =
    user.role === 'user'
      ? ({ kind: 'info', message: STATUS_MESSAGES.learner } as const)
      : user.role === 'admin' || user.isVerified
        ? ({ kind: 'success', message: STATUS_MESSAGES.verified } as const)
        : ({ kind: 'info', message: STATUS_MESSAGES.pending } as const)
  return redirectWithFlash(back, flash, headers)
}
