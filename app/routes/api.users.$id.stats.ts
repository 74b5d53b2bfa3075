import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { getCreator } from '~/server/creators.server'

/** GET /api/users/:id/stats — a creator's followers, following and videos (the creator page's counts). */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const creator = await getCreator(caller?.claims ?? null, params.id ?? '')
    return { followers: creator.followers, following: creator.following, videos: creator.videoCount }
  },
})
export const loader = api.loader
export const action = api.action
