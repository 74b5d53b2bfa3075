import { requireCaller } from '~/server/api/caller.server'
import { checkpointStatShape } from '~/server/api/checkpoints.server'
import { apiRoute } from '~/server/api/route.server'
import { checkpointStats } from '~/server/checkpoints.server'

/** GET /api/videos/:id/checkpoints/stats — aggregates per checkpoint, for the video's creator or an admin (ADR 0047). */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return { stats: (await checkpointStats(caller.claims, params.id ?? '')).map(checkpointStatShape) }
  },
})
export const loader = api.loader
export const action = api.action
