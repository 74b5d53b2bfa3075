import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { CATEGORIES, categoryName, LIMITS } from '~/lib/catalog'
import { groupSections, type CourseCardItem, type CourseDetail, type CourseLesson } from '~/lib/course-types'
import { isUuid } from '~/lib/ids'
import { avatarUrl, mediaUrls, thumbnailUrl } from '~/lib/media-urls'
import {
  COURSE_LESSONS_MAX,
  COURSE_MESSAGES,
  courseErrors,
  courseInputSchema,
  lessonInputSchema,
  lessonListSchema,
  sectionTitleSchema,
  type CourseErrors,
  type LessonInput,
} from '~/lib/schemas/courses'
import type { VideoType } from '~/lib/video-types'
import { reencodeThumbnail, validateImageFile } from '../../media/validate-image'
import { decodeTimeKey, encodeTimeKey, isoMicros } from './cursor.server'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError } from './errors.server'
import { cleanSearch } from './feed/search.server'
import { allowed } from './permissions.server'
import { removeFiles } from './storage.server'
import { browserSupabaseUrl, type Supabase } from './supabase.server'
import { uploadCategories, type CategoryOption, type UploadedFile } from './uploads.server'
import { removeStored, storeFile } from './upload-objects.server'

/**
 * Courses (ADR 0048): a creator's own public videos and sparks in an order, with optional
 * section headings. Everything runs as the caller — the courses and course_lessons policies
 * decide who sees and changes what, and Postgres refuses a lesson that is not the course
 * creator's own public video (a trigger). This module checks the same rules first so that
 * a refusal comes back as a field error with our words; pages and their /api twins call it.
 *
 * Lesson order is `position` 0..n-1 with no gaps. Every change of the list locks the course
 * row first (`for update`), so two editors take turns; the unique (course_id, position) is
 * deferred to the commit, which lets a swap or a shift happen in one transaction and still
 * refuses any order that two writers could leave behind.
 */

const notFound = () => new DomainError('not_found', COURSE_MESSAGES.notFound)
const notYours = () => new DomainError('forbidden', COURSE_MESSAGES.notYourCourse)
const signIn = () => new DomainError('unauthenticated', COURSE_MESSAGES.signIn)

/** A list page of courses. */
export interface CoursePage {
  items: CourseCardItem[]
  nextCursor: string | null
}

export const COURSE_PAGE_SIZE = 12
const MAX_COURSE_PAGE = 50

// Reading --------------------------------------------------------------------------------

interface CardRow {
  id: string
  title: string
  description: string
  category_id: string
  cover_path: string | null
  is_published: boolean
  created_at: string | Date
  at: string
  creator_id: string
  username: string
  avatar_path: string | null
  lesson_count: number | string
  total_seconds: number | string | null
  first_thumbnail: string | null
}

/** The card columns: the course, its creator, and its lessons' count, length and first thumbnail (as the caller sees them). */
const CARD_SELECT = sql`
  select c.id, c.title, c.description, c.category_id, c.cover_path, c.is_published, c.created_at,
         ${isoMicros(sql`c.created_at`)} as at,
         c.creator_id, p.username, p.avatar_path,
         coalesce(agg.lesson_count, 0) as lesson_count, coalesce(agg.total_seconds, 0) as total_seconds,
         agg.first_thumbnail
    from public.courses c
    join public.profiles p on p.id = c.creator_id
    left join lateral (
      select count(*) as lesson_count, sum(v.duration_seconds) as total_seconds,
             (array_agg(v.thumbnail_path order by l.position) filter (where v.thumbnail_path is not null))[1] as first_thumbnail
        from public.course_lessons l
        join public.videos v on v.id = l.video_id
       where l.course_id = c.id
    ) agg on true`

function toCard(row: CardRow): CourseCardItem {
  const supabaseUrl = browserSupabaseUrl()
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: { id: row.category_id, name: categoryName(row.category_id) },
    imageUrl: thumbnailUrl(supabaseUrl, row.cover_path ?? row.first_thumbnail),
    isPublished: row.is_published,
    creator: { id: row.creator_id, username: row.username, avatarUrl: avatarUrl(supabaseUrl, row.avatar_path) },
    lessonCount: Number(row.lesson_count),
    totalSeconds: Math.round(Number(row.total_seconds ?? 0)),
    createdAt: new Date(row.created_at).toISOString(),
  }
}

/** Published courses, newest first, paged by keyset (`cursor` from the previous page). */
export async function listCourses(
  claims: JwtClaims | null,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<CoursePage> {
  const limit = Math.max(1, Math.min(MAX_COURSE_PAGE, Math.floor(options.limit ?? COURSE_PAGE_SIZE) || COURSE_PAGE_SIZE))
  const key = decodeTimeKey(options.cursor)
  const after = key ? sql`and (c.created_at, c.id) < (${key.at}::timestamptz, ${key.id}::uuid)` : sql``
  const rows = await asCaller(claims, async (tx) => {
    const { rows } = await sql<CardRow>`${CARD_SELECT}
       where c.is_published ${after}
       order by c.created_at desc, c.id desc
       limit ${limit + 1}`.execute(tx)
    return rows
  })
  const items = rows.slice(0, limit)
  const last = items.at(-1)
  return {
    items: items.map(toCard),
    nextCursor: rows.length > limit && last ? encodeTimeKey({ at: last.at, id: last.id }) : null,
  }
}

/**
 * A creator's courses, newest first: the published ones, and to the creator themself
 * also their drafts. Unknown or malformed ids give an empty list.
 */
export async function listCreatorCourses(claims: JwtClaims | null, creatorId: string): Promise<CourseCardItem[]> {
  if (!isUuid(creatorId)) return []
  const viewer = claims?.sub ?? null
  const shown = viewer ? sql`(c.is_published or c.creator_id = ${viewer}::uuid)` : sql`c.is_published`
  const rows = await asCaller(claims, async (tx) => {
    const { rows } = await sql<CardRow>`${CARD_SELECT}
       where c.creator_id = ${creatorId}::uuid and ${shown}
       order by c.created_at desc, c.id desc
       limit 100`.execute(tx)
    return rows
  })
  return rows.map(toCard)
}

/**
 * Published courses whose title or description has every word of `search` (as word
 * prefixes, like the feed's search), best first: title words weigh more. Courses are few
 * beside videos; the match is tested on the visible published rows.
 */
export async function searchCourses(claims: JwtClaims | null, search: string | null | undefined, limit = 4): Promise<CourseCardItem[]> {
  const text = cleanSearch(search)
  if (!text) return []
  const rows = await asCaller(claims, async (tx) => {
    const { rows } = await sql<CardRow>`
      with q as (
        select to_tsquery('simple', string_agg(
                 '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & '
               )) as query
          from unnest(tsvector_to_array(to_tsvector('simple', ${text}))) as lexeme
      )
      select m.* from q, lateral (
        ${CARD_SELECT}
         where c.is_published and q.query is not null
           and to_tsvector('simple', c.title || ' ' || c.description) @@ q.query
         order by ts_rank(setweight(to_tsvector('simple', c.title), 'A') || setweight(to_tsvector('simple', c.description), 'B'), q.query) desc,
                  c.created_at desc, c.id desc
         limit ${Math.max(1, Math.min(MAX_COURSE_PAGE, limit))}
      ) m`.execute(tx)
    return rows
  })
  return rows.map(toCard)
}

interface LessonRow {
  video_id: string
  position: number
  section_title: string | null
  title: string
  type: string
  duration_seconds: number | string | null
  thumbnail_path: string | null
  external_url: string | null
  is_public: boolean
}

async function readLessons(tx: Tx, courseId: string): Promise<CourseLesson[]> {
  const { rows } = await sql<LessonRow>`
    select l.video_id, l.position, l.section_title, v.title, v.type, v.duration_seconds, v.thumbnail_path,
           v.external_url, v.is_public
      from public.course_lessons l
      join public.videos v on v.id = l.video_id
     where l.course_id = ${courseId}::uuid
     order by l.position`.execute(tx)
  const supabaseUrl = browserSupabaseUrl()
  return rows.map((row) => ({
    videoId: row.video_id,
    position: row.position,
    sectionTitle: row.section_title,
    title: row.title,
    type: row.type as VideoType,
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    thumbnailUrl: mediaUrls({ id: row.video_id, thumbnail_path: row.thumbnail_path, external_url: row.external_url }, supabaseUrl)
      .posterUrl,
    isPublic: row.is_public,
  }))
}

async function readCourse(tx: Tx, claims: JwtClaims | null, id: string): Promise<CourseDetail | null> {
  const row = await tx
    .selectFrom('courses')
    .innerJoin('profiles', 'profiles.id', 'courses.creator_id')
    .select([
      'courses.id',
      'courses.title',
      'courses.description',
      'courses.category_id',
      'courses.cover_path',
      'courses.is_published',
      'courses.created_at',
      'courses.updated_at',
      'courses.creator_id',
      'profiles.username',
      'profiles.avatar_path',
    ])
    .where('courses.id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  const lessons = await readLessons(tx, id)
  const isAdmin = claims ? await allowed(tx, sql<boolean>`public.is_admin()`) : false
  const supabaseUrl = browserSupabaseUrl()
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: { id: row.category_id, name: categoryName(row.category_id) },
    coverUrl: thumbnailUrl(supabaseUrl, row.cover_path),
    coverPath: row.cover_path,
    isPublished: row.is_published,
    creator: { id: row.creator_id, username: row.username, avatarUrl: avatarUrl(supabaseUrl, row.avatar_path) },
    lessons,
    sections: groupSections(lessons),
    totalSeconds: Math.round(lessons.reduce((sum, lesson) => sum + (lesson.durationSeconds ?? 0), 0)),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    isOwner: claims?.sub === row.creator_id,
    isAdmin,
  }
}

/**
 * A course with its lessons in order (grouped by section), as the caller may see it:
 * a published one for anyone, a draft for its creator and admins. Throws not_found.
 */
export async function getCourse(claims: JwtClaims | null, id: string): Promise<CourseDetail> {
  if (!isUuid(id)) throw notFound()
  const course = await asCaller(claims, (tx) => readCourse(tx, claims, id))
  if (!course) throw notFound()
  return course
}

/** One of the creator's videos they may add as a lesson. */
export interface LessonChoice {
  videoId: string
  title: string
  type: VideoType
  durationSeconds: number | null
}

export interface CourseEditor {
  course: CourseDetail
  /** The creator's public videos and sparks not yet in the course, newest first. */
  choices: LessonChoice[]
  categories: CategoryOption[]
}

/** What the edit page shows, for the course's creator only (admins may only unpublish). */
export async function getCourseEditor(claims: JwtClaims, id: string): Promise<CourseEditor> {
  if (!isUuid(id)) throw notFound()
  const { course, choices } = await asCaller(claims, async (tx) => {
    const course = await readCourse(tx, claims, id)
    if (!course) throw notFound()
    if (!course.isOwner) throw notYours()
    return { course, choices: await lessonChoices(tx, claims.sub, id) }
  })
  return { course, choices, categories: await categoriesFor(claims, course.category.id) }
}

/** The categories the form offers: those the creator may use, and the course's own. */
export async function categoriesFor(claims: JwtClaims, current?: string): Promise<CategoryOption[]> {
  const categories = await uploadCategories(claims)
  if (current && !categories.some((option) => option.value === current)) {
    const own = CATEGORIES.find((category) => category.id === current)
    if (own) categories.unshift({ value: own.id, label: own.name })
  }
  return categories
}

async function lessonChoices(tx: Tx, creatorId: string, courseId: string | null): Promise<LessonChoice[]> {
  const rows = await tx
    .selectFrom('videos')
    .select(['id', 'title', 'type', 'duration_seconds'])
    .where('creator_id', '=', creatorId)
    .where('is_public', '=', true)
    .where('status', '!=', 'failed')
    .$if(courseId !== null, (query) =>
      query.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('course_lessons')
              .select('video_id')
              .whereRef('course_lessons.video_id', '=', 'videos.id')
              .where('course_lessons.course_id', '=', courseId!),
          ),
        ),
      ),
    )
    .orderBy('created_at', 'desc')
    .limit(500)
    .execute()
  return rows.map((row) => ({
    videoId: row.id,
    title: row.title,
    type: row.type as VideoType,
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
  }))
}

/** Whether the caller may make courses (the insert policy's own test). */
export async function canMakeCourses(claims: JwtClaims | null): Promise<boolean> {
  if (!claims) return false
  return asCaller(claims, (tx) => allowed(tx, sql<boolean>`public.is_verified_creator()`))
}

// Writing the course -------------------------------------------------------------------------

/** Who writes: their claims, and their Supabase client (the cover goes to Storage as them). */
export interface CourseAuthor {
  claims: JwtClaims | null
  supabase: Supabase
}

export interface CourseWrite {
  title?: unknown
  description?: unknown
  category?: unknown
  /** A new cover image (a temporary file), checked by its content. */
  cover?: UploadedFile | null
  /** Remove the cover (ignored when a new one comes). */
  removeCover?: boolean
  /** The whole lesson list, in order; undefined leaves the lessons as they are. */
  lessons?: unknown
  /** Publish (true) or unpublish (false); undefined leaves it. */
  published?: boolean
}

function invalid(errors: CourseErrors): DomainError {
  return new DomainError('invalid', Object.values(errors)[0] ?? COURSE_MESSAGES.titleRequired, errors)
}

function parseFields(write: CourseWrite, errors: CourseErrors) {
  const parsed = courseInputSchema.safeParse({ title: write.title, description: write.description, category: write.category })
  if (!parsed.success) Object.assign(errors, courseErrors(parsed.error))
  return parsed.success ? parsed.data : null
}

function parseLessons(value: unknown, errors: CourseErrors): LessonInput[] | undefined {
  if (value === undefined) return undefined
  const parsed = lessonListSchema.safeParse(value)
  if (parsed.success) return parsed.data
  errors.lessons = parsed.error.issues[0]?.message ?? COURSE_MESSAGES.lessonsInvalid
  return undefined
}

/** The cover checked by content and re-encoded (a JPEG without metadata), or a field error. */
async function checkCover(cover: UploadedFile, work: string, errors: CourseErrors): Promise<string | null> {
  if (cover.tooLarge || !cover.path || cover.size > LIMITS.thumbnailBytes) {
    errors.cover = 'Cover image is too large. Maximum size is 5MB'
    return null
  }
  const image = await validateImageFile(cover.path)
  if (!image.ok) {
    errors.cover = image.message.replace(/^Thumbnail/, 'Cover image')
    return null
  }
  const output = path.join(work, 'cover.jpg')
  await reencodeThumbnail(cover.path, output)
  return output
}

/** Postgres's refusals, in our words. */
function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  if (code === '42501') {
    const message = String((error as Error).message ?? '')
    if (message.includes('category')) return invalid({ category: COURSE_MESSAGES.categoryNotAllowed })
    if (message.includes('unpublish')) return new DomainError('forbidden', COURSE_MESSAGES.adminOnlyUnpublish)
    return notYours()
  }
  // The lesson trigger (another creator's or a private video) and an unknown video id.
  if (code === '23514' || code === '23503') return invalid({ lessons: COURSE_MESSAGES.lessonNotYours })
  if (code === '23505') {
    const constraint = (error as { constraint?: unknown }).constraint
    if (constraint === 'course_lessons_position_unique') return new DomainError('conflict', COURSE_MESSAGES.orderMismatch)
    return invalid({ lessons: COURSE_MESSAGES.lessonTwice })
  }
  return error
}

/**
 * Creates a course for the caller, a verified creator: its fields (the shared schema), an
 * optional cover and, from the API, an optional lesson list. Nothing is kept after a refusal.
 * Returns the new course's id.
 */
export async function createCourse(author: CourseAuthor, write: CourseWrite): Promise<string> {
  const { claims, supabase } = author
  if (!claims) throw signIn()
  if (!(await canMakeCourses(claims))) throw new DomainError('forbidden', COURSE_MESSAGES.notCreator)
  const errors: CourseErrors = {}
  const fields = parseFields(write, errors)
  const lessons = parseLessons(write.lessons, errors)
  const work = await mkdtemp(path.join(tmpdir(), 'lumen-course-'))
  const stored: { bucket: 'thumbnails'; name: string }[] = []
  try {
    const cover = write.cover && (write.cover.size > 0 || write.cover.tooLarge) ? await checkCover(write.cover, work, errors) : null
    if (!fields || Object.keys(errors).length) throw invalid(errors)
    if (!(await categoryAllowed(claims, fields.category))) throw invalid({ category: COURSE_MESSAGES.categoryNotAllowed })
    let coverPath: string | null = null
    if (cover) {
      coverPath = `${claims.sub}/courses/${randomUUID()}.jpg`
      stored.push({ bucket: 'thumbnails', name: coverPath })
      await storeFile(supabase, 'thumbnails', coverPath, cover, 'image/jpeg')
    }
    const id = await asCaller(claims, async (tx) => {
      const row = await tx
        .insertInto('courses')
        .values({ title: fields.title, description: fields.description, category_id: fields.category, cover_path: coverPath })
        .returning('id')
        .executeTakeFirstOrThrow()
      if (lessons?.length) await writeLessons(tx, row.id, lessons)
      if (write.published) await publish(tx, row.id, true)
      return row.id
    }).catch((error: unknown) => {
      throw translate(error)
    })
    stored.length = 0
    return id
  } finally {
    if (stored.length) await removeStored(supabase, stored)
    await rm(work, { recursive: true, force: true })
  }
}

async function categoryAllowed(claims: JwtClaims, category: string, current?: string): Promise<boolean> {
  if (category === current) return true
  return asCaller(claims, (tx) => allowed(tx, sql<boolean>`public.can_use_category(${category})`))
}

/** The course's owner and state, for the caller: 404 when they cannot see it, 403 when it is not theirs. */
async function requireOwnCourse(tx: Tx, claims: JwtClaims, id: string) {
  const row = await tx
    .selectFrom('courses')
    .select(['id', 'creator_id', 'is_published', 'category_id', 'cover_path'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound()
  if (row.creator_id !== claims.sub) throw notYours()
  // Lessons change one editor at a time: the next one waits here until this transaction ends.
  await tx.selectFrom('courses').select('id').where('id', '=', id).forUpdate().executeTakeFirst()
  return row
}

/**
 * Saves a course's fields (and, when given, a new cover, the cover's removal, the whole
 * lesson list, publishing): its creator only. All checked first; a refusal changes nothing.
 */
export async function updateCourse(author: CourseAuthor, id: string, write: CourseWrite): Promise<void> {
  const { claims, supabase } = author
  if (!claims) throw signIn()
  if (!isUuid(id)) throw notFound()
  const current = await asCaller(claims, async (tx) => {
    const row = await tx.selectFrom('courses').select(['creator_id', 'category_id', 'cover_path']).where('id', '=', id).executeTakeFirst()
    if (!row) throw notFound()
    if (row.creator_id !== claims.sub) throw notYours()
    return row
  })
  const errors: CourseErrors = {}
  const fields = parseFields(write, errors)
  const lessons = parseLessons(write.lessons, errors)
  const work = await mkdtemp(path.join(tmpdir(), 'lumen-course-'))
  const stored: { bucket: 'thumbnails'; name: string }[] = []
  try {
    const cover = write.cover && (write.cover.size > 0 || write.cover.tooLarge) ? await checkCover(write.cover, work, errors) : null
    if (!fields || Object.keys(errors).length) throw invalid(errors)
    if (!(await categoryAllowed(claims, fields.category, current.category_id))) {
      throw invalid({ category: COURSE_MESSAGES.categoryNotAllowed })
    }
    let coverPath = write.removeCover ? null : current.cover_path
    if (cover) {
      coverPath = `${claims.sub}/courses/${randomUUID()}.jpg`
      stored.push({ bucket: 'thumbnails', name: coverPath })
      await storeFile(supabase, 'thumbnails', coverPath, cover, 'image/jpeg')
    }
    const previous = await asCaller(claims, async (tx) => {
      const row = await requireOwnCourse(tx, claims, id)
      await tx
        .updateTable('courses')
        .set({ title: fields.title, description: fields.description, category_id: fields.category, cover_path: coverPath })
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      if (lessons) await writeLessons(tx, id, lessons)
      if (write.published !== undefined) await publish(tx, id, write.published)
      return row.cover_path
    }).catch((error: unknown) => {
      throw translate(error)
    })
    stored.length = 0
    if (previous && previous !== coverPath) {
      const { error } = await supabase.storage.from('thumbnails').remove([previous])
      if (error) console.warn(`[courses] could not remove the replaced cover: ${error.message}`)
    }
  } finally {
    if (stored.length) await removeStored(supabase, stored)
    await rm(work, { recursive: true, force: true })
  }
}

/** Deletes a course (its creator, or an admin) and its cover. */
export async function deleteCourse(claims: JwtClaims | null, id: string): Promise<string> {
  if (!claims) throw signIn()
  if (!isUuid(id)) throw notFound()
  const deleted = await asCaller(claims, async (tx) => {
    const row = await tx.deleteFrom('courses').where('id', '=', id).returning(['id', 'cover_path']).executeTakeFirst()
    if (row) return row
    const visible = await tx.selectFrom('courses').select('id').where('id', '=', id).executeTakeFirst()
    throw visible ? notYours() : notFound()
  })
  if (deleted.cover_path) {
    await removeFiles(`course ${id} was deleted by its creator or an admin: its cover goes with it`, {
      thumbnails: [deleted.cover_path],
    })
  }
  return COURSE_MESSAGES.deleted
}

// Publishing --------------------------------------------------------------------------------

async function publish(tx: Tx, id: string, published: boolean) {
  if (published) {
    const { count } = await tx
      .selectFrom('course_lessons')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('course_id', '=', id)
      .executeTakeFirstOrThrow()
    if (Number(count) === 0) throw invalid({ form: COURSE_MESSAGES.noLessons })
  }
  await tx.updateTable('courses').set({ is_published: published }).where('id', '=', id).executeTakeFirstOrThrow()
}

/**
 * Publishes or unpublishes a course. Its creator may do both (publishing needs a lesson);
 * an admin may only unpublish (Postgres allows nothing else). Returns the message to show.
 */
export async function setCoursePublished(claims: JwtClaims | null, id: string, published: boolean): Promise<string> {
  if (!claims) throw signIn()
  if (!isUuid(id)) throw notFound()
  await asCaller(claims, async (tx) => {
    const row = await tx.selectFrom('courses').select(['creator_id']).where('id', '=', id).executeTakeFirst()
    if (!row) throw notFound()
    if (row.creator_id !== claims.sub) {
      const admin = await allowed(tx, sql<boolean>`public.is_admin()`)
      if (!admin) throw notYours()
      if (published) throw new DomainError('forbidden', COURSE_MESSAGES.adminOnlyUnpublish)
    }
    await publish(tx, id, published)
  }).catch((error: unknown) => {
    throw translate(error)
  })
  return published ? COURSE_MESSAGES.published : COURSE_MESSAGES.unpublished
}

// Lessons -----------------------------------------------------------------------------------

/** Replaces the lessons with `lessons` at positions 0..n-1 (the course row is already locked). */
async function writeLessons(tx: Tx, courseId: string, lessons: LessonInput[]) {
  await tx.deleteFrom('course_lessons').where('course_id', '=', courseId).execute()
  if (!lessons.length) return
  await tx
    .insertInto('course_lessons')
    .values(
      lessons.map((lesson, position) => ({
        course_id: courseId,
        video_id: lesson.videoId,
        position,
        section_title: lesson.sectionTitle,
      })),
    )
    .execute()
}

/** Runs a lesson change as the course's creator, the course locked; Postgres's refusals in our words. */
async function changeLessons<T>(claims: JwtClaims | null, id: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (!claims) throw signIn()
  if (!isUuid(id)) throw notFound()
  return asCaller(claims, async (tx) => {
    await requireOwnCourse(tx, claims, id)
    return work(tx)
  }).catch((error: unknown) => {
    throw translate(error)
  })
}

/** Replaces the whole lesson list (in order, with section titles): the API's and the editor's save. */
export async function setLessons(claims: JwtClaims | null, id: string, lessons: unknown): Promise<void> {
  const errors: CourseErrors = {}
  const parsed = parseLessons(lessons ?? null, errors)
  if (!parsed) throw invalid(errors.lessons ? errors : { lessons: COURSE_MESSAGES.lessonsInvalid })
  await changeLessons(claims, id, (tx) => writeLessons(tx, id, parsed))
}

/** Adds one of the creator's public videos at the end, optionally starting a section. */
export async function addLesson(claims: JwtClaims | null, id: string, videoId: unknown, sectionTitle?: unknown): Promise<void> {
  const parsed = lessonInputSchema.safeParse({ videoId, sectionTitle })
  if (!parsed.success) throw invalid({ lessons: parsed.error.issues[0]?.message ?? COURSE_MESSAGES.lessonNotYours })
  await changeLessons(claims, id, async (tx) => {
    const { count, next } = await tx
      .selectFrom('course_lessons')
      .select((eb) => [eb.fn.countAll<string>().as('count'), sql<number>`coalesce(max(position) + 1, 0)`.as('next')])
      .where('course_id', '=', id)
      .executeTakeFirstOrThrow()
    if (Number(count) >= COURSE_LESSONS_MAX) throw invalid({ lessons: COURSE_MESSAGES.lessonsTooMany })
    await tx
      .insertInto('course_lessons')
      .values({ course_id: id, video_id: parsed.data.videoId, position: Number(next), section_title: parsed.data.sectionTitle })
      .execute()
  })
}

/** Removes a lesson; the ones after it move up, so positions stay 0..n-1. */
export async function removeLesson(claims: JwtClaims | null, id: string, videoId: unknown): Promise<void> {
  if (!isUuid(videoId)) throw invalid({ lessons: COURSE_MESSAGES.lessonMissing })
  await changeLessons(claims, id, async (tx) => {
    const removed = await tx
      .deleteFrom('course_lessons')
      .where('course_id', '=', id)
      .where('video_id', '=', videoId)
      .returning('position')
      .executeTakeFirst()
    if (!removed) throw invalid({ lessons: COURSE_MESSAGES.lessonMissing })
    await tx
      .updateTable('course_lessons')
      .set({ position: sql`position - 1` })
      .where('course_id', '=', id)
      .where('position', '>', removed.position)
      .execute()
  })
}

/** Moves a lesson one place up or down (swapping with its neighbour); at either end nothing changes. */
export async function moveLesson(claims: JwtClaims | null, id: string, videoId: unknown, direction: 'up' | 'down'): Promise<void> {
  if (!isUuid(videoId)) throw invalid({ lessons: COURSE_MESSAGES.lessonMissing })
  await changeLessons(claims, id, async (tx) => {
    const lesson = await tx
      .selectFrom('course_lessons')
      .select('position')
      .where('course_id', '=', id)
      .where('video_id', '=', videoId)
      .executeTakeFirst()
    if (!lesson) throw invalid({ lessons: COURSE_MESSAGES.lessonMissing })
    const target = lesson.position + (direction === 'up' ? -1 : 1)
    const neighbour = await tx
      .selectFrom('course_lessons')
      .select('video_id')
      .where('course_id', '=', id)
      .where('position', '=', target)
      .executeTakeFirst()
    if (!neighbour) return
    // One statement swaps both; the unique position is checked at commit (deferred).
    await tx
      .updateTable('course_lessons')
      .set({ position: sql`case when video_id = ${videoId}::uuid then ${target}::int else ${lesson.position}::int end` })
      .where('course_id', '=', id)
      .where('video_id', 'in', [videoId, neighbour.video_id])
      .execute()
  })
}

/**
 * Puts the lessons in the order of `videoIds`, which must name exactly the course's lessons
 * (else 409: the list changed meanwhile). Section titles stay with their lessons.
 */
export async function reorderLessons(claims: JwtClaims | null, id: string, videoIds: unknown): Promise<void> {
  if (!Array.isArray(videoIds) || !videoIds.every(isUuid) || new Set(videoIds).size !== videoIds.length) {
    throw invalid({ lessons: COURSE_MESSAGES.lessonsInvalid })
  }
  await changeLessons(claims, id, async (tx) => {
    const current = await tx.selectFrom('course_lessons').select('video_id').where('course_id', '=', id).execute()
    const have = new Set(current.map((row) => row.video_id))
    if (have.size !== videoIds.length || !videoIds.every((videoId) => have.has(videoId))) {
      throw new DomainError('conflict', COURSE_MESSAGES.orderMismatch)
    }
    await sql`
      update public.course_lessons l
         set position = o.ord - 1
        from unnest(${videoIds}::uuid[]) with ordinality as o(video_id, ord)
       where l.course_id = ${id}::uuid and l.video_id = o.video_id`.execute(tx)
  })
}

/** Sets (or, blank, clears) the section heading that starts at a lesson. */
export async function setSectionTitle(claims: JwtClaims | null, id: string, videoId: unknown, title: unknown): Promise<void> {
  if (!isUuid(videoId)) throw invalid({ lessons: COURSE_MESSAGES.lessonMissing })
  const parsed = sectionTitleSchema.safeParse(title)
  if (!parsed.success) throw invalid({ lessons: parsed.error.issues[0]?.message ?? COURSE_MESSAGES.sectionTooLong })
  await changeLessons(claims, id, async (tx) => {
    const changed = await tx
      .updateTable('course_lessons')
      .set({ section_title: parsed.data })
      .where('course_id', '=', id)
      .where('video_id', '=', videoId)
      .executeTakeFirst()
    if (!Number(changed.numUpdatedRows)) throw invalid({ lessons: COURSE_MESSAGES.lessonMissing })
  })
}

/** Sets the section headings of several lessons at once (the editor's "Save section headings"). */
export async function setSectionTitles(
  claims: JwtClaims | null,
  id: string,
  entries: { videoId: unknown; sectionTitle: unknown }[],
): Promise<void> {
  const parsed = entries.map((entry) => {
    if (!isUuid(entry.videoId)) throw invalid({ lessons: COURSE_MESSAGES.lessonMissing })
    const title = sectionTitleSchema.safeParse(entry.sectionTitle)
    if (!title.success) throw invalid({ lessons: title.error.issues[0]?.message ?? COURSE_MESSAGES.sectionTooLong })
    return { videoId: entry.videoId, sectionTitle: title.data }
  })
  await changeLessons(claims, id, async (tx) => {
    for (const entry of parsed) {
      await tx
        .updateTable('course_lessons')
        .set({ section_title: entry.sectionTitle })
        .where('course_id', '=', id)
        .where('video_id', '=', entry.videoId)
        .execute()
    }
  })
}
