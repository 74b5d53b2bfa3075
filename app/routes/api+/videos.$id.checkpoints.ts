import { optionalCaller } from '~/server/api/caller.server'
import { checkpointShape } from '~/server/api/checkpoints.server'
import { apiRoute } from '~/server/api/route.server'
import { requireCheckpoints } from '~/server/checkpoints.server'

/** GET /api/videos/:id/checkpoints — the questions and options, never the answer key (ADR 0047); 404 for a hidden video. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const checkpoints = await requireCheckpoints(caller?.claims ?? null, params.id ?? '')
    return { checkpoints: checkpoints.map(checkpointShape) }
  },
})
export const loader = api.loader
export const action = api.action
