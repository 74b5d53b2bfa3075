import { Link } from '@remix-run/react'
import { BoltIcon, LockIcon } from '~/components/icons'
import { lessonHref, type CourseSection } from '~/lib/course-types'
import { formatDuration } from '~/lib/format'

/**
 * A course's lessons in order under their section headings: number, thumbnail, title (a
 * link to the lesson), type and length. Numbering runs across sections (Lesson 1 … n).
 */
export function CourseLessonList({ courseId, sections }: { courseId: string; sections: CourseSection[] }) {
  let number = 0
  return (
    <div className="flex flex-col gap-6">
      {sections.map((section, index) => {
        const start = number + 1
        number += section.lessons.length
        const headingId = `course-section-${index}`
        return (
          <section key={`${index}-${section.title ?? ''}`} aria-labelledby={section.title ? headingId : undefined}>
            {section.title ? (
              <h3 id={headingId} className="mb-2 text-sm font-bold uppercase tracking-wide text-ink-600">
                {section.title}
              </h3>
            ) : null}
            <ol start={start} className="card divide-y divide-ink-100 overflow-hidden" data-course-lessons>
              {section.lessons.map((lesson, offset) => (
                <li key={lesson.videoId} className="relative flex items-center gap-3 p-3 hover:bg-ink-50 sm:gap-4 sm:p-4" data-lesson={lesson.videoId}>
                  <span className="w-6 shrink-0 text-center text-sm font-semibold tabular-nums text-ink-500" aria-hidden="true">
                    {start + offset}
                  </span>
                  <div className="relative aspect-video w-24 shrink-0 overflow-hidden rounded-lg bg-gradient-to-br from-brand-700 to-ink-950 sm:w-32">
                    {lesson.thumbnailUrl ? (
                      <img src={lesson.thumbnailUrl} alt="" loading="lazy" decoding="async" className="h-full w-full object-cover" />
                    ) : null}
                  </div>
                  <div className="min-w-0 flex-1">
                    <Link
                      to={lessonHref(courseId, lesson.videoId)}
                      className="line-clamp-2 font-semibold leading-snug text-ink-900 after:absolute after:inset-0 after:content-[''] hover:text-brand-700"
                    >
                      <span className="sr-only">Lesson {start + offset}: </span>
                      {lesson.title}
                    </Link>
                    <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-ink-600">
                      {lesson.type === 'spark' ? (
                        <span className="inline-flex items-center gap-1 rounded-full bg-spark-300 px-2 py-0.5 text-xs font-bold text-ink-900">
                          <BoltIcon /> Spark
                        </span>
                      ) : (
                        <span>Video</span>
                      )}
                      {lesson.durationSeconds !== null ? (
                        <span className="tabular-nums">
                          <span className="sr-only">Duration </span>
                          {formatDuration(lesson.durationSeconds)}
                        </span>
                      ) : null}
                      {lesson.isPublic ? null : (
                        <span className="inline-flex items-center gap-1 text-xs font-semibold text-ink-700">
                          <LockIcon /> Private — hidden from learners
                        </span>
                      )}
                    </p>
                  </div>
                </li>
              ))}
            </ol>
          </section>
        )
      })}
    </div>
  )
}
