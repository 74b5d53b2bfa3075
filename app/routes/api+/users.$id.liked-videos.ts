import { API_MESSAGES } from '~/lib/schemas/api'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { pagedJson, pageQuery, requireSelf } from '~/server/api/users.server'
import { videoList } from '~/server/api/videos.server'
import { listLikedVideos } from '~/server/feed/people.server'

/** GET /api/users/:id/liked-videos — one's own liked videos, latest like first (`cursor`, `limit`; X-Next-Cursor). */
const api = apiRoute({
  GET: async ({ request, params, url, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireSelf(caller, params.id ?? '', API_MESSAGES.ownLikesOnly)
    const page = await listLikedVideos(caller.claims, pageQuery(url))
    return pagedJson(await videoList(caller, page.items), page.nextCursor)
  },
})
export const loader = api.loader
export const action = api.action
