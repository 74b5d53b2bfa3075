import { API_MESSAGES } from '~/lib/schemas/api'
import { requireCaller } from '~/server/api/caller.server'
import { requireAdmin } from '~/server/api/moderation.server'
import { apiRoute } from '~/server/api/route.server'

/**
 * GET /api/admin/test — whether the admin API answers the caller.
 * A folder route: as `api.admin.test.ts` the file would match remix.config's
 * ignoredRouteFiles (every `*.test.ts` is a test file) and never be served.
 */
const api = apiRoute({
  GET: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireAdmin(caller)
    return {
      message: API_MESSAGES.adminOk,
      user: { _id: caller.user.id, username: caller.user.username, role: caller.user.role },
    }
  },
})
export const loader = api.loader
export const action = api.action
