import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { streamVideo } from '~/server/api/videos.server'

/** GET/HEAD /api/videos/:id/stream — the MP4, Range supported; 401 / 404 as the video card's check expects. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => streamVideo(await optionalCaller(request, clientIp), request, params.id ?? ''),
})
export const loader = api.loader
export const action = api.action
