import { sql, type RawBuilder } from 'kysely'
import {
  LEARNING_MESSAGES,
  lessonHref,
  type ContinueLesson,
  type CourseFunnel,
  type CourseProgress,
  type LearningCourse,
  type LessonCourse,
  type LessonProgress,
  type LessonState,
} from '~/lib/course-learning'
import { isUuid } from '~/lib/ids'
import { RESUME_MIN_SECONDS } from '~/lib/schemas/progress'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError, isPermissionError } from './errors.server'

/**
 * Learning a course (ADR 0048, "Learning a course"): enrolling and leaving, where the
 * learner stands in each lesson, "k of n", the lesson to continue with, My learning,
 * the player's course line and the creator's funnel. No HTTP here: the course page's
 * enrolment route, the profile, the video page, the dashboard and their /api twins call
 * these, as the caller; Postgres decides who may (row-level security on
 * course_enrollments, watch_progress and checkpoint_attempts, all private to the
 * learner, and course_funnel() for the creator's counts).
 *
 * The rule (the same SQL as course_funnel() in
 * supabase/migrations/20261214002000_course_learning.sql):
 * - finished: the learner watched the lesson to the end at least once
 *   (`watch_progress.first_finished_at`, past 95 %) AND answered every required
 *   checkpoint of it right at least once; optional checkpoints never hold it back;
 * - in progress: anything saved short of that (a position, or watched to the end with
 *   a required checkpoint still unanswered: `needsAnswers`);
 * - not started: nothing saved (or the learner removed it from their History).
 * Continue is the first lesson in course order that is not finished, opened where the
 * learner stopped (`?t=`, from 5 s on as the resume offer), or at its "Check yourself"
 * questions when only answers are missing.
 */

const courseNotFound = () => new DomainError('not_found', LEARNING_MESSAGES.courseNotFound)

interface LessonRow {
  video_id: string
  position: number
  title: string
  position_seconds: string | null
  watched: boolean | null
  answered: boolean
}

/** Per lesson of a course, in order, the caller's progress (rows of other learners are invisible to them). */
async function lessonRows(tx: Tx, courseId: string): Promise<LessonRow[]> {
  const { rows } = await sql<LessonRow>`
    select l.video_id, l.position, v.title, w.position_seconds,
           w.first_finished_at is not null as watched,
           not exists (
             select 1 from public.checkpoints q
              where q.video_id = l.video_id and q.required
                and not exists (
                  select 1 from public.checkpoint_attempts a
                   where a.checkpoint_id = q.id and a.user_id = (select auth.uid()) and a.correct)
           ) as answered
      from public.course_lessons l
      join public.videos v on v.id = l.video_id
      left join public.watch_progress w on w.video_id = l.video_id and w.user_id = (select auth.uid())
     where l.course_id = ${courseId}::uuid
     order by l.position
  `.execute(tx)
  return rows
}

function stateOf(row: LessonRow): { state: LessonState; needsAnswers: boolean } {
  if (row.watched && row.answered) return { state: 'finished', needsAnswers: false }
  if (row.watched) return { state: 'in_progress', needsAnswers: true }
  if (row.position_seconds !== null && Number(row.position_seconds) > 0) return { state: 'in_progress', needsAnswers: false }
  return { state: 'not_started', needsAnswers: false }
}

/** Lessons' states, k of n and Continue from the rows of lessonRows(). */
export function summarise(rows: LessonRow[]): Pick<CourseProgress, 'lessons' | 'finished' | 'total' | 'next'> {
  const lessons: LessonProgress[] = rows.map((row, index) => ({
    videoId: row.video_id,
    number: index + 1,
    ...stateOf(row),
    positionSeconds: row.position_seconds === null ? null : Number(row.position_seconds),
  }))
  const index = lessons.findIndex((lesson) => lesson.state !== 'finished')
  const lesson = index >= 0 ? lessons[index]! : null
  const next: ContinueLesson | null = lesson
    ? {
        videoId: lesson.videoId,
        number: lesson.number,
        title: rows[index]!.title,
        href: lesson.needsAnswers
          ? `/video/${lesson.videoId}#check-yourself`
          : lessonHref(
              lesson.videoId,
              lesson.positionSeconds !== null && lesson.positionSeconds >= RESUME_MIN_SECONDS ? lesson.positionSeconds : null,
            ),
      }
    : null
  return {
    lessons,
    finished: lessons.filter((item) => item.state === 'finished').length,
    total: lessons.length,
    next,
  }
}

/** The course if the caller can see it (published, or their own, or any for an admin). */
async function visibleCourse(tx: Tx, courseId: string) {
  const { rows } = await sql<{ id: string; is_published: boolean }>`
    select id, is_published from public.courses where id = ${courseId}::uuid
  `.execute(tx)
  return rows[0] ?? null
}

async function isEnrolled(tx: Tx, courseId: string): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`
    select 1 as one from public.course_enrollments
     where course_id = ${courseId}::uuid and user_id = (select auth.uid())
  `.execute(tx)
  return rows.length > 0
}

/**
 * The caller's progress in a course they can see: every lesson's state, k of n and
 * Continue, and whether they are enrolled (progress counts whether or not: lessons are
 * public videos, watched anywhere). Null for a visitor. Throws not_found.
 */
export async function getCourseProgress(claims: JwtClaims | null, courseId: string): Promise<CourseProgress | null> {
  if (!isUuid(courseId)) throw courseNotFound()
  if (!claims) return null
  return asCaller(claims, async (tx) => {
    if (!(await visibleCourse(tx, courseId))) throw courseNotFound()
    const [enrolled, rows] = await Promise.all([isEnrolled(tx, courseId), lessonRows(tx, courseId)])
    return { courseId, enrolled, ...summarise(rows) }
  })
}

/**
 * Enrolls the caller in a published course; enrolling again changes nothing. Returns
 * their progress. Throws not_found (unknown, or unpublished and not theirs to see) and
 * invalid (their own or, for an admin, any unpublished course).
 */
export async function enroll(claims: JwtClaims, courseId: string): Promise<CourseProgress> {
  if (!isUuid(courseId)) throw courseNotFound()
  try {
    return await asCaller(claims, async (tx) => {
      const course = await visibleCourse(tx, courseId)
      if (!course) throw courseNotFound()
      if (!course.is_published) throw new DomainError('invalid', LEARNING_MESSAGES.notPublished)
      await sql`
        insert into public.course_enrollments (course_id) values (${courseId}::uuid)
        on conflict do nothing
      `.execute(tx)
      return { courseId, enrolled: true, ...summarise(await lessonRows(tx, courseId)) }
    })
  } catch (error) {
    // Unpublished between the read and the insert: the policy refuses it.
    if (isPermissionError(error)) throw new DomainError('invalid', LEARNING_MESSAGES.notPublished)
    throw error
  }
}

/**
 * Takes the caller out of a course; leaving one they are not in changes nothing. Their
 * watch progress stays (it belongs to the videos, and History). Throws not_found for a
 * malformed id only: a course since deleted or unpublished can still be left.
 */
export async function leave(claims: JwtClaims, courseId: string): Promise<{ courseId: string; enrolled: false }> {
  if (!isUuid(courseId)) throw courseNotFound()
  await asCaller(claims, (tx) =>
    sql`delete from public.course_enrollments where course_id = ${courseId}::uuid and user_id = (select auth.uid())`.execute(tx),
  )
  return { courseId, enrolled: false }
}

interface LearningRow {
  course_id: string
  title: string
  creator: string
  enrolled_at: string | Date
  last_activity_at: string | Date
}

const iso = (value: string | Date) => (value instanceof Date ? value : new Date(value)).toISOString()

/**
 * My learning: the courses the caller is enrolled in that they can still see, with k of
 * n and Continue, the newest activity first (the later of enrolling and their last
 * saved position in one of its lessons).
 */
export async function listMyLearning(claims: JwtClaims): Promise<LearningCourse[]> {
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<LearningRow>`
      select c.id as course_id, c.title, p.username as creator, e.created_at as enrolled_at,
             greatest(e.created_at, (
               select max(w.updated_at) from public.course_lessons l
                 join public.watch_progress w on w.video_id = l.video_id and w.user_id = e.user_id
                where l.course_id = c.id
             )) as last_activity_at
        from public.course_enrollments e
        join public.courses c on c.id = e.course_id
        join public.profiles p on p.id = c.creator_id
       where e.user_id = (select auth.uid())
       order by last_activity_at desc, c.id
       limit 100
    `.execute(tx)
    const lessons = await Promise.all(rows.map((row) => lessonRows(tx, row.course_id)))
    return rows.map((row, index) => {
      const summary = summarise(lessons[index]!)
      return {
        courseId: row.course_id,
        title: row.title,
        creator: row.creator,
        enrolledAt: iso(row.enrolled_at),
        lastActivityAt: iso(row.last_activity_at),
        finished: summary.finished,
        total: summary.total,
        next: summary.next,
      }
    })
  })
}

/**
 * The player's course line for a video that is a lesson: of the courses the caller can
 * see that hold it, the one they are enrolled in (the most recent enrolment), else the
 * first published one (oldest); "Lesson n of m" and the lesson after it. Null when the
 * video is in no such course. For the video page's loader (one call, one query).
 */
export async function getLessonCourse(claims: JwtClaims | null, videoId: string): Promise<LessonCourse | null> {
  if (!claims || !isUuid(videoId)) return null
  return asCaller(claims, async (tx) => {
    const { rows } = await lessonCourseQuery(sql`${videoId}::uuid`).execute(tx)
    return toLessonCourse(rows[0] ?? null)
  })
}

/** A row of `lessonCourseQuery`. */
export interface LessonCourseRow {
  course_id: string
  title: string
  enrolled: boolean
  number: number
  total: number
  next_id: string | null
  next_title: string | null
}

/**
 * `getLessonCourse`'s query for the video `video` (an SQL uuid expression), as the caller: at
 * most one row. The video page runs it as one part of its statement (video-page.server.ts).
 */
export function lessonCourseQuery(video: RawBuilder<unknown>): RawBuilder<LessonCourseRow> {
  return sql<LessonCourseRow>`
      with chosen as (
        select c.id, c.title, l.position, e.created_at is not null as enrolled
          from public.course_lessons l
          join public.courses c on c.id = l.course_id
          left join public.course_enrollments e on e.course_id = c.id and e.user_id = (select auth.uid())
         where l.video_id = ${video} and (c.is_published or e.created_at is not null)
         order by (e.created_at is not null) desc, e.created_at desc nulls last, c.created_at, c.id
         limit 1
      )
      select ch.id as course_id, ch.title, ch.enrolled,
             (select count(*)::int from public.course_lessons l join public.videos v on v.id = l.video_id
               where l.course_id = ch.id and l.position <= ch.position) as number,
             (select count(*)::int from public.course_lessons l join public.videos v on v.id = l.video_id
               where l.course_id = ch.id) as total,
             n.video_id as next_id, n.title as next_title
        from chosen ch
        left join lateral (
          select l.video_id, v.title from public.course_lessons l
            join public.videos v on v.id = l.video_id
           where l.course_id = ch.id and l.position > ch.position
           order by l.position limit 1
        ) n on true
    `
}

export function toLessonCourse(row: LessonCourseRow | null): LessonCourse | null {
  if (!row) return null
  return {
    courseId: row.course_id,
    title: row.title,
    number: row.number,
    total: row.total,
    enrolled: row.enrolled,
    next: row.next_id ? { videoId: row.next_id, title: row.next_title ?? '', href: lessonHref(row.next_id) } : null,
  }
}

interface FunnelRow {
  course_id: string
  course_title: string
  is_published: boolean
  enrolled: number
  lesson_position: number | null
  video_id: string | null
  title: string | null
  reached: number
  finished: number
}

/**
 * The dashboard: the caller's own courses (newest first, at most 20) each with its
 * enrolled learners and, per lesson, how many reached and finished it, from
 * course_funnel() (counts only; it refuses anyone but the creator or an admin).
 */
export async function listCourseFunnels(claims: JwtClaims): Promise<CourseFunnel[]> {
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<FunnelRow>`
      select c.id as course_id, c.title as course_title, c.is_published, f.*
        from (select * from public.courses where creator_id = (select auth.uid()) order by created_at desc, id limit 20) c
        cross join lateral public.course_funnel(c.id) f
       order by c.created_at desc, c.id, f.lesson_position
    `.execute(tx)
    return groupFunnels(rows)
  })
}

/** One course's funnel (its creator or an admin): throws not_found for a course the caller cannot see, forbidden otherwise. */
export async function getCourseFunnel(claims: JwtClaims, courseId: string): Promise<CourseFunnel> {
  if (!isUuid(courseId)) throw courseNotFound()
  try {
    return await asCaller(claims, async (tx) => {
      const { rows: courses } = await sql<{ title: string; is_published: boolean }>`
        select title, is_published from public.courses where id = ${courseId}::uuid
      `.execute(tx)
      if (!courses[0]) throw courseNotFound()
      const { rows } = await sql<Omit<FunnelRow, 'course_id' | 'course_title' | 'is_published'>>`
        select * from public.course_funnel(${courseId}::uuid)
      `.execute(tx)
      return groupFunnels(
        rows.map((row) => ({ ...row, course_id: courseId, course_title: courses[0]!.title, is_published: courses[0]!.is_published })),
      )[0]!
    })
  } catch (error) {
    if (isPermissionError(error)) throw new DomainError('forbidden', 'Only the course’s creator or an admin sees its learners')
    throw error
  }
}

function groupFunnels(rows: FunnelRow[]): CourseFunnel[] {
  const byCourse = new Map<string, CourseFunnel>()
  for (const row of rows) {
    let funnel = byCourse.get(row.course_id)
    if (!funnel) {
      funnel = { courseId: row.course_id, title: row.course_title, isPublished: row.is_published, enrolled: row.enrolled, lessons: [] }
      byCourse.set(row.course_id, funnel)
    }
    if (row.video_id !== null) {
      funnel.lessons.push({
        number: funnel.lessons.length + 1,
        videoId: row.video_id,
        title: row.title ?? '',
        reached: row.reached,
        finished: row.finished,
      })
    }
  }
  return [...byCourse.values()]
}
