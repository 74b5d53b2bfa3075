import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { pagedJson, pageQuery } from '~/server/api/users.server'
import { rankedVideoList, sparkFeedQuery, videoList, videoQuery } from '~/server/api/videos.server'
import { listVideosPage } from '~/server/feed/lists.server'
import { listSparkFeed } from '~/server/for-you.server'

/**
 * GET /api/videos/shorts — sparks. With `feed=for-you|following` (and `cursor`, `limit`): the
 * reel viewer's own order (ADR 0045), each clip with its `reason`, the next page's cursor in
 * X-Next-Cursor. Without `feed`: newest first, by `page` (the query of /api/videos).
 */
const api = apiRoute({
  GET: async ({ request, url, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const feed = sparkFeedQuery(url)
    if (feed) {
      const page = await listSparkFeed(caller?.claims ?? null, { feed, ...pageQuery(url) })
      return pagedJson(await rankedVideoList(caller, page.items), page.nextCursor)
    }
    return videoList(caller, await listVideosPage(caller?.claims ?? null, videoQuery(url, 'spark')))
  },
})
export const loader = api.loader
export const action = api.action
