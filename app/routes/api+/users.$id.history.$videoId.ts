import { API_MESSAGES } from '~/lib/schemas/api'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { requireSelf } from '~/server/api/users.server'
import { removeFromHistory } from '~/server/progress.server'

/** DELETE /api/users/:id/history/:videoId — removes one video from one's own history (ADR 0034). */
const api = apiRoute({
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireSelf(caller, params.id ?? '', API_MESSAGES.ownHistoryOnly)
    return { message: await removeFromHistory(caller.claims, params.videoId ?? '') }
  },
})
export const loader = api.loader
export const action = api.action
