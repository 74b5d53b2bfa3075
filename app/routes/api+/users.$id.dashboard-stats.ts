import { DASHBOARD_MESSAGES } from '~/lib/schemas/dashboard'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { dashboardThroughApi } from '~/server/api/users.server'

/** GET /api/users/:id/dashboard-stats — the creator dashboard's figures (`days` 7, 28 or 90); own, or any to admins. */
const api = apiRoute({
  GET: async ({ request, params, url, clientIp }) => {
    const caller = await requireCaller(request, clientIp, DASHBOARD_MESSAGES.noUser)
    return dashboardThroughApi(caller, params.id ?? '', url)
  },
})
export const loader = api.loader
export const action = api.action
