import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { enroll, getCourseProgress, leave } from '~/server/course-progress.server'

/**
 * GET /api/courses/:id/enrollment — the caller's progress in a course (`enrolled`, lesson states,
 * k of n, Continue); POST enrolls (idempotent); DELETE leaves (idempotent). ADR 0048.
 */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return { progress: await getCourseProgress(caller.claims, params.id ?? '') }
  },
  POST: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return { progress: await enroll(caller.claims, params.id ?? '') }
  },
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return leave(caller.claims, params.id ?? '')
  },
})
export const loader = api.loader
export const action = api.action
