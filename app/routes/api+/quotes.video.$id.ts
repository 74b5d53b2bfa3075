import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { quoteShape } from '~/server/api/shapes.server'
import { DomainError } from '~/server/errors.server'
import { listVideoQuotes } from '~/server/quotes.server'
import { canSeeVideo } from '~/server/videos.server'

/** GET /api/quotes/video/:id — a video's quotes, newest first; 404 for a video the caller cannot see. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const claims = caller?.claims ?? null
    const id = params.id ?? ''
    if (!(await canSeeVideo(claims, id))) throw new DomainError('not_found', VIDEO_MESSAGES.notFound)
    return (await listVideoQuotes(claims, id)).map(quoteShape)
  },
})
export const loader = api.loader
export const action = api.action
