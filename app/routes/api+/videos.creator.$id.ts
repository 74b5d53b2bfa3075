import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { videoList } from '~/server/api/videos.server'
import { getCreator } from '~/server/creators.server'
import { MAX_PAGE_SIZE } from '~/server/feed/lists.server'
import { listCreatorVideos } from '~/server/feed/people.server'

/** GET /api/videos/creator/:id — a creator's videos and sparks; 404 'Creator Not Found'. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const claims = caller?.claims ?? null
    const creator = await getCreator(claims, params.id ?? '')
    const { items } = await listCreatorVideos(claims, creator.id, { limit: MAX_PAGE_SIZE })
    return videoList(caller, items)
  },
})
export const loader = api.loader
export const action = api.action
