import { Form, useFetcher, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState, type DragEvent } from 'react'
import { BoltIcon, LockIcon } from '~/components/icons'
import { useHydrated } from '~/components/use-hydrated'
import type { CourseLesson } from '~/lib/course-types'
import { formatDuration } from '~/lib/format'
import { SECTION_TITLE_MAX } from '~/lib/schemas/courses'

/**
 * The course editor's lesson list (ADR 0048). One plain form: each lesson has Move up,
 * Move down and Remove buttons (each a submit naming the lesson) and a field for the
 * section heading that starts at it, saved together by "Save section headings" — all of
 * it works without JavaScript. With JavaScript the rows can also be dragged into a new
 * order, which is saved at once (the whole order, which the server checks against the
 * course's lessons); the buttons stay for keyboards and screen readers, and the focus
 * follows a moved lesson.
 */
export function LessonEditor({ lessons }: { lessons: CourseLesson[] }) {
  const hydrated = useHydrated()
  const fetcher = useFetcher({ key: 'course-reorder' })
  const navigation = useNavigation()
  // A dragged order shown until the page's data catches up (then the data is the truth again).
  const [dragged, setDragged] = useState<{ base: string; order: string[] } | null>(null)
  const [dragging, setDragging] = useState<string | null>(null)
  const [status, setStatus] = useState('')
  const lastMove = useRef<string | null>(null)

  const byId = new Map(lessons.map((lesson) => [lesson.videoId, lesson]))
  const serverOrder = lessons.map((lesson) => lesson.videoId).join(',')
  const order = dragged && dragged.base === serverOrder ? dragged.order : lessons.map((lesson) => lesson.videoId)

  // A move by button: remember which, then give the focus back to that button where the lesson went.
  const sent = navigation.formData?.get('op')
  if (typeof sent === 'string' && (sent.startsWith('up:') || sent.startsWith('down:'))) lastMove.current = sent
  useEffect(() => {
    if (navigation.state !== 'idle' || !lastMove.current) return
    const wanted = lastMove.current
    lastMove.current = null
    const [direction, videoId] = wanted.split(':')
    const button =
      document.querySelector<HTMLButtonElement>(`[data-move="${wanted}"]:not([disabled])`) ??
      document.querySelector<HTMLButtonElement>(`[data-move="${direction === 'up' ? 'down' : 'up'}:${videoId}"]`)
    button?.focus()
  }, [navigation.state, serverOrder])

  const shown = order.map((id) => byId.get(id)).filter((lesson): lesson is CourseLesson => Boolean(lesson))

  const drop = (event: DragEvent, target: string) => {
    event.preventDefault()
    const moved = dragging
    setDragging(null)
    if (!moved || moved === target) return
    const next = order.filter((id) => id !== moved)
    next.splice(next.indexOf(target) + (order.indexOf(moved) < order.indexOf(target) ? 1 : 0), 0, moved)
    setDragged({ base: serverOrder, order: next })
    setStatus(`Moved “${byId.get(moved)?.title ?? ''}” to position ${next.indexOf(moved) + 1} of ${next.length}.`)
    const form = new FormData()
    form.set('intent', 'lessons')
    form.set('op', 'reorder')
    for (const id of next) form.append('order', id)
    fetcher.submit(form, { method: 'post' })
  }

  if (!shown.length) return null
  return (
    <Form method="post" className="flex flex-col gap-3" aria-label="Lessons in order">
      <input type="hidden" name="intent" value="lessons" />
      {/* Enter in a heading field saves the headings (the first submit button is the form's default). */}
      <button type="submit" name="op" value="sections" tabIndex={-1} aria-hidden="true" className="absolute h-0 w-0 overflow-hidden opacity-0" />
      <p className="sr-only" aria-live="polite">
        {status}
      </p>
      {hydrated ? <p className="text-caption">Drag a lesson by its handle, or use the arrows, to change the order.</p> : null}
      <ol className="flex flex-col gap-2" data-lesson-editor>
        {shown.map((lesson, index) => (
          <li
            key={lesson.videoId}
            data-lesson={lesson.videoId}
            onDragOver={hydrated ? (event) => event.preventDefault() : undefined}
            onDrop={hydrated ? (event) => drop(event, lesson.videoId) : undefined}
            className={`card flex flex-col gap-3 p-3 sm:p-4 ${dragging === lesson.videoId ? 'opacity-50' : ''}`}
          >
            <input type="hidden" name="order" value={lesson.videoId} />
            <div className="flex items-start gap-3">
              {hydrated ? (
                <span
                  draggable
                  onDragStart={(event) => {
                    event.dataTransfer.effectAllowed = 'move'
                    event.dataTransfer.setData('text/plain', lesson.videoId)
                    setDragging(lesson.videoId)
                  }}
                  onDragEnd={() => setDragging(null)}
                  className="mt-1 cursor-grab select-none rounded p-1 text-ink-400 hover:bg-ink-100 hover:text-ink-700"
                  title="Drag to reorder"
                  data-drag-handle
                  aria-hidden="true"
                >
                  <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
                    <circle cx="7" cy="5" r="1.5" />
                    <circle cx="13" cy="5" r="1.5" />
                    <circle cx="7" cy="10" r="1.5" />
                    <circle cx="13" cy="10" r="1.5" />
                    <circle cx="7" cy="15" r="1.5" />
                    <circle cx="13" cy="15" r="1.5" />
                  </svg>
                </span>
              ) : null}
              <span className="mt-1 w-6 shrink-0 text-center text-sm font-semibold tabular-nums text-ink-500">{index + 1}</span>
              <div className="min-w-0 flex-1">
                <p className="font-semibold leading-snug text-ink-900" data-lesson-title>
                  {lesson.title}
                </p>
                <p className="mt-0.5 flex flex-wrap items-center gap-2 text-sm text-ink-600">
                  {lesson.type === 'spark' ? (
                    <span className="inline-flex items-center gap-1">
                      <BoltIcon /> Spark
                    </span>
                  ) : (
                    <span>Video</span>
                  )}
                  {lesson.durationSeconds !== null ? <span className="tabular-nums">{formatDuration(lesson.durationSeconds)}</span> : null}
                  {lesson.isPublic ? null : (
                    <span className="inline-flex items-center gap-1 font-semibold text-ink-800">
                      <LockIcon /> Private now — learners do not see it
                    </span>
                  )}
                </p>
              </div>
              <div className="flex shrink-0 gap-1">
                <button
                  type="submit"
                  name="op"
                  value={`up:${lesson.videoId}`}
                  data-move={`up:${lesson.videoId}`}
                  disabled={index === 0}
                  aria-label={`Move “${lesson.title}” up`}
                  className="btn-ghost min-h-11 min-w-11 px-2 disabled:opacity-30"
                >
                  <Arrow up />
                </button>
                <button
                  type="submit"
                  name="op"
                  value={`down:${lesson.videoId}`}
                  data-move={`down:${lesson.videoId}`}
                  disabled={index === shown.length - 1}
                  aria-label={`Move “${lesson.title}” down`}
                  className="btn-ghost min-h-11 min-w-11 px-2 disabled:opacity-30"
                >
                  <Arrow />
                </button>
                <button
                  type="submit"
                  name="op"
                  value={`remove:${lesson.videoId}`}
                  aria-label={`Remove “${lesson.title}” from the course`}
                  className="btn-ghost min-h-11 px-3 text-sm text-red-700"
                >
                  Remove
                </button>
              </div>
            </div>
            <label className="flex flex-col gap-1 text-sm sm:flex-row sm:items-center sm:gap-3">
              <span className="shrink-0 font-medium text-ink-700">Section heading above it</span>
              <input
                name="section"
                defaultValue={lesson.sectionTitle ?? ''}
                maxLength={SECTION_TITLE_MAX}
                placeholder="None (continues the section above)"
                className="block w-full rounded-xl border-0 bg-white px-3 py-2 text-sm text-ink-900 shadow-sm ring-1 ring-inset ring-ink-300 placeholder:text-ink-400 focus:ring-2 focus:ring-inset focus:ring-brand-600"
              />
            </label>
          </li>
        ))}
      </ol>
      <div className="flex justify-end">
        <button type="submit" name="op" value="sections" className="btn-secondary">
          Save section headings
        </button>
      </div>
    </Form>
  )
}

function Arrow({ up = false }: { up?: boolean }) {
  return (
    <svg viewBox="0 0 20 20" className={`h-5 w-5 ${up ? '' : 'rotate-180'}`} fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" d="M10 16V4m0 0-5 5m5-5 5 5" />
    </svg>
  )
}
