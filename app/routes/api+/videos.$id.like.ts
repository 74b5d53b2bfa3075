import { z } from 'zod'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { likeVideo } from '~/server/likes.server'

const likeBody = z.object({ like: z.boolean({ invalid_type_error: 'like must be true or false' }).optional() })

/** POST /api/videos/:id/like — toggles the caller's like (or sets `like`); `{ likes, hasLiked }`. */
const api = apiRoute({
  POST: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp, VIDEO_MESSAGES.loginToLike)
    const { like } = await readBody(request, likeBody)
    return likeVideo(caller.claims, params.id ?? '', like)
  },
})
export const loader = api.loader
export const action = api.action
