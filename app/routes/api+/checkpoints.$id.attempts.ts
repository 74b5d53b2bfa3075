import { requireCaller } from '~/server/api/caller.server'
import { attemptShape, AttemptBody } from '~/server/api/checkpoints.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { answerCheckpoint } from '~/server/checkpoints.server'

/** POST /api/checkpoints/:id/attempts — `{ chosen }`: scored and recorded; `{ checkpoint, correct, explanation }` (ADR 0047). */
const api = apiRoute({
  POST: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = await readBody(request, AttemptBody)
    return attemptShape(await answerCheckpoint(caller.claims, params.id ?? '', body.chosen))
  },
})
export const loader = api.loader
export const action = api.action
