import { z } from 'zod'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { optionalCaller, requireCaller } from '~/server/api/caller.server'
import { categoryId } from '~/server/api/videos.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { videoDetailShape } from '~/server/api/shapes.server'
import { editVideo } from '~/server/chapters.server'
import { DomainError } from '~/server/errors.server'
import { lessonFieldsOf, lessonLinkOf } from '~/server/spark-lessons.server'
import { deleteVideo, getVideo } from '~/server/videos.server'

/**
 * GET /api/videos/:id — one video (a spark with its lesson, ADR 0050); PUT `{ title, description, category?,
 * chapters?, lessonId?, lessonAt? }` — its owner or an admin edits it (the edit page's checks, ADR 0042); DELETE — its owner or an admin (docs/product.md,
 * Permissions; The JSON API; Rules and messages).
 */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const video = await getVideo(caller?.claims ?? null, params.id ?? '')
    if (!video) throw new DomainError('not_found', VIDEO_MESSAGES.notFound)
    return videoDetailShape(video, await lessonLinkOf(caller?.claims ?? null, video.id))
  },
  PUT: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = (await readBody(request, z.record(z.unknown()))) as Record<string, unknown>
    const id = params.id ?? ''
    await editVideo(caller.claims, id, {
      title: body.title,
      description: body.description,
      category: categoryOrRaw(body.category),
      chapters: body.chapters,
      lesson: lessonFieldsOf(body),
    })
    const video = await getVideo(caller.claims, id)
    if (!video) throw new DomainError('not_found', VIDEO_MESSAGES.notFound)
    return videoDetailShape(video, await lessonLinkOf(caller.claims, video.id))
  },
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    return { message: await deleteVideo(caller?.claims ?? null, params.id ?? '') }
  },
})
export const loader = api.loader
export const action = api.action

/** A category by id or by name, as the upload call takes it; anything else goes on to be refused by the schema. */
function categoryOrRaw(value: unknown): unknown {
  return typeof value === 'string' ? (categoryId(value) ?? value) : value
}
