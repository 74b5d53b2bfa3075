import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { likeVideo } from '~/server/likes.server'

/** POST /api/videos/:id/unlike — removes the caller's like; `{ likes, hasLiked }`. */
const api = apiRoute({
  POST: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp, VIDEO_MESSAGES.loginToLike)
    return likeVideo(caller.claims, params.id ?? '', false)
  },
})
export const loader = api.loader
export const action = api.action
