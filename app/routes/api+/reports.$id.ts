import { requireCaller } from '~/server/api/caller.server'
import { reportStatusBody, requireAdmin } from '~/server/api/moderation.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { decideReport } from '~/server/reports.server'

/** PUT /api/reports/:id `{ status }` — an admin decides (every open report of that content). */
const api = apiRoute({
  PUT: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireAdmin(caller)
    const { status } = await readBody(request, reportStatusBody)
    return { message: await decideReport(caller.claims, params.id ?? '', status) }
  },
})
export const loader = api.loader
export const action = api.action
