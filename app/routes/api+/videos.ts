import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { videoList, videoQuery } from '~/server/api/videos.server'
import { listVideosPage } from '~/server/feed/lists.server'

/** GET /api/videos?type=feed|spark&category=&search=&page=&limit= — an array, newest first (docs/product.md, The JSON API). */
const api = apiRoute({
  GET: async ({ request, url, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    return videoList(caller, await listVideosPage(caller?.claims ?? null, videoQuery(url)))
  },
})
export const loader = api.loader
export const action = api.action
