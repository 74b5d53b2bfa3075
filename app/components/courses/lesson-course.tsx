import { Link, useNavigate } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'
import { ArrowRightIcon } from '~/components/icons'
import type { LessonCourse } from '~/lib/course-learning'

/** How long the Next lesson card counts down before opening the next lesson. */
export const NEXT_LESSON_SECONDS = 5

/**
 * Under the player of a video that is a lesson of a course (ADR 0048, "Learning a
 * course"): the course's title (a link to it), "Lesson 3 of 10", and a plain Next lesson
 * link, always there, so it works without JavaScript. With JavaScript, when the video
 * ends, a Next lesson card counts down 5 seconds and opens the next lesson; Cancel (or
 * Escape, or playing on) stops it. The card takes focus when it appears, so keyboard and
 * screen-reader users hear what is about to happen and can cancel; cancelling gives
 * focus back to where it was (a player control), else to the card's Play now link.
 */
export function LessonCourseLine({
  course,
  videoRef,
}: {
  course: LessonCourse
  videoRef: RefObject<HTMLVideoElement | null>
}) {
  return (
    <>
      <nav
        aria-label="Course"
        className="mt-3 flex flex-col gap-2 rounded-card bg-white px-4 py-3 ring-1 ring-inset ring-ink-200 sm:flex-row sm:items-center sm:justify-between"
        data-lesson-course={course.courseId}
      >
        <p className="min-w-0 text-sm text-ink-700">
          <span className="font-semibold tabular-nums text-ink-900" data-lesson-number>
            Lesson {course.number} of {course.total}
          </span>{' '}
          in{' '}
          <Link to={`/course/${course.courseId}`} className="font-semibold text-brand-700 hover:underline">
            {course.title}
          </Link>
        </p>
        {course.next ? (
          <Link to={course.next.href} className="btn-secondary shrink-0" data-next-lesson-link>
            Next lesson
            <span className="sr-only">: {course.next.title}</span>
            <ArrowRightIcon />
          </Link>
        ) : (
          <Link to={`/course/${course.courseId}`} className="btn-secondary shrink-0">
            Back to the course
          </Link>
        )}
      </nav>
      {course.next ? <NextLessonCountdown next={course.next} videoRef={videoRef} /> : null}
    </>
  )
}

function NextLessonCountdown({
  next,
  videoRef,
}: {
  next: NonNullable<LessonCourse['next']>
  videoRef: RefObject<HTMLVideoElement | null>
}) {
  const navigate = useNavigate()
  // null: hidden; a number: counting down (seconds left); 'cancelled': shown without counting.
  const [state, setState] = useState<number | 'cancelled' | null>(null)
  const cardRef = useRef<HTMLElement>(null)
  const playNowRef = useRef<HTMLAnchorElement>(null)
  const returnFocus = useRef<HTMLElement | null>(null)

  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    const onEnded = () => setState(NEXT_LESSON_SECONDS)
    // Playing again (a replay, a seek back) puts the card away.
    const onPlay = () => setState(null)
    video.addEventListener('ended', onEnded)
    video.addEventListener('play', onPlay)
    return () => {
      video.removeEventListener('ended', onEnded)
      video.removeEventListener('play', onPlay)
    }
  }, [videoRef])

  // Focus goes back where it was before the card took it (a player control), else to Play now.
  const cancel = useCallback(() => {
    setState('cancelled')
    const back = returnFocus.current
    if (back && back.isConnected && back !== document.body) back.focus()
    else window.requestAnimationFrame(() => playNowRef.current?.focus())
  }, [])

  const counting = typeof state === 'number'
  useEffect(() => {
    if (!counting) return
    if (document.activeElement !== cardRef.current)
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
    cardRef.current?.focus()
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      cancel()
    }
    document.addEventListener('keydown', onKeyDown)
    const deadline = Date.now() + NEXT_LESSON_SECONDS * 1000
    const timer = window.setInterval(() => {
      const left = Math.ceil((deadline - Date.now()) / 1000)
      if (left <= 0) {
        window.clearInterval(timer)
        navigate(next.href)
      } else setState((current) => (typeof current === 'number' ? left : current))
    }, 250)
    return () => {
      window.clearInterval(timer)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [counting, cancel, navigate, next.href])

  if (state === null) return null
  return (
    <section
      ref={cardRef}
      tabIndex={-1}
      aria-labelledby="next-lesson-title"
      aria-describedby="next-lesson-when"
      className="mt-3 flex flex-col gap-3 rounded-card bg-ink-950 px-4 py-4 text-white shadow-card outline-none focus-visible:ring-2 focus-visible:ring-brand-400 sm:flex-row sm:items-center sm:justify-between"
      data-next-lesson-card
    >
      <div className="min-w-0">
        <h2 id="next-lesson-title" className="text-base font-bold">
          Next lesson: {next.title}
        </h2>
        <p id="next-lesson-when" className="text-sm text-ink-200">
          {counting ? (
            <>
              Starts in <span className="tabular-nums" data-countdown>{state}</span> {state === 1 ? 'second' : 'seconds'}. Press
              Escape or Cancel to stay.
            </>
          ) : (
            'Autoplay cancelled.'
          )}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Link ref={playNowRef} to={next.href} className="btn-primary">
          Play now
        </Link>
        {counting ? (
          <button type="button" className="btn bg-white/10 text-white ring-1 ring-inset ring-white/30 hover:bg-white/20" onClick={cancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </section>
  )
}
