import { DASHBOARD_MESSAGES } from '~/lib/schemas/dashboard'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { dashboardThroughApi } from '~/server/api/users.server'

/** GET /api/users/:id/fallback-dashboard-stats — the same figures with 7 daily points (docs/product.md, Limits and timers). */
const api = apiRoute({
  GET: async ({ request, params, url, clientIp }) => {
    const caller = await requireCaller(request, clientIp, DASHBOARD_MESSAGES.noUser)
    return dashboardThroughApi(caller, params.id ?? '', url, 7)
  },
})
export const loader = api.loader
export const action = api.action
