import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { videoDetailShape } from '~/server/api/shapes.server'
import { DomainError } from '~/server/errors.server'
import { deleteVideo, getVideo } from '~/server/videos.server'

/** GET /api/videos/:id — one video; DELETE — its owner or an admin (docs/product.md, Permissions; The JSON API; Rules and messages). */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const video = await getVideo(caller?.claims ?? null, params.id ?? '')
    if (!video) throw new DomainError('not_found', VIDEO_MESSAGES.notFound)
    return videoDetailShape(video)
  },
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    return { message: await deleteVideo(caller?.claims ?? null, params.id ?? '') }
  },
})
export const loader = api.loader
export const action = api.action
