import { Link } from '@remix-run/react'
import { resizedImage } from '~/lib/media-urls'
import { formatClock } from '~/lib/schemas/chapters'
import { SPARK_LESSON_MESSAGES, type LessonLink, type LessonSpark } from '~/lib/schemas/spark-lesson'

/**
 * Sparks lead to lessons (ADR 0050) on the video page: a spark's "Watch the full lesson"
 * (its lesson's page at the moment, `?t=`), or a lesson's "Sparks from this lesson" (each
 * opens the reel viewer at that clip). Plain links: they work without JavaScript. The
 * server sends a lesson only to those who can see it.
 */
export function SparkLessons({ lesson, sparks }: { lesson: LessonLink | null; sparks: readonly LessonSpark[] }) {
  if (lesson) return <WatchFullLesson lesson={lesson} />
  if (!sparks.length) return null
  return (
    <section aria-labelledby="lesson-sparks-heading" className="card mt-6 p-4 sm:p-5" data-lesson-sparks>
      <h2 id="lesson-sparks-heading" className="text-heading">
        {SPARK_LESSON_MESSAGES.listTitle}
      </h2>
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {sparks.map((spark) => (
          <li key={spark.id}>
            <Link
              to={spark.href}
              className="group flex flex-col gap-1.5 rounded-xl p-1 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
              data-lesson-spark={spark.id}
            >
              <span className="relative block aspect-[9/16] w-full overflow-hidden rounded-lg bg-ink-900">
                {spark.thumbnailUrl ? (
                  <img
                    src={resizedImage(spark.thumbnailUrl, 320)}
                    alt=""
                    loading="lazy"
                    decoding="async"
                    className="h-full w-full object-cover transition-transform group-hover:scale-105"
                  />
                ) : null}
                {spark.at !== null ? (
                  <span className="absolute bottom-1.5 left-1.5 rounded-full bg-black/70 px-2 py-0.5 font-mono text-xs font-semibold text-white">
                    <span className="sr-only">At </span>
                    {formatClock(spark.at)}
                  </span>
                ) : null}
              </span>
              <span className="line-clamp-2 text-sm font-semibold text-ink-900 group-hover:underline">{spark.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The link's name for a screen reader: what it says, and which lesson from when. */
function watchLabel(lesson: LessonLink): string {
  return `${SPARK_LESSON_MESSAGES.watch}: ${lesson.title}${lesson.at ? ` from ${formatClock(lesson.at)}` : ''}`
}

function WatchFullLesson({ lesson }: { lesson: LessonLink }) {
  return (
    <section
      aria-labelledby="spark-lesson-heading"
      className="card mt-6 flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:p-5"
    >
      <div className="min-w-0 flex-1">
        <h2 id="spark-lesson-heading" className="text-sm font-semibold uppercase tracking-wide text-brand-700">
          From a lesson
        </h2>
        <p className="mt-1 font-semibold text-ink-900 [overflow-wrap:anywhere]">{lesson.title}</p>
        {lesson.at ? <p className="text-caption">From {formatClock(lesson.at)}</p> : null}
      </div>
      <Link to={lesson.href} className="btn-primary shrink-0" aria-label={watchLabel(lesson)} data-watch-lesson>
        {SPARK_LESSON_MESSAGES.watch}
      </Link>
    </section>
  )
}

/** The reel viewer's "Watch the full lesson" on a clip: a chip over the clip, under its title. */
export function ReelLessonLink({ lesson }: { lesson?: LessonLink | null }) {
  if (!lesson) return null
  return (
    <Link
      to={lesson.href}
      aria-label={watchLabel(lesson)}
      className="pointer-events-auto mt-2 inline-flex min-h-11 max-w-full items-center gap-2 rounded-full bg-white px-4 text-sm font-semibold text-ink-950 shadow-lg hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      data-reel-lesson
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4 shrink-0">
        <path d="M6.3 2.84A1.5 1.5 0 0 0 4 4.11v11.78a1.5 1.5 0 0 0 2.3 1.27l9.34-5.89a1.5 1.5 0 0 0 0-2.54L6.3 2.84Z" />
      </svg>
      <span className="truncate">{SPARK_LESSON_MESSAGES.watch}</span>
      {lesson.at ? (
        <span className="shrink-0 font-mono text-xs text-ink-600" aria-hidden="true">
          {formatClock(lesson.at)}
        </span>
      ) : null}
    </Link>
  )
}
