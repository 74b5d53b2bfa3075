import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { CheckIcon } from '~/components/icons'
import { useHydrated } from '~/components/use-hydrated'
import {
  LESSON_STATE_LABELS,
  lessonHref,
  progressText,
  type CourseProgress,
  type LessonState,
} from '~/lib/course-learning'
import type { EnrollmentActionData } from '~/routes/_discover+/course.$id_.enrollment'

/**
 * The learner's place in a course, on the course page (ADR 0048, "Learning a course"):
 * a visitor is asked to sign in; a signed-in learner gets Start course (enrolling), then
 * "1 of 3 lessons finished" with a bar, Continue (the first unfinished lesson, where they
 * stopped), every lesson's state, and Leave course. The buttons are plain forms posting
 * to /course/:id/enrollment; with JavaScript a fetcher, and the panel shows the learner
 * enrolled at once (then the server's progress), moving focus to Continue.
 */
export function CourseLearning({
  courseId,
  isPublished,
  lessons,
  progress,
  signedIn,
}: {
  courseId: string
  isPublished: boolean
  lessons: { videoId: string; title: string }[]
  progress: CourseProgress | null
  signedIn: boolean
}) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<EnrollmentActionData>({ key: `enrollment-${courseId}` })
  const continueRef = useRef<HTMLAnchorElement>(null)
  const pending = fetcher.formData?.get('intent')
  const result = fetcher.state === 'idle' ? fetcher.data : undefined
  const error = result && !result.ok ? result.error : null
  // Optimistic: the intent being sent wins over the page's data until the page is revalidated.
  const enrolled = pending === 'enroll' ? true : pending === 'leave' ? false : Boolean(progress?.enrolled)
  const justEnrolled = result?.ok && result.intent === 'enroll'
  useEffect(() => {
    if (justEnrolled) continueRef.current?.focus()
  }, [justEnrolled])

  if (!signedIn) {
    return (
      <section aria-labelledby="course-progress-title" id="course-progress" className="card flex flex-col gap-3 p-4 sm:p-5">
        <h2 id="course-progress-title" className="text-heading">
          Take this course
        </h2>
        <p className="text-sm text-ink-600">Sign in to enroll, keep your place in every lesson and see how far you got.</p>
        <Link to={`/login?redirectTo=${encodeURIComponent(`/course/${courseId}`)}`} className="btn-primary w-fit">
          Sign in to start
        </Link>
      </section>
    )
  }
  if (!progress || !isPublished || lessons.length === 0) return null

  const titles = new Map(lessons.map((lesson) => [lesson.videoId, lesson.title]))
  const { finished, total, next } = progress
  const percent = total ? Math.round((finished / total) * 100) : 0
  const started = progress.lessons.some((lesson) => lesson.state !== 'not_started')
  const continueLabel = next ? `${started ? 'Continue' : 'Start'}: Lesson ${next.number}` : null

  return (
    <section aria-labelledby="course-progress-title" id="course-progress" className="card flex flex-col gap-4 p-4 sm:p-5" data-course-learning>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="course-progress-title" className="text-heading">
            {enrolled ? 'Your progress' : 'Take this course'}
          </h2>
          <p className="mt-0.5 text-sm text-ink-600" data-course-progress-text>
            {enrolled || started ? progressText(finished, total) : 'Enroll to find it in My learning and keep your place.'}
          </p>
        </div>
        {enrolled ? (
          <fetcher.Form method="post" action={`/course/${courseId}/enrollment`} preventScrollReset>
            <input type="hidden" name="intent" value="leave" />
            {hydrated ? <input type="hidden" name="js" value="1" /> : null}
            <button type="submit" className="text-sm font-semibold text-ink-600 underline-offset-2 hover:text-ink-900 hover:underline">
              Leave course
            </button>
          </fetcher.Form>
        ) : null}
      </div>

      {enrolled || started ? (
        <div
          role="progressbar"
          aria-label="Lessons finished"
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={finished}
          aria-valuetext={progressText(finished, total)}
          className="h-2 w-full overflow-hidden rounded-full bg-ink-100"
        >
          <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
        </div>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        {enrolled ? (
          next ? (
            <Link ref={continueRef} to={next.href} className="btn-primary" data-continue={next.videoId}>
              {continueLabel}
              <span className="sr-only"> — {next.title}</span>
            </Link>
          ) : (
            <p className="inline-flex items-center gap-2 font-semibold text-emerald-800">
              <CheckIcon className="h-5 w-5" /> You finished every lesson
            </p>
          )
        ) : (
          <fetcher.Form method="post" action={`/course/${courseId}/enrollment`} preventScrollReset>
            <input type="hidden" name="intent" value="enroll" />
            {hydrated ? <input type="hidden" name="js" value="1" /> : null}
            <button type="submit" className="btn-primary">
              Start course
            </button>
          </fetcher.Form>
        )}
        {next && enrolled ? <span className="text-sm text-ink-600">{next.title}</span> : null}
      </div>
      <p role="status" className="sr-only">
        {result?.ok ? result.message : ''}
      </p>
      {error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800 ring-1 ring-red-200">
          {error}
        </p>
      ) : null}

      {enrolled || started ? (
        <ol className="flex flex-col divide-y divide-ink-100" aria-label="Your lessons" data-lesson-states>
          {progress.lessons.map((lesson) => (
            <li key={lesson.videoId} className="flex items-center justify-between gap-3 py-2" data-lesson-state={lesson.state}>
              <Link
                to={lesson.state === 'in_progress' ? lessonHref(lesson.videoId, lesson.positionSeconds) : lessonHref(lesson.videoId)}
                className="min-w-0 truncate text-sm font-medium text-ink-900 hover:text-brand-700"
              >
                <span className="tabular-nums text-ink-500">{lesson.number}.</span> {titles.get(lesson.videoId) ?? `Lesson ${lesson.number}`}
              </Link>
              <LessonBadge state={lesson.state} needsAnswers={lesson.needsAnswers} />
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  )
}

const BADGE_STYLES: Record<LessonState, string> = {
  not_started: 'bg-ink-100 text-ink-700',
  in_progress: 'bg-amber-100 text-amber-900',
  finished: 'bg-emerald-100 text-emerald-900',
}

/** A lesson's state as a small pill ("Finished", "In progress", "Not started", "Answer the questions"). */
export function LessonBadge({ state, needsAnswers }: { state: LessonState; needsAnswers: boolean }) {
  return (
    <span className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE_STYLES[state]}`}>
      {state === 'finished' ? <CheckIcon className="h-3.5 w-3.5" /> : null}
      {needsAnswers ? 'Answer the questions' : LESSON_STATE_LABELS[state]}
    </span>
  )
}
