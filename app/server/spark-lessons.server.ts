import { sql, type RawBuilder } from 'kysely'
import { isUuid } from '~/lib/ids'
import { mediaUrls } from '~/lib/media-urls'
import { formatClock } from '~/lib/schemas/chapters'
import {
  lessonHref,
  reelClipHref,
  SPARK_LESSON_MESSAGES,
  sparkLessonErrors,
  sparkLessonMomentError,
  sparkLessonSchema,
  type LessonLink,
  type LessonSpark,
  type SparkLessonInput,
} from '~/lib/schemas/spark-lesson'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError } from './errors.server'
import { visibleVideo } from './permissions.server'
import { browserSupabaseUrl } from './supabase.server'

/**
 * Sparks lead to lessons (ADR 0050). A spark names one long-form video of its creator as
 * its lesson, optionally from a moment. The link columns are hidden from API roles: they
 * are read through public.spark_lessons() / public.lesson_sparks(), which show a link only
 * to a caller who can see both ends, and the lesson's title is then read as the caller
 * (row-level security once more). Written by the edit page, the upload and the API — all
 * through `checkSparkLesson` here, then Postgres's own trigger.
 */

const notFound = () => new DomainError('not_found', VIDEO_MESSAGES.notFound)

/** The lessons of these sparks the caller may see (spark id → link). */
export async function lessonLinksOf(claims: JwtClaims | null, sparkIds: readonly string[]): Promise<Map<string, LessonLink>> {
  const ids = [...new Set(sparkIds.filter(isUuid))]
  if (!ids.length) return new Map()
  const rows = await asCaller(claims, (tx) => readLessonLinks(tx, ids))
  return new Map(rows.map((link) => [link.sparkId, link.link]))
}

async function readLessonLinks(tx: Tx, ids: string[]) {
  const { rows } = await lessonLinksQuery(sql`${sql.val(ids)}::uuid[]`).execute(tx)
  return rows.map((row) => ({ sparkId: row.spark_id, link: toLessonLink(row) }))
}

/** A row of `lessonLinksQuery`. */
export interface LessonLinkRow {
  spark_id: string
  lesson_id: string
  lesson_at_seconds: number | null
  title: string
}

/**
 * The lessons of the sparks `ids` (an SQL uuid[] expression) the caller may see; the video
 * page runs it as one part of its statement (video-page.server.ts).
 */
export function lessonLinksQuery(ids: RawBuilder<unknown>): RawBuilder<LessonLinkRow> {
  return sql<LessonLinkRow>`
    select f.spark_id, f.lesson_id, f.lesson_at_seconds, l.title
      from public.spark_lessons(${ids}) f
      join public.videos l on l.id = f.lesson_id`
}

export function toLessonLink(row: LessonLinkRow): LessonLink {
  return {
    id: row.lesson_id,
    title: row.title,
    at: row.lesson_at_seconds,
    href: lessonHref(row.lesson_id, row.lesson_at_seconds),
  }
}

/** One spark's lesson as the caller may see it, or null (no link, or a lesson hidden from them). */
export async function lessonLinkOf(claims: JwtClaims | null, sparkId: string): Promise<LessonLink | null> {
  return (await lessonLinksOf(claims, [sparkId])).get(sparkId) ?? null
}

/**
 * A lesson's public, ready sparks (in the lesson's order: by moment, then newest), when the
 * caller can see the lesson; each opens the reel viewer at that clip. Throws not_found when
 * the caller cannot see the video.
 */
export async function listLessonSparks(claims: JwtClaims | null, lessonId: string): Promise<LessonSpark[]> {
  if (!isUuid(lessonId)) throw notFound()
  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, lessonId))) throw notFound()
    return readLessonSparks(tx, lessonId)
  })
}

async function readLessonSparks(tx: Tx, lessonId: string): Promise<LessonSpark[]> {
  const { rows } = await lessonSparksQuery(sql`${lessonId}::uuid`).execute(tx)
  const base = browserSupabaseUrl()
  return rows.map((row) => toLessonSpark(row, base))
}

/** A row of `lessonSparksQuery`. */
export interface LessonSparkRow {
  id: string
  title: string
  lesson_at_seconds: number | null
  duration_seconds: string | number | null
  thumbnail_path: string | null
  hls_path: string | null
  mp4_path: string | null
}

/**
 * The public, ready sparks of the lesson `lesson` (an SQL uuid expression), in the lesson's
 * order; the video page runs it as one part of its statement (video-page.server.ts).
 */
export function lessonSparksQuery(lesson: RawBuilder<unknown>): RawBuilder<LessonSparkRow> {
  return sql<LessonSparkRow>`
    select s.id, s.title, f.lesson_at_seconds, s.duration_seconds, s.thumbnail_path, s.hls_path, s.mp4_path
      from public.lesson_sparks(${lesson}) with ordinality as f (spark_id, lesson_at_seconds, n)
      join public.videos s on s.id = f.spark_id
     order by f.n`
}

export function toLessonSpark(row: LessonSparkRow, base: string): LessonSpark {
  return {
    id: row.id,
    title: row.title,
    thumbnailUrl: mediaUrls(row, base).posterUrl,
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    at: row.lesson_at_seconds,
    href: reelClipHref(row.id),
  }
}

/**
 * The video page's part (ADR 0050), in one transaction: a spark's lesson ("Watch the full
 * lesson") and a lesson's sparks ("Sparks from this lesson"), as the caller may see them.
 */
export async function videoLessonPanel(
  claims: JwtClaims,
  videoId: string,
): Promise<{ lesson: LessonLink | null; sparks: LessonSpark[] }> {
  if (!isUuid(videoId)) return { lesson: null, sparks: [] }
  return asCaller(claims, async (tx) => {
    const links = await readLessonLinks(tx, [videoId])
    const lesson = links[0]?.link ?? null
    // A spark is nobody's lesson: only a long-form video lists sparks.
    return { lesson, sparks: lesson ? [] : await readLessonSparks(tx, videoId) }
  })
}

// Choosing and checking a lesson ----------------------------------------------------------

export interface LessonChoice {
  value: string
  label: string
  durationSeconds: number | null
}

/** The long-form videos a creator's spark may lead to (newest first), as the caller sees them. */
export async function lessonChoicesFor(claims: JwtClaims, creatorId: string): Promise<LessonChoice[]> {
  if (!isUuid(creatorId)) return []
  const rows = await asCaller(claims, (tx) =>
    tx
      .selectFrom('videos')
      .select(['id', 'title', 'duration_seconds'])
      .where('creator_id', '=', creatorId)
      .where('type', '=', 'video')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(200)
      .execute(),
  )
  return rows.map((row) => {
    const duration = row.duration_seconds === null ? null : Number(row.duration_seconds)
    return {
      value: row.id,
      label: duration === null ? row.title : `${row.title} (${formatClock(Math.floor(duration))})`,
      durationSeconds: duration,
    }
  })
}

/**
 * Checks `{ lessonId, lessonAt }` for a spark (or a video about to be) of `creatorId` of
 * type `type`, inside the caller's transaction: the format, then that the lesson is one of
 * the creator's own long-form videos (as the caller sees them) and that the moment lies
 * within it. Throws `invalid` with field errors `lessonId` / `lessonAt`; answers the link to write.
 */
export async function checkSparkLesson(
  tx: Tx,
  target: { creatorId: string; type: string },
  input: { lessonId: unknown; lessonAt: unknown },
): Promise<SparkLessonInput> {
  const parsed = sparkLessonSchema.safeParse(input)
  if (!parsed.success) {
    const errors = sparkLessonErrors(parsed.error)
    throw new DomainError('invalid', Object.values(errors)[0] ?? SPARK_LESSON_MESSAGES.badLesson, errors)
  }
  const link = parsed.data
  if (link.lessonId === null) return link
  if (target.type !== 'spark') {
    throw new DomainError('invalid', SPARK_LESSON_MESSAGES.onlySparks, { lessonId: SPARK_LESSON_MESSAGES.onlySparks })
  }
  const lesson = await tx
    .selectFrom('videos')
    .select(['creator_id', 'type', 'duration_seconds'])
    .where('id', '=', link.lessonId)
    .executeTakeFirst()
  if (!lesson || lesson.type !== 'video' || lesson.creator_id !== target.creatorId) {
    throw new DomainError('invalid', SPARK_LESSON_MESSAGES.badLesson, { lessonId: SPARK_LESSON_MESSAGES.badLesson })
  }
  const past = sparkLessonMomentError(
    link.lessonAtSeconds,
    lesson.duration_seconds === null ? null : Number(lesson.duration_seconds),
  )
  if (past) throw new DomainError('invalid', past, { lessonAt: past })
  return link
}

/** Postgres's own refusal of a link (videos_check_spark_lesson), as the field error the forms show. */
export function lessonRefusedByPostgres(error: unknown): DomainError | null {
  if ((error as { code?: unknown } | null)?.code !== '23514') return null
  const constraint = String((error as { constraint?: unknown }).constraint ?? '')
  if (!constraint.startsWith('videos_lesson')) return null
  if (constraint === 'videos_lesson_at_within' || constraint === 'videos_lesson_at_not_negative') {
    return new DomainError('invalid', SPARK_LESSON_MESSAGES.badMoment, { lessonAt: SPARK_LESSON_MESSAGES.badMoment })
  }
  if (constraint === 'videos_lesson_stays_video') {
    const message = 'Sparks lead to this video as their lesson: it stays a long-form video'
    return new DomainError('invalid', message, { lessonId: message })
  }
  if (constraint === 'videos_lesson_only_sparks') {
    return new DomainError('invalid', SPARK_LESSON_MESSAGES.onlySparks, { lessonId: SPARK_LESSON_MESSAGES.onlySparks })
  }
  return new DomainError('invalid', SPARK_LESSON_MESSAGES.badLesson, { lessonId: SPARK_LESSON_MESSAGES.badLesson })
}

/** The API's and the edit page's field names for a link: present when either is sent. */
export function lessonFieldsOf(body: Record<string, unknown>): { lessonId: unknown; lessonAt: unknown } | undefined {
  if (!('lessonId' in body) && !('lessonAt' in body)) return undefined
  return { lessonId: body.lessonId, lessonAt: body.lessonAt }
}
