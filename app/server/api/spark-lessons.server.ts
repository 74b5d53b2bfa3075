import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import type { LessonSpark } from '~/lib/schemas/spark-lesson'
import type { Endpoint } from './openapi.server'

extendZodWithOpenApi(z)

/**
 * The spark-lesson calls of the /api (ADR 0050; their rows in the OpenAPI table come from
 * here). A spark's own link is a field of the video (`lesson` in GET/PUT /videos/{id}).
 */
const id = z.string().uuid().openapi({ description: 'A uuid' })

export const LessonSparkSchema = z
  .object({
    _id: id,
    title: z.string(),
    thumbnailUrl: z.string().nullable(),
    durationSeconds: z.number().nullable(),
    at: z.number().int().min(0).nullable().openapi({ description: 'The moment of the lesson it leads to; null for its start' }),
    url: z.string().openapi({ description: 'The reel viewer opened at this spark' }),
  })
  .openapi('LessonSpark', { description: 'A public spark that leads to a lesson' })

export const LessonSparksSchema = z
  .object({ sparks: z.array(LessonSparkSchema) })
  .openapi('LessonSparks', { description: 'A lesson’s public sparks, by moment (the start first), then newest; at most 50' })

export const SPARK_LESSON_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/videos/{id}/sparks',
    tag: 'Videos',
    access: 'optional',
    summary: 'The public sparks that lead to a lesson you can see (“Sparks from this lesson”)',
    ok: { status: 200, schema: LessonSparksSchema, description: 'Its sparks in the lesson’s order (empty when none)' },
    errors: [401, 404],
  },
]

export function lessonSparksShape(sparks: LessonSpark[]): z.infer<typeof LessonSparksSchema> {
  return {
    sparks: sparks.map((spark) => ({
      _id: spark.id,
      title: spark.title,
      thumbnailUrl: spark.thumbnailUrl,
      durationSeconds: spark.durationSeconds,
      at: spark.at,
      url: spark.href,
    })),
  }
}
