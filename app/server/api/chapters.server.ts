import { z } from 'zod'
import './schemas.server'

/**
 * The chapter calls' shapes (ADR 0042): a chapter is `{ start, title }` with `start` in
 * whole seconds. The bodies are checked by the domain's own schema
 * (app/lib/schemas/chapters.ts, through app/server/chapters.server.ts); these describe them.
 */
export const ChapterSchema = z
  .object({
    start: z.number().int().min(0).openapi({ description: 'Whole seconds from the start of the video' }),
    title: z.string().openapi({ description: '1 to 100 characters' }),
  })
  .openapi('Chapter')

export const ChaptersSchema = z
  .object({ chapters: z.array(ChapterSchema) })
  .openapi('Chapters', { description: 'A video’s chapters in time order; empty when it has none' })

export const ChaptersBody = z
  .object({
    chapters: z.array(ChapterSchema).openapi({
      description:
        'None (removes them), or 3 to 100 chapters: the first at 0, each at least 10 s long (the last one too, when the video’s length is known)',
    }),
  })
  .openapi('ChaptersBody')

export const VideoEditBody = z
  .object({
    title: z.string().openapi({ description: 'Up to 200 characters' }),
    description: z.string().openapi({ description: 'Up to 5,000 characters' }),
    category: z.string().optional().openapi({ description: "A category id; default 'other'" }),
    chapters: z.array(ChapterSchema).optional().openapi({ description: 'When given, replaces the chapters (same rules as PUT /videos/{id}/chapters)' }),
    lessonId: z
      .string()
      .nullable()
      .optional()
      .openapi({
        description: 'A spark only: one of its creator’s long-form videos to lead to (ADR 0050); null removes the link',
      }),
    lessonAt: z
      .union([z.number().int(), z.string()])
      .nullable()
      .optional()
      .openapi({
        description:
          'Where the lesson opens: seconds (192) or a clock ("3:12", "1:02:03"), within the lesson; null for its start',
      }),
  })
  .openapi('VideoEditBody')

/** `{ chapters }` of a body, as sent: the domain checks it (null when there is none, so the rules name it). */
export function chaptersOf(body: unknown): unknown {
  return body && typeof body === 'object' && 'chapters' in body ? (body as { chapters: unknown }).chapters : null
}
