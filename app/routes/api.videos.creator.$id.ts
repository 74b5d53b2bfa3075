import { API_MESSAGES } from '~/lib/schemas/api'
import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { videoList } from '~/server/api/videos.server'
import { DomainError } from '~/server/errors.server'
import { listCreatorVideos } from '~/server/feed.server'

/** GET /api/videos/creator/:id — a creator's videos and sparks; 404 'Creator Not Found'. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const items = await listCreatorVideos(caller?.claims ?? null, params.id ?? '')
    if (!items) throw new DomainError('not_found', API_MESSAGES.creatorNotFound)
    return videoList(caller, items)
  },
})
export const loader = api.loader
export const action = api.action
