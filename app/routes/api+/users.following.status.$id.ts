import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { getCreator } from '~/server/creators.server'

/** GET /api/users/following/status/:id — whether the caller follows the creator (`isFollowing`). */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp, CREATOR_MESSAGES.loginToFollow)
    const creator = await getCreator(caller.claims, params.id ?? '')
    return { isFollowing: creator.isFollowed }
  },
})
export const loader = api.loader
export const action = api.action
