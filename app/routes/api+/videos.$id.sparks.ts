import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { lessonSparksShape } from '~/server/api/spark-lessons.server'
import { listLessonSparks } from '~/server/spark-lessons.server'

/**
 * GET /api/videos/:id/sparks — the public sparks that lead to this lesson (ADR 0050), in the
 * lesson's order, for whoever can see the lesson (a visitor too, when it is public).
 */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    return lessonSparksShape(await listLessonSparks(caller?.claims ?? null, params.id ?? ''))
  },
})
export const loader = api.loader
export const action = api.action
