import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { videoThumbnail } from '~/server/api/videos.server'

/** GET/HEAD /api/videos/:id/thumbnail — the thumbnail of a video the caller can see; Range supported. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => videoThumbnail(await optionalCaller(request, clientIp), request, params.id ?? ''),
})
export const loader = api.loader
export const action = api.action
