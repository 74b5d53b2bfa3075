/**
 * Learning a course (ADR 0048, "Learning a course"): the shapes the course page, the
 * player, My learning and the dashboard share with app/server/course-progress.server.ts,
 * and the words they use. Safe for the browser.
 */
export const LEARNING_MESSAGES = {
  courseNotFound: 'Course not found',
  notPublished: 'This course is not published yet',
  enrolled: 'You are enrolled. Start with the first lesson.',
  left: 'You left the course',
  enrollFailed: 'Failed to enroll in the course',
  leaveFailed: 'Failed to leave the course',
  learningFailed: 'Failed to load your courses',
  ownLearningOnly: 'You can only see your own courses',
  unknownAction: 'Unknown action',
} as const

/** Where a learner stands in one lesson. */
export type LessonState = 'not_started' | 'in_progress' | 'finished'

export const LESSON_STATE_LABELS: Record<LessonState, string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  finished: 'Finished',
}

export interface LessonProgress {
  videoId: string
  /** 1-based, as shown ("Lesson 2"). */
  number: number
  state: LessonState
  /** Watched to the end, but a required checkpoint is not answered right yet. */
  needsAnswers: boolean
  positionSeconds: number | null
}

/** The lesson to go on with and the link that opens it where the learner stopped. */
export interface ContinueLesson {
  videoId: string
  number: number
  title: string
  href: string
}

export interface CourseProgress {
  courseId: string
  enrolled: boolean
  lessons: LessonProgress[]
  finished: number
  total: number
  /** The first lesson not finished (null when every lesson is). */
  next: ContinueLesson | null
}

/** One course of My learning (profile tab, GET /api/users/{id}/learning). */
export interface LearningCourse {
  courseId: string
  title: string
  creator: string
  enrolledAt: string
  lastActivityAt: string
  finished: number
  total: number
  next: ContinueLesson | null
}

/** The player's course line: "Course title · Lesson 3 of 10", and the lesson after this one. */
export interface LessonCourse {
  courseId: string
  title: string
  number: number
  total: number
  enrolled: boolean
  next: { videoId: string; title: string; href: string } | null
}

/** The creator's funnel of one course (dashboard): counts only. */
export interface CourseFunnel {
  courseId: string
  title: string
  isPublished: boolean
  enrolled: number
  lessons: { number: number; videoId: string; title: string; reached: number; finished: number }[]
}

/** "1 of 3 lessons finished". */
export function progressText(finished: number, total: number): string {
  return `${finished} of ${total} ${total === 1 ? 'lesson' : 'lessons'} finished`
}

/** The video page of a lesson, at `seconds` when the learner stopped part-way. */
export function lessonHref(videoId: string, seconds?: number | null): string {
  const base = `/video/${videoId}`
  return seconds && seconds >= 1 ? `${base}?t=${Math.floor(seconds)}` : base
}
