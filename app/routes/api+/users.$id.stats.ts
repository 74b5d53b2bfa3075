import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { userStats } from '~/server/creators.server'

/** GET /api/users/:id/stats — anyone's followers, following and public videos (0 videos for a learner). */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    return userStats(caller?.claims ?? null, params.id ?? '')
  },
})
export const loader = api.loader
export const action = api.action
