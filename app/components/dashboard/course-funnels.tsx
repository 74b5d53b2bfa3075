import { Link } from '@remix-run/react'
import type { CourseFunnel } from '~/lib/course-learning'
import { formatCount, formatNumber } from '~/lib/format'

/**
 * Dashboard → Your courses (ADR 0048, "Learning a course"): per course of the creator,
 * how many learners are enrolled and, per lesson, how many of them reached it (started
 * watching) and finished it — the completion funnel. Counts only (course_funnel()); no
 * learner is ever named. A table, so it reads the same without JavaScript and to a
 * screen reader; the bars are drawn behind the numbers.
 */
export function CourseFunnels({ courses }: { courses: CourseFunnel[] }) {
  if (courses.length === 0) return null
  return (
    <section aria-labelledby="course-funnels-title" className="mt-8" data-course-funnels>
      <h2 id="course-funnels-title" className="text-heading">
        Your courses
      </h2>
      <p className="text-caption mt-0.5">
        Learners enrolled in each course, and how many of them reached and finished each lesson. Your own watching is not
        counted.
      </p>
      <div className="mt-4 flex flex-col gap-4">
        {courses.map((course) => (
          <article key={course.courseId} className="card overflow-hidden" data-course-funnel={course.courseId}>
            <header className="flex flex-wrap items-baseline justify-between gap-2 px-4 pt-4">
              <h3 className="font-semibold text-ink-900">
                <Link to={`/course/${course.courseId}`} className="hover:text-brand-700">
                  {course.title}
                </Link>
                {course.isPublished ? null : <span className="ml-2 text-xs font-semibold text-ink-500">Draft</span>}
              </h3>
              <p className="text-sm font-semibold tabular-nums text-ink-900" data-enrolled={course.enrolled}>
                {formatCount(course.enrolled, 'learner')} enrolled
              </p>
            </header>
            {course.lessons.length === 0 ? (
              <p className="px-4 pb-4 pt-2 text-sm text-ink-600">No lessons yet.</p>
            ) : (
              <div className="overflow-x-auto p-4 pt-2">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Completion by lesson of {course.title}</caption>
                  <thead>
                    <tr className="text-ink-600">
                      <th scope="col" className="py-2 pr-3 font-semibold">
                        Lesson
                      </th>
                      <th scope="col" className="w-28 py-2 pr-3 text-right font-semibold">
                        Reached
                      </th>
                      <th scope="col" className="w-28 py-2 text-right font-semibold">
                        Finished
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-ink-100">
                    {course.lessons.map((lesson) => (
                      <tr key={lesson.videoId} data-funnel-lesson={lesson.number}>
                        <th scope="row" className="max-w-0 truncate py-2 pr-3 font-medium text-ink-900">
                          <span className="tabular-nums text-ink-500">{lesson.number}.</span> {lesson.title}
                        </th>
                        <FunnelCell value={lesson.reached} of={course.enrolled} tone="bg-brand-100" />
                        <FunnelCell value={lesson.finished} of={course.enrolled} tone="bg-emerald-100" />
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </article>
        ))}
      </div>
    </section>
  )
}

function FunnelCell({ value, of, tone }: { value: number; of: number; tone: string }) {
  const percent = of ? Math.min(100, Math.round((value / of) * 100)) : 0
  return (
    <td className="relative py-2 pl-2 text-right tabular-nums text-ink-900">
      <span aria-hidden="true" className={`absolute inset-y-1 right-0 rounded ${tone}`} style={{ width: `${percent}%` }} />
      <span className="relative">{formatNumber(value)}</span>
    </td>
  )
}
