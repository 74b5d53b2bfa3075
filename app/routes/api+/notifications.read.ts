import { markReadSchema } from '~/lib/notifications'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { markNotificationsRead, unreadCount } from '~/server/notifications.server'

/** POST /api/notifications/read — `{ all: true }` or `{ ids }`: `{ marked, unread }`. */
const api = apiRoute({
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const input = await readBody(request, markReadSchema)
    const marked = await markNotificationsRead(caller.claims, input)
    return { marked, unread: await unreadCount(caller.claims) }
  },
})
export const loader = api.loader
export const action = api.action
