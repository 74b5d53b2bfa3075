import { z } from 'zod'
import { COURSE_MESSAGES } from '~/lib/schemas/courses'
import { optionalCaller, requireCaller } from '~/server/api/caller.server'
import { courseCategory, courseShape } from '~/server/api/courses.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { deleteCourse, getCourse, setCoursePublished, updateCourse } from '~/server/courses.server'
import { DomainError } from '~/server/errors.server'

/**
 * GET /api/courses/:id — a course with its lessons; PUT — its creator changes it (fields
 * left out keep their value, `lessons` replaces the list, `published`), and an admin may send
 * `{ "published": false }` alone to unpublish; DELETE — its creator or an admin (ADR 0048).
 */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    return courseShape(await getCourse(caller?.claims ?? null, params.id ?? ''))
  },
  PUT: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = (await readBody(request, z.record(z.unknown()))) as Record<string, unknown>
    const id = params.id ?? ''
    if (body.published !== undefined && typeof body.published !== 'boolean') {
      throw new DomainError('invalid', 'published must be true or false', { published: 'published must be true or false' })
    }
    const keys = Object.keys(body)
    if (keys.length === 1 && keys[0] === 'published') {
      await setCoursePublished(caller.claims, id, body.published as boolean)
    } else {
      const current = await getCourse(caller.claims, id)
      if (!current.isOwner) throw new DomainError('forbidden', COURSE_MESSAGES.notYourCourse)
      await updateCourse(caller, id, {
        title: 'title' in body ? body.title : current.title,
        description: 'description' in body ? body.description : current.description,
        category: 'category' in body ? courseCategory(body.category) : current.category.id,
        lessons: body.lessons,
        published: body.published as boolean | undefined,
      })
    }
    return courseShape(await getCourse(caller.claims, id))
  },
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return { message: await deleteCourse(caller.claims, params.id ?? '') }
  },
})
export const loader = api.loader
export const action = api.action
