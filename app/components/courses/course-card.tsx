import { Link } from '@remix-run/react'
import { LIMITS } from '~/lib/catalog'
import type { CourseCardItem } from '~/lib/course-types'
import { formatCount, formatDuration, truncate } from '~/lib/format'
import { responsiveImage } from '~/lib/media-urls'
import { UserAvatar } from '../user-avatar'

/**
 * A course in a list (explore, a creator's Courses tab, the feed's search, /courses): its
 * cover (or first lesson's thumbnail) with the lesson count and total length, title,
 * creator and category, the description cut to the card's length. Like the video card, the
 * title link is stretched over the card (one link per card), the creator link above it.
 * A draft (seen only by its creator) is badged.
 */
export function CourseCard({ course, headingLevel = 3 }: { course: CourseCardItem; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const image = course.imageUrl ? responsiveImage(course.imageUrl) : null
  const description = truncate(course.description, LIMITS.cardDescription)
  return (
    <article
      className="card group relative flex h-full flex-col overflow-hidden transition-shadow hover:shadow-lg [&:has(.card-link:focus-visible)]:ring-2 [&:has(.card-link:focus-visible)]:ring-brand-500 [&:has(.card-link:focus-visible)]:ring-offset-2"
      data-course-card={course.id}
    >
      <div className="relative aspect-video overflow-hidden bg-gradient-to-br from-brand-700 via-brand-900 to-ink-950">
        {image ? (
          <img
            src={image.src}
            srcSet={image.srcSet}
            sizes={image.srcSet ? '(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw' : undefined}
            alt=""
            loading="lazy"
            decoding="async"
            className="absolute inset-0 h-full w-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
          />
        ) : (
          <div className="absolute inset-0 flex items-center justify-center" aria-hidden="true">
            <CourseIcon className="h-10 w-10 text-white/70" />
          </div>
        )}
        <div className="pointer-events-none absolute inset-x-0 bottom-0 h-16 bg-gradient-to-t from-black/60 to-transparent" />
        <span className="absolute left-2 top-2 inline-flex items-center gap-1 rounded-full bg-white/95 px-2 py-0.5 text-xs font-bold text-brand-800">
          <CourseIcon className="h-3.5 w-3.5" /> Course
        </span>
        {course.isPublished ? null : (
          <span className="absolute right-2 top-2 rounded-full bg-ink-950/85 px-2 py-0.5 text-xs font-semibold text-white">
            Draft
          </span>
        )}
        <span className="absolute bottom-2 right-2 rounded-md bg-black/75 px-1.5 py-0.5 text-xs font-semibold tabular-nums text-white">
          {formatCount(course.lessonCount, 'lesson')}
          {course.totalSeconds > 0 ? <> · {formatDuration(course.totalSeconds)}</> : null}
        </span>
      </div>
      <div className="flex flex-1 gap-3 p-4">
        <div className="shrink-0">
          <UserAvatar user={{ username: course.creator.username, avatarUrl: course.creator.avatarUrl }} size="md" />
        </div>
        <div className="min-w-0 flex-1">
          <Heading className="line-clamp-2 text-base font-semibold leading-snug text-ink-900">
            <Link
              to={`/course/${course.id}`}
              prefetch="intent"
              className="card-link after:absolute after:inset-0 after:content-[''] focus-visible:outline-none"
            >
              {course.title}
            </Link>
          </Heading>
          <p className="mt-1 truncate text-sm text-ink-600">
            <Link to={`/creator/${course.creator.id}`} className="relative z-10 font-medium hover:text-brand-700 hover:underline">
              {course.creator.username}
            </Link>
            <span className="text-ink-500"> · {course.category.name}</span>
          </p>
          {description ? <p className="mt-1.5 text-sm text-ink-500">{description}</p> : null}
        </div>
      </div>
    </article>
  )
}

/** A grid of course cards (one layout everywhere they are listed). */
export function CourseGrid({ courses, headingLevel = 3 }: { courses: CourseCardItem[]; headingLevel?: 2 | 3 }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {courses.map((course) => (
        <li key={course.id} className="flex min-w-0">
          <div className="w-full min-w-0">
            <CourseCard course={course} headingLevel={headingLevel} />
          </div>
        </li>
      ))}
    </ul>
  )
}

/** A stack of lessons: the course mark. */
export function CourseIcon({ className = 'h-5 w-5' }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.9" className={className} aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" d="M4 6.5h11M4 11.5h11M4 16.5h7" />
      <path strokeLinejoin="round" d="m16 14 4.5 2.75L16 19.5v-5.5Z" fill="currentColor" />
    </svg>
  )
}
