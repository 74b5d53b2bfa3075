import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { applicationShape } from '~/server/api/shapes.server'
import { listPendingApplications } from '~/server/applications.server'

/** GET /api/admin/creator-applications — pending applications, oldest first. */
const api = apiRoute({
  GET: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return (await listPendingApplications(caller.claims)).map(applicationShape)
  },
})
export const loader = api.loader
export const action = api.action
