import type { ActionFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { EMAIL_NOTIFICATION_TYPES, NOTIFICATION_PREFERENCE_MESSAGES } from '~/lib/notification-preferences'
import { isDomainError } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { saveNotificationPreferences } from '~/server/notification-preferences.server'
import { requireUser } from '~/server/permissions.server'

/**
 * POST /notifications/preferences — Edit Profile's notifications form (a plain
 * form: one radio group per type). Saves the types it names and goes back to
 * the form with a flash; the API twin is PUT /api/notifications/preferences.
 */
const BACK = '/profile/edit#notification-preferences'

export async function loader() {
  return redirect(BACK)
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context, { verify: true })
  const form = await request.formData()
  const choices = Object.fromEntries(
    EMAIL_NOTIFICATION_TYPES.flatMap((type) => (form.has(type) ? [[type, String(form.get(type))]] : [])),
  )
  try {
    await saveNotificationPreferences(claims, choices)
    return redirectWithFlash(BACK, { kind: 'success', message: NOTIFICATION_PREFERENCE_MESSAGES.saved }, headers)
  } catch (error) {
    if (!isDomainError(error)) throw error
    return redirectWithFlash(BACK, { kind: 'error', message: error.message }, headers)
  }
}
