import { API_MESSAGES } from '~/lib/schemas/api'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { watchPositionShape } from '~/server/api/shapes.server'
import { pagedJson, pageQuery, requireSelf } from '~/server/api/users.server'
import { videoList } from '~/server/api/videos.server'
import { clearHistory, listHistory } from '~/server/progress.server'

/**
 * GET /api/users/:id/history — one's own watch history, latest first, each video with `progress`
 * (`cursor`, `limit`; X-Next-Cursor); DELETE — clears it (ADR 0034). Someone else's: 403.
 */
const api = apiRoute({
  GET: async ({ request, params, url, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireSelf(caller, params.id ?? '', API_MESSAGES.ownHistoryOnly)
    const page = await listHistory(caller.claims, pageQuery(url))
    const videos = await videoList(caller, page.items)
    return pagedJson(
      videos.map((video, index) => ({ ...video, progress: watchPositionShape(page.items[index]!.progress) })),
      page.nextCursor,
    )
  },
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireSelf(caller, params.id ?? '', API_MESSAGES.ownHistoryOnly)
    return { message: await clearHistory(caller.claims) }
  },
})
export const loader = api.loader
export const action = api.action
