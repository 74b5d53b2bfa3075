import { Link } from '@remix-run/react'
import { CheckIcon } from '~/components/icons'
import { EmptyState } from '~/components/video-grid'
import { progressText, type LearningCourse } from '~/lib/course-learning'
import { formatDate } from '~/lib/format'

/**
 * Profile → My learning (ADR 0048, "Learning a course"): the courses the learner is
 * enrolled in, newest activity first, each with "k of n lessons finished", a bar and
 * Continue (the first unfinished lesson, where they stopped). Only the learner sees it.
 */
export function LearningPanel({ courses }: { courses: LearningCourse[] }) {
  if (courses.length === 0) {
    return (
      <EmptyState
        title="No courses yet"
        message="Start a course and it is kept here, with how far you got and the lesson to continue with. Only you can see it."
        action={{ href: '/courses', label: 'Browse courses' }}
      />
    )
  }
  return (
    <section aria-labelledby="learning-title" id="learning">
      <h2 id="learning-title" className="text-heading">
        My learning
      </h2>
      <p className="text-caption mt-0.5">The courses you are taking. Only you can see them.</p>
      <ul className="mt-4 flex flex-col gap-3" data-testid="learning-list">
        {courses.map((course) => {
          const percent = course.total ? Math.round((course.finished / course.total) * 100) : 0
          return (
            <li key={course.courseId} className="card flex flex-col gap-3 p-4" data-learning-course={course.courseId}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <Link to={`/course/${course.courseId}`} className="font-semibold text-ink-900 hover:text-brand-700">
                    {course.title}
                  </Link>
                  <p className="text-caption">
                    by {course.creator} · last active {formatDate(course.lastActivityAt)}
                  </p>
                </div>
                <p className="text-sm font-semibold tabular-nums text-ink-900" data-learning-progress>
                  {progressText(course.finished, course.total)}
                </p>
              </div>
              <div
                role="progressbar"
                aria-label={`${course.title}: lessons finished`}
                aria-valuemin={0}
                aria-valuemax={course.total}
                aria-valuenow={course.finished}
                aria-valuetext={progressText(course.finished, course.total)}
                className="h-2 w-full overflow-hidden rounded-full bg-ink-100"
              >
                <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
              </div>
              {course.next ? (
                <Link to={course.next.href} className="btn-primary w-fit" data-continue={course.next.videoId}>
                  Continue: Lesson {course.next.number}
                  <span className="sr-only">
                    {' '}
                    of {course.title} — {course.next.title}
                  </span>
                </Link>
              ) : course.total > 0 ? (
                <p className="inline-flex items-center gap-2 text-sm font-semibold text-emerald-800">
                  <CheckIcon className="h-5 w-5" /> Course finished
                </p>
              ) : null}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
