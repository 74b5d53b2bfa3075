import { Link } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react'
import type { SparkQuestion as SparkQuestionData } from '~/lib/schemas/checkpoints'
import { CheckpointDialog } from './checkpoint-player'

/**
 * The question a spark ends with, in the reel viewer (ADR 0049). Mounted once per clip.
 *
 * With JavaScript: while the clip is the current one and its question is not done, the
 * clip stops looping; when it ends, the question panel opens over the lower part of the
 * clip (focus moves to its heading, and back to where it was when it closes). The answer
 * is posted to /video/:id/check and scored on the server (the page never has the key);
 * right or wrong shows with the explanation, then Next spark or Watch again. A required
 * question has no Skip and asks to try again after a wrong answer; an optional one can be
 * skipped (Skip, Escape, or playing the clip again). Once answered right, or answered or
 * skipped if optional, the clip loops again and the question does not come back in this
 * visit; answered right before, it does not stop the clip at all.
 *
 * Without JavaScript the clip loops under the browser's controls: a link on the clip goes
 * to the spark's page, whose "Check yourself" form answers the question.
 */
export function SparkQuestion({
  videoId,
  checkpoint,
  video,
  active,
  hydrated,
  onNext,
}: {
  videoId: string
  checkpoint: SparkQuestionData | null | undefined
  /** The clip's `<video>` once mounted. */
  video: HTMLVideoElement | null
  /** The clip is the one in view. */
  active: boolean
  hydrated: boolean
  /** Moves the viewer to the next clip; null on the last one. */
  onNext: (() => void) | null
}) {
  const [done, setDone] = useState(checkpoint?.answeredRight ?? false)
  const [open, setOpen] = useState(false)
  const doneRef = useRef(done)
  doneRef.current = done
  const returnFocus = useRef<Element | null>(null)
  const question = checkpoint?.question ?? null
  const waiting = Boolean(question) && hydrated && active && !done

  // While waiting for the end: no looping, and the end opens the question.
  useEffect(() => {
    if (!video || !waiting) return
    video.loop = false
    const onEnded = () => {
      returnFocus.current = document.activeElement
      setOpen(true)
    }
    video.addEventListener('ended', onEnded)
    return () => {
      video.removeEventListener('ended', onEnded)
      video.loop = true
    }
  }, [video, waiting])

  // Another clip in view: the panel goes (it comes back at this clip's next end).
  useEffect(() => {
    if (!active) setOpen(false)
  }, [active])

  // Playing the clip again with the panel open: skips an optional question; a required one holds.
  useEffect(() => {
    if (!video || !open || !question) return
    const onPlay = () => {
      if (doneRef.current) return
      if (question.required) video.pause()
      else {
        setDone(true)
        setOpen(false)
      }
    }
    video.addEventListener('play', onPlay)
    return () => video.removeEventListener('play', onPlay)
  }, [video, open, question])

  const giveFocusBack = useCallback(() => {
    const target = returnFocus.current
    returnFocus.current = null
    if (target instanceof HTMLElement && target.isConnected && target !== document.body) target.focus()
  }, [])

  if (!question) return null
  if (!hydrated) {
    return (
      <Link
        to={`/video/${videoId}#check-yourself`}
        className="absolute left-3 top-[calc(7rem+env(safe-area-inset-top))] z-10 inline-flex min-h-11 items-center rounded-full bg-black/60 px-4 text-sm font-semibold backdrop-blur hover:bg-black/80"
        data-spark-question-link
      >
        Answer this spark&rsquo;s question
      </Link>
    )
  }
  if (!open) return null
  // Taps on the panel are not the viewer's (a tap on the clip pauses it, a drag moves to another clip).
  const keep = (event: SyntheticEvent) => event.stopPropagation()
  return (
    <div onPointerDown={keep} onPointerUp={keep} data-spark-question>
      <CheckpointDialog
        key={question.id}
        videoId={videoId}
        question={question}
        variant="spark"
        onRight={() => {
          doneRef.current = true
          setDone(true)
        }}
        onContinue={() => {
          // Watch again (after answering, or Skip): the clip loops from the start.
          doneRef.current ||= !question.required
          setDone(doneRef.current)
          setOpen(false)
          giveFocusBack()
          if (video) {
            video.currentTime = 0
            void video.play().catch(() => {})
          }
        }}
        onNext={
          onNext
            ? () => {
                doneRef.current ||= !question.required
                setDone(doneRef.current)
                setOpen(false)
                giveFocusBack()
                onNext()
              }
            : null
        }
      />
    </div>
  )
}
