import { LEARNING_MESSAGES } from '~/lib/course-learning'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { requireSelf } from '~/server/api/users.server'
import { listMyLearning } from '~/server/course-progress.server'

/** GET /api/users/:id/learning — My learning: one's own enrolled courses, k of n and Continue (ADR 0048). Someone else's: 403. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireSelf(caller, params.id ?? '', LEARNING_MESSAGES.ownLearningOnly)
    return listMyLearning(caller.claims)
  },
})
export const loader = api.loader
export const action = api.action
