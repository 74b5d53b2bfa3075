import { z } from 'zod'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { markNotInterested } from '~/server/for-you.server'

const body = z.object({
  creator: z.boolean({ invalid_type_error: 'creator must be true or false' }).optional(),
})

/**
 * POST /api/videos/:id/not-interested — the clip (and, with `{ "creator": true }`, its
 * creator's clips) goes down in the caller's For You; `{ videoId, creatorId }`.
 */
const api = apiRoute({
  POST: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const { creator } = await readBody(request, body)
    return markNotInterested(caller.claims, params.id ?? '', creator === true)
  },
})
export const loader = api.loader
export const action = api.action
