import { sql } from 'kysely'
import { CATEGORIES } from '~/lib/catalog'
import { isUuid } from '~/lib/ids'
import { CHAPTER_MESSAGES, chapterErrors, chaptersSchema, type Chapter } from '~/lib/schemas/chapters'
import { UPLOAD_MESSAGES, uploadErrors, uploadSchema } from '~/lib/schemas/upload'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError, isDomainError, type FieldErrors } from './errors.server'
import { allowed, visibleVideo } from './permissions.server'
import {
  checkSparkLesson,
  lessonChoicesFor,
  lessonLinkOf,
  lessonRefusedByPostgres,
  type LessonChoice,
} from './spark-lessons.server'
import type { LessonLink, SparkLessonInput } from '~/lib/schemas/spark-lesson'
import { uploadCategories, type CategoryOption } from './uploads.server'

/**
 * Chapters and the video edit page (ADR 0042). Chapters live on the video row
 * (`videos.chapters`), so whoever can see the video reads them and its creator and
 * admins replace them — the videos policies decide, as the caller. The rules are
 * checked here with the shared schema (field errors) and again by Postgres.
 * Pages and their /api twins call these functions.
 */

const notFound = () => new DomainError('not_found', VIDEO_MESSAGES.notFound)

/** The stored jsonb as a list (the CHECK already guarantees its shape). */
export function storedChapters(value: unknown): Chapter[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((item: unknown) => {
    const chapter = item as Partial<Chapter> | null
    return chapter && typeof chapter.start === 'number' && typeof chapter.title === 'string'
      ? [{ start: chapter.start, title: chapter.title }]
      : []
  })
}

/** A video's chapters as the caller may see them, and its length (null until measured). Throws not_found. */
export async function getChapters(
  claims: JwtClaims | null,
  videoId: string,
): Promise<{ chapters: Chapter[]; durationSeconds: number | null }> {
  if (!isUuid(videoId)) throw notFound()
  const row = await asCaller(claims, (tx) =>
    tx.selectFrom('videos').select(['chapters', 'duration_seconds']).where('id', '=', videoId).executeTakeFirst(),
  )
  if (!row) throw notFound()
  return {
    chapters: storedChapters(row.chapters),
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
  }
}

/** The list checked against the rules and the video's length: field errors (`chapters.<i>.start`) when one breaks. */
function checkChapters(input: unknown, durationSeconds: number | null): Chapter[] {
  const parsed = chaptersSchema(durationSeconds).safeParse(input)
  if (parsed.success) return parsed.data
  const errors = chapterErrors(parsed.error)
  throw new DomainError('invalid', Object.values(errors)[0] ?? CHAPTER_MESSAGES.tooFew, errors)
}

/** Who may edit: the video's creator or an admin (the videos update policy). Throws not_found / forbidden. */
async function requireEditable(tx: Tx, videoId: string) {
  const video = await visibleVideo(tx, videoId)
  if (!video) throw notFound()
  if (!(await allowed(tx, sql<boolean>`(${video.creator_id}::uuid = auth.uid() or public.is_admin())`))) {
    throw new DomainError('forbidden', CHAPTER_MESSAGES.notYourVideo)
  }
}

/** Postgres's own refusal of a list (its CHECK, or the length rule): the same answer as ours. */
function refusedByPostgres(error: unknown): DomainError | null {
  const code = (error as { code?: unknown } | null)?.code
  if (code !== '23514') return null
  const fit = (error as { constraint?: unknown }).constraint === 'videos_chapters_fit'
  const message = fit ? CHAPTER_MESSAGES.pastEnd : CHAPTER_MESSAGES.tooFew
  return new DomainError('invalid', message, { chapters: message })
}

/**
 * Replaces a video's chapters (an empty list removes them) as the caller: its creator or an
 * admin. 400 with field errors when the list breaks a rule; nothing is written then.
 */
export async function saveChapters(claims: JwtClaims | null, videoId: string, input: unknown): Promise<Chapter[]> {
  if (!claims) throw new DomainError('unauthenticated', VIDEO_MESSAGES.noToken)
  if (!isUuid(videoId)) throw notFound()
  try {
    return await asCaller(claims, async (tx) => {
      await requireEditable(tx, videoId)
      const row = await tx.selectFrom('videos').select('duration_seconds').where('id', '=', videoId).executeTakeFirstOrThrow()
      const chapters = checkChapters(input, row.duration_seconds === null ? null : Number(row.duration_seconds))
      await tx
        .updateTable('videos')
        .set({ chapters: JSON.stringify(chapters) })
        .where('id', '=', videoId)
        .executeTakeFirstOrThrow()
      return chapters
    })
  } catch (error) {
    throw refusedByPostgres(error) ?? error
  }
}

// The edit page ------------------------------------------------------------------------------

/** Title, description and category: the upload form's own fields and messages. */
export const videoEditSchema = uploadSchema.pick({ title: true, description: true, category: true })

export interface VideoEditor {
  id: string
  title: string
  description: string
  categoryId: string
  type: 'video' | 'spark'
  chapters: Chapter[]
  durationSeconds: number | null
  /** The categories the caller may choose (the video's own always among them). */
  categories: CategoryOption[]
  /** A spark's lesson (ADR 0050) and the creator's long-form videos it may lead to; for a video, null and []. */
  lesson: LessonLink | null
  lessonChoices: LessonChoice[]
}

/** What the edit page shows: the video's editable fields, for its creator or an admin. Throws not_found / forbidden. */
export async function getVideoEditor(claims: JwtClaims, videoId: string): Promise<VideoEditor> {
  if (!isUuid(videoId)) throw notFound()
  const row = await asCaller(claims, async (tx) => {
    await requireEditable(tx, videoId)
    return tx
      .selectFrom('videos')
      .select(['id', 'title', 'description', 'category_id', 'type', 'chapters', 'duration_seconds', 'creator_id'])
      .where('id', '=', videoId)
      .executeTakeFirstOrThrow()
  })
  const spark = row.type === 'spark'
  const [categories, lesson, lessonChoices] = await Promise.all([
    uploadCategories(claims),
    spark ? lessonLinkOf(claims, row.id) : null,
    spark ? lessonChoicesFor(claims, row.creator_id) : [],
  ])
  if (!categories.some((option) => option.value === row.category_id)) {
    const own = CATEGORIES.find((category) => category.id === row.category_id)
    if (own) categories.unshift({ value: own.id, label: own.name })
  }
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    categoryId: row.category_id,
    type: row.type as VideoEditor['type'],
    chapters: storedChapters(row.chapters),
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    categories,
    lesson,
    lessonChoices,
  }
}

export interface VideoEdit {
  title: unknown
  description: unknown
  category: unknown
  /** The chapters to store; undefined leaves them as they are. */
  chapters?: unknown
  /** A spark's lesson `{ lessonId, lessonAt }` (ADR 0050; a blank lesson removes it); undefined leaves it as it is. */
  lesson?: { lessonId: unknown; lessonAt: unknown }
}

/**
 * Saves the edit page (or `PUT /api/videos/:id`): title, description, category and,
 * when given, the chapters — all checked first, then written in one statement as the
 * caller, so a refusal leaves the video as it was. 400 with field errors (`title`,
 * `description`, `category`, `chapters`, `chapters.<i>.start|title`, `lessonId`, `lessonAt`).
 */
export async function editVideo(claims: JwtClaims | null, videoId: string, edit: VideoEdit): Promise<void> {
  if (!claims) throw new DomainError('unauthenticated', VIDEO_MESSAGES.noToken)
  if (!isUuid(videoId)) throw notFound()
  try {
    await asCaller(claims, async (tx) => {
      await requireEditable(tx, videoId)
      const current = await tx
        .selectFrom('videos')
        .select(['category_id', 'duration_seconds', 'creator_id', 'type'])
        .where('id', '=', videoId)
        .executeTakeFirstOrThrow()
      const errors: FieldErrors = {}
      let lesson: SparkLessonInput | undefined
      if (edit.lesson !== undefined) {
        try {
          lesson = await checkSparkLesson(tx, { creatorId: current.creator_id, type: current.type }, edit.lesson)
        } catch (error) {
          if (!isDomainError(error) || !error.fieldErrors) throw error
          Object.assign(errors, error.fieldErrors)
        }
      }
      const fields = videoEditSchema.safeParse({ title: edit.title, description: edit.description, category: edit.category })
      if (!fields.success) Object.assign(errors, uploadErrors(fields.error))
      let chapters: Chapter[] | undefined
      if (edit.chapters !== undefined) {
        const parsed = chaptersSchema(current.duration_seconds === null ? null : Number(current.duration_seconds)).safeParse(
          edit.chapters,
        )
        if (parsed.success) chapters = parsed.data
        else Object.assign(errors, chapterErrors(parsed.error))
      }
      // Moving to another category obeys the upload's rule; keeping the current one is always allowed.
      if (
        fields.success &&
        fields.data.category !== current.category_id &&
        !(await allowed(tx, sql<boolean>`public.can_use_category(${fields.data.category})`))
      ) {
        errors.category = UPLOAD_MESSAGES.categoryNotAllowed
      }
      if (Object.keys(errors).length || !fields.success) {
        throw new DomainError('invalid', Object.values(errors)[0] ?? UPLOAD_MESSAGES.failed, errors)
      }
      await tx
        .updateTable('videos')
        .set({
          title: fields.data.title,
          description: fields.data.description,
          category_id: fields.data.category,
          ...(chapters ? { chapters: JSON.stringify(chapters) } : {}),
          ...(lesson ? { lesson_id: lesson.lessonId, lesson_at_seconds: lesson.lessonAtSeconds } : {}),
        })
        .where('id', '=', videoId)
        .executeTakeFirstOrThrow()
    })
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '42501') {
      throw new DomainError('invalid', UPLOAD_MESSAGES.categoryNotAllowed, { category: UPLOAD_MESSAGES.categoryNotAllowed })
    }
    throw lessonRefusedByPostgres(error) ?? refusedByPostgres(error) ?? error
  }
}
