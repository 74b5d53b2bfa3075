import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { commentShape } from '~/server/api/shapes.server'
import { listComments } from '~/server/comments.server'
import { DomainError } from '~/server/errors.server'
import { canSeeVideo } from '~/server/videos.server'

/** GET /api/videos/:id/comments — newest first; 404 for a video the caller cannot see. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const claims = caller?.claims ?? null
    const id = params.id ?? ''
    if (!(await canSeeVideo(claims, id))) throw new DomainError('not_found', VIDEO_MESSAGES.notFound)
    return (await listComments(claims, id)).map(commentShape)
  },
})
export const loader = api.loader
export const action = api.action
