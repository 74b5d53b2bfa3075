import { requireCaller } from '~/server/api/caller.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { PositionBody } from '~/server/api/schemas.server'
import { watchPositionShape } from '~/server/api/shapes.server'
import { DomainError } from '~/server/errors.server'
import { PROGRESS_MESSAGES } from '~/lib/schemas/progress'
import { canSeeVideo } from '~/server/videos.server'
import { getWatchPosition, saveWatchPosition } from '~/server/progress.server'

/**
 * GET /api/videos/:id/progress — where the caller left off (`{ progress }`, null when never watched);
 * PUT — saves it (`{ position, duration? }`), as the player's reports do (ADR 0034). Private to the caller.
 */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const id = params.id ?? ''
    // A video the caller cannot see is 404, as everywhere.
    if (!(await canSeeVideo(caller.claims, id))) throw new DomainError('not_found', PROGRESS_MESSAGES.videoNotFound)
    const progress = await getWatchPosition(caller.claims, id)
    return { progress: progress ? watchPositionShape(progress) : null }
  },
  PUT: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = await readBody(request, PositionBody)
    return { progress: watchPositionShape(await saveWatchPosition(caller.claims, params.id ?? '', body)) }
  },
})
export const loader = api.loader
export const action = api.action
