import { z } from 'zod'
import { API_MESSAGES } from '~/lib/schemas/api'
import { requireCaller } from '~/server/api/caller.server'
import { feedbackInput, requireAdmin } from '~/server/api/moderation.server'
import { apiRoute, json, readBody } from '~/server/api/route.server'
import { feedbackShape } from '~/server/api/shapes.server'
import { readFeedback, sendFeedback } from '~/server/feedback.server'

/** POST /api/feedback — liked, usage, recommendations (all required); GET — admins read it. */
const api = apiRoute({
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await sendFeedback(caller.claims, feedbackInput(await readBody(request, z.unknown())))
    return json({ message: API_MESSAGES.feedbackSent }, 201)
  },
  GET: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireAdmin(caller)
    return (await readFeedback(caller.claims, { limit: 200 })).map(feedbackShape)
  },
})
export const loader = api.loader
export const action = api.action
