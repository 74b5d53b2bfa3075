import { z } from 'zod'
import { optionalCaller, requireCaller } from '~/server/api/caller.server'
import { courseCardShape, courseCategory, courseShape } from '~/server/api/courses.server'
import { apiRoute, json, readBody } from '~/server/api/route.server'
import { createCourse, getCourse, listCourses, listCreatorCourses } from '~/server/courses.server'

/**
 * GET /api/courses — published courses, newest first (`cursor`, `limit`), or with
 * `creator=<id>` that creator's; POST — a verified creator creates one (ADR 0048).
 */
const api = apiRoute({
  GET: async ({ request, url, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const claims = caller?.claims ?? null
    const creator = url.searchParams.get('creator')
    if (creator !== null) {
      return { courses: (await listCreatorCourses(claims, creator)).map(courseCardShape), nextCursor: null }
    }
    const limit = Number.parseInt(url.searchParams.get('limit') ?? '', 10)
    const page = await listCourses(claims, {
      cursor: url.searchParams.get('cursor'),
      limit: Number.isFinite(limit) && limit > 0 ? limit : undefined,
    })
    return Response.json(
      { courses: page.items.map(courseCardShape), nextCursor: page.nextCursor },
      { headers: { 'Cache-Control': 'no-store', ...(page.nextCursor ? { 'X-Next-Cursor': page.nextCursor } : {}) } },
    )
  },
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = (await readBody(request, z.record(z.unknown()))) as Record<string, unknown>
    const id = await createCourse(caller, {
      title: body.title,
      description: body.description,
      category: courseCategory(body.category),
      lessons: body.lessons,
      published: body.published === true,
    })
    return json(courseShape(await getCourse(caller.claims, id)), 201)
  },
})
export const loader = api.loader
export const action = api.action
