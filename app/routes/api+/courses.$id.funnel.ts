import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { getCourseFunnel } from '~/server/course-progress.server'

/** GET /api/courses/:id/funnel — enrolled learners and per lesson reached/finished, counts only (the creator or an admin). */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return { funnel: await getCourseFunnel(caller.claims, params.id ?? '') }
  },
})
export const loader = api.loader
export const action = api.action
