import { API_MESSAGES } from '~/lib/schemas/api'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { followedShape } from '~/server/api/shapes.server'
import { pagedJson, pageQuery, requireSelf } from '~/server/api/users.server'
import { listFollowing } from '~/server/follows.server'

/** GET /api/users/:id/following — whom one follows, latest first (`cursor`, `limit`; X-Next-Cursor). */
const api = apiRoute({
  GET: async ({ request, params, url, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireSelf(caller, params.id ?? '', API_MESSAGES.ownFollowingOnly)
    const page = await listFollowing(caller.claims, pageQuery(url))
    return pagedJson(page.items.map(followedShape), page.nextCursor)
  },
})
export const loader = api.loader
export const action = api.action
