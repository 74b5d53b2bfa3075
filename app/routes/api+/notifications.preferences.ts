import { requireCaller } from '~/server/api/caller.server'
import { preferencesShape, PreferencesUpdateBody } from '~/server/api/notifications.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { getNotificationPreferences, saveNotificationPreferences } from '~/server/notification-preferences.server'

/**
 * GET /api/notifications/preferences — how you hear of each type: `{ preferences: [{ type, label, channel, default }] }`.
 * PUT — `{ preferences: { "<type>": "in_app" | "email" | "digest", … } }` changes those types; answers as GET.
 */
const api = apiRoute({
  GET: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return preferencesShape(await getNotificationPreferences(caller.claims))
  },
  PUT: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = await readBody(request, PreferencesUpdateBody)
    return preferencesShape(await saveNotificationPreferences(caller.claims, body.preferences))
  },
})
export const loader = api.loader
export const action = api.action
