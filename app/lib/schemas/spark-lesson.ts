import { z } from 'zod'
import { isUuid } from '../ids'
import { formatClock, parseClock } from './chapters'

/**
 * A spark's lesson (ADR 0050): one long-form video of the same creator, optionally from a
 * moment. The rules of the upload form, the edit page and `PUT /api/videos/{id}`, checked
 * here with the messages people see, and again by Postgres (videos_check_spark_lesson).
 * A moment is typed as "3:12", "1:02:03" or a number of seconds.
 */
export const SPARK_LESSON_MESSAGES = {
  badLesson: 'Please choose one of your own long-form videos as the lesson',
  onlySparks: 'Only a spark can lead to a lesson',
  badMoment: 'Please enter the moment as 3:12, 1:02:03 or a number of seconds',
  momentWithoutLesson: 'Please choose the lesson this moment belongs to',
  watch: 'Watch the full lesson',
  listTitle: 'Sparks from this lesson',
} as const

/** The message for a moment at or past the lesson's end (its length known). */
export function momentPastEndMessage(durationSeconds: number): string {
  return `The moment must be within the lesson, which is ${formatClock(Math.floor(durationSeconds))} long`
}

export interface SparkLessonInput {
  lessonId: string | null
  /** Whole seconds from the lesson's start; null for its start. */
  lessonAtSeconds: number | null
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && !value.trim())

/** "3:12" / "1:02:03" / "192" / 192 → seconds; null for none; NaN when it is not a moment. */
function momentOf(value: unknown): number | null {
  if (blank(value)) return null
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= 86_400 ? value : Number.NaN
  if (typeof value === 'string') return parseClock(value) ?? Number.NaN
  return Number.NaN
}

/**
 * `{ lessonId, lessonAt }` as a form or a JSON body sends them (a blank lesson: none) →
 * `{ lessonId, lessonAtSeconds }`. Field errors on `lessonId` and `lessonAt`. The lesson's
 * owner and length are the domain's to check (sparkLessonMomentError below).
 */
export const sparkLessonSchema = z
  .object({ lessonId: z.unknown(), lessonAt: z.unknown() })
  .transform((input, context): SparkLessonInput => {
    const lessonId = blank(input.lessonId) ? null : input.lessonId
    if (lessonId !== null && (typeof lessonId !== 'string' || !isUuid(lessonId.trim()))) {
      context.addIssue({ code: 'custom', path: ['lessonId'], message: SPARK_LESSON_MESSAGES.badLesson })
    }
    const at = momentOf(input.lessonAt)
    if (Number.isNaN(at)) {
      context.addIssue({ code: 'custom', path: ['lessonAt'], message: SPARK_LESSON_MESSAGES.badMoment })
    } else if (at !== null && lessonId === null) {
      context.addIssue({ code: 'custom', path: ['lessonAt'], message: SPARK_LESSON_MESSAGES.momentWithoutLesson })
    }
    return { lessonId: typeof lessonId === 'string' ? lessonId.trim() : null, lessonAtSeconds: at }
  })

/** The first message of each field (`lessonId`, `lessonAt`). */
export function sparkLessonErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const issue of error.issues) errors[String(issue.path[0] ?? 'lessonId')] ??= issue.message
  return errors
}

/** The moment against the lesson's length (when measured): null when it fits. */
export function sparkLessonMomentError(at: number | null, lessonDurationSeconds: number | null): string | null {
  if (at === null || lessonDurationSeconds === null) return null
  return at < lessonDurationSeconds ? null : momentPastEndMessage(lessonDurationSeconds)
}

/** Where "Watch the full lesson" goes: the lesson's page, at the moment (`?t=`, honoured with and without JS). */
export function lessonHref(lessonId: string, at: number | null): string {
  return `/video/${encodeURIComponent(lessonId)}${at ? `?t=${at}` : ''}`
}

/** A spark in the reel viewer, opened at that clip. */
export function reelClipHref(sparkId: string): string {
  const id = encodeURIComponent(sparkId)
  return `/sparks-reels?start=${id}#reel-${id}`
}

/** What a spark shows of its lesson: only ever built for a caller who can see the lesson. */
export interface LessonLink {
  id: string
  title: string
  /** Seconds from the lesson's start; null for its start. */
  at: number | null
  href: string
}

/** A spark the lesson page lists. */
export interface LessonSpark {
  id: string
  title: string
  thumbnailUrl: string | null
  durationSeconds: number | null
  at: number | null
  href: string
}
