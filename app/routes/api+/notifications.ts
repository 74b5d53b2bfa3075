import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { notificationShape } from '~/server/api/notifications.server'
import { pageQuery } from '~/server/api/users.server'
import { listNotifications } from '~/server/notifications.server'

/** GET /api/notifications — yours, newest first (`cursor`, `limit`): `{ notifications, nextCursor, unread }`. */
const api = apiRoute({
  GET: async ({ request, url, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const page = await listNotifications(caller.claims, pageQuery(url))
    return { notifications: page.items.map(notificationShape), nextCursor: page.nextCursor, unread: page.unread }
  },
})
export const loader = api.loader
export const action = api.action
