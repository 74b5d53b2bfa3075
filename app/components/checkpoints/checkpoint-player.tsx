import { useFetcher } from '@remix-run/react'
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react'
import type { PlayerMark } from '~/components/video/player-marks'
import { formatMoment, type CheckpointAnswer, type CheckpointQuestion, type CheckpointResult } from '~/lib/schemas/checkpoints'
import { CheckpointOptions } from './checkpoint-options'

/**
 * The player's checkpoints (ADR 0047), with JavaScript: it watches the `<video>`
 * (timeupdate, seeking, play) and pauses at each checkpoint not yet done, shows the
 * question in a panel under the player (focus moves to it, and back to the player
 * after), posts the answer to /video/:id/check (scored on the server: the page never
 * has the key) and shows right or wrong with the explanation. A required checkpoint
 * holds the video until it is answered right — seeking past it stops at it; an
 * optional one can be skipped. Checkpoints answered right before do not stop it again.
 */
export interface CheckpointPlayerProps {
  videoId: string
  videoRef: RefObject<HTMLVideoElement | null>
  questions: CheckpointQuestion[]
  results: Record<string, CheckpointResult>
}

/** How far past a checkpoint the player may be when it is noticed (timeupdate fires about every 250 ms). */
const SLACK = 0.05

export function CheckpointPlayer({ videoId, videoRef, questions, results }: CheckpointPlayerProps) {
  // Done: answered right (now or before), or an optional one answered or skipped now.
  const [done, setDone] = useState<Set<string>>(
    () => new Set(questions.filter((question) => results[question.id]?.everCorrect).map((question) => question.id)),
  )
  const [activeId, setActiveId] = useState<string | null>(null)
  const active = questions.find((question) => question.id === activeId) ?? null
  const doneRef = useRef(done)
  doneRef.current = done
  const activeRef = useRef(active)
  activeRef.current = active
  const lastTime = useRef(0)
  const returnFocus = useRef<HTMLElement | null>(null)

  const stopAt = useCallback(
    (video: HTMLVideoElement, question: CheckpointQuestion) => {
      video.pause()
      if (Math.abs(video.currentTime - question.atSeconds) > SLACK) video.currentTime = question.atSeconds
      lastTime.current = question.atSeconds
      if (activeRef.current?.id !== question.id) {
        returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : video
        setActiveId(question.id)
      }
    },
    [setActiveId],
  )

  useEffect(() => {
    const video = videoRef.current
    if (!video || questions.length === 0) return
    const pending = () => questions.filter((question) => !doneRef.current.has(question.id))
    const onTimeUpdate = () => {
      if (video.seeking) return
      const now = video.currentTime
      const current = activeRef.current
      if (current && current.required && !doneRef.current.has(current.id) && now > current.atSeconds + SLACK) {
        stopAt(video, current)
        return
      }
      const crossed = pending().find(
        (question) => question.id !== current?.id && question.atSeconds > lastTime.current - SLACK && question.atSeconds <= now,
      )
      if (crossed) stopAt(video, crossed)
      else lastTime.current = now
    }
    const onSeeking = () => {
      const now = video.currentTime
      // Seeking past a required checkpoint not yet answered right stops at it.
      const blocking = pending().find((question) => question.required && question.atSeconds < now - SLACK)
      if (blocking) stopAt(video, blocking)
      else lastTime.current = now
    }
    const onPlay = () => {
      const current = activeRef.current
      if (!current) return
      // Playing with an optional question open skips it; a required one holds.
      if (!current.required || doneRef.current.has(current.id)) {
        setDone((before) => new Set(before).add(current.id))
        setActiveId(null)
      } else if (video.currentTime >= current.atSeconds - SLACK) {
        video.pause()
      }
    }
    video.addEventListener('timeupdate', onTimeUpdate)
    video.addEventListener('seeking', onSeeking)
    video.addEventListener('play', onPlay)
    return () => {
      video.removeEventListener('timeupdate', onTimeUpdate)
      video.removeEventListener('seeking', onSeeking)
      video.removeEventListener('play', onPlay)
    }
  }, [videoRef, questions, stopAt])

  const close = useCallback(
    (play: boolean) => {
      setActiveId(null)
      const video = videoRef.current
      const target = returnFocus.current && returnFocus.current.isConnected ? returnFocus.current : video
      target?.focus()
      if (play && video) void video.play().catch(() => {})
    },
    [videoRef],
  )

  if (!active) return null
  return (
    <CheckpointDialog
      key={active.id}
      videoId={videoId}
      question={active}
      onRight={() => setDone((before) => new Set(before).add(active.id))}
      onContinue={() => {
        setDone((before) => new Set(before).add(active.id))
        close(true)
      }}
    />
  )
}

interface CheckpointDialogProps {
  videoId: string
  question: CheckpointQuestion
  onRight: () => void
  /** Continue (after answering), Skip or Escape: the panel closes. On a spark: "Watch again". */
  onContinue: () => void
  /**
   * 'player' (default): under the long-form player, "Question at 0:08". 'spark' (ADR 0049): over the
   * lower part of a clip in the reel viewer, "Question" (at its end), with Watch again and Next spark.
   */
  variant?: 'player' | 'spark'
  /** On a spark: go to the next clip (after answering); null on the last one. */
  onNext?: (() => void) | null
}

/** The question panel: a labelled dialog under the player, options as radio buttons (or checkboxes), then the result. */
export function CheckpointDialog({
  videoId,
  question,
  onRight,
  onContinue,
  variant = 'player',
  onNext = null,
}: CheckpointDialogProps) {
  const spark = variant === 'spark'
  const fetcher = useFetcher<{ ok: true; answers: CheckpointAnswer[] } | { ok: false; error: string }>()
  const id = useId()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const continueRef = useRef<HTMLButtonElement>(null)
  const answer = fetcher.data?.ok ? fetcher.data.answers.find((item) => item.checkpointId === question.id) : undefined
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null
  // The form is shown again to try again after a wrong answer to a required question.
  const [retrying, setRetrying] = useState(false)
  const showResult = answer !== undefined && fetcher.state === 'idle' && !retrying
  const canGoOn = showResult && (answer.correct || !question.required)

  useEffect(() => {
    headingRef.current?.focus()
  }, [])
  // Escape leaves a question that may be left (an optional one, or one answered right).
  const dialogRef = useRef<HTMLElement>(null)
  const leave = useRef<(() => void) | null>(null)
  leave.current = !question.required || canGoOn ? onContinue : null
  useEffect(() => {
    const dialog = dialogRef.current
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && leave.current) leave.current()
    }
    dialog?.addEventListener('keydown', onKey)
    return () => dialog?.removeEventListener('keydown', onKey)
  }, [])
  const onRightRef = useRef(onRight)
  onRightRef.current = onRight
  useEffect(() => {
    if (answer?.correct) onRightRef.current()
  }, [answer])
  useEffect(() => {
    if (showResult) continueRef.current?.focus()
  }, [showResult])

  return (
    <section
      role="dialog"
      aria-modal="false"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-hint`}
      className={
        spark
          ? 'absolute inset-x-0 bottom-0 z-30 max-h-[75%] overflow-y-auto rounded-t-2xl bg-white p-4 pb-[calc(1rem+env(safe-area-inset-bottom))] text-ink-900 shadow-2xl sm:p-5'
          : 'card mt-3 border-l-4 border-brand-500 p-4 sm:p-5'
      }
      data-testid="checkpoint-dialog"
      data-variant={variant}
      ref={dialogRef}
    >
      <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="text-heading focus:outline-none">
        {spark ? 'Question' : `Question at ${formatMoment(question.atSeconds)}`}
      </h2>
      <p id={`${id}-hint`} className="text-caption mt-1">
        {question.required
          ? spark
            ? 'Answer it right to watch on.'
            : 'Answer it right to go on.'
          : 'Optional: answer it or skip it.'}{' '}
        {question.multiple ? 'Choose all that apply.' : 'Choose one.'}
      </p>
      {showResult ? (
        <div className="mt-3">
          <p role="status" className={`font-semibold ${answer.correct ? 'text-emerald-800' : 'text-red-800'}`}>
            {answer.correct ? 'Right!' : 'Not quite.'}
          </p>
          {answer.explanation ? <p className="text-body mt-1">{answer.explanation}</p> : null}
          <div className="mt-4 flex flex-wrap gap-3">
            {canGoOn && spark ? (
              <>
                {onNext ? (
                  <button ref={continueRef} type="button" className="btn-primary" onClick={onNext}>
                    Next spark
                  </button>
                ) : null}
                <button
                  ref={onNext ? undefined : continueRef}
                  type="button"
                  className={onNext ? 'btn-secondary' : 'btn-primary'}
                  onClick={onContinue}
                >
                  Watch again
                </button>
              </>
            ) : canGoOn ? (
              <button ref={continueRef} type="button" className="btn-primary" onClick={onContinue}>
                Continue
              </button>
            ) : (
              <button ref={continueRef} type="button" className="btn-primary" onClick={() => setRetrying(true)}>
                Try again
              </button>
            )}
          </div>
        </div>
      ) : (
        <fetcher.Form method="post" action={`/video/${videoId}/check`} className="mt-3" onSubmit={() => setRetrying(false)}>
          <input type="hidden" name="js" value="1" />
          <fieldset>
            <legend className="text-base font-semibold text-ink-900">{question.question}</legend>
            <CheckpointOptions question={question} className="mt-3" required={!question.multiple} />
          </fieldset>
          {error ? (
            <p role="alert" className="mt-2 text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
          <div className="mt-4 flex flex-wrap gap-3">
            <button type="submit" className="btn-primary" disabled={fetcher.state !== 'idle'}>
              {fetcher.state !== 'idle' ? 'Checking…' : 'Check answer'}
            </button>
            {question.required ? null : (
              <button type="button" className="btn-secondary" onClick={onContinue}>
                Skip
              </button>
            )}
          </div>
        </fetcher.Form>
      )}
    </section>
  )
}

/**
 * The checkpoints as marks on the player's one marks strip (PlayerMarks, ADR 0049), beside
 * the chapters: a diamond each, green once answered right; the name says required or
 * optional and whether the learner has answered.
 */
export function checkpointMarks(questions: CheckpointQuestion[], results: Record<string, CheckpointResult>): PlayerMark[] {
  return questions.map((question) => {
    const result = results[question.id]
    const state = result?.everCorrect ? 'answered right' : result ? 'answered' : 'not answered'
    return {
      at: question.atSeconds,
      kind: 'checkpoint',
      done: Boolean(result?.everCorrect),
      label: `${question.question} (${question.required ? 'required' : 'optional'}, ${state})`,
    }
  })
}
