import { Link } from '@remix-run/react'
import { useEffect, useState, type MouseEvent } from 'react'
import { formatDuration } from '~/lib/format'

/**
 * Marks along a video's timeline (ADR 0042, ADR 0049), in ONE thin strip under the player:
 * chapters and checkpoints together, each kind with its own shape and colour (a chapter a
 * white bar, a question an amber diamond, green once answered right) and a legend when more
 * than one kind is shown; each mark's accessible name says what it is. Each mark is a link to
 * `?t=<seconds>`, which the video page honours, so it works without JavaScript; with it, a
 * click seeks the player in place. The strip shows how far the video has played and the
 * title of the current mark of the `current` kind ("Chapter: Intro").
 *
 * The player is found by its `data-video-id` (as the transcript does), so the player itself
 * needs no change to carry marks.
 */

export interface PlayerMark {
  /** Seconds from the start. */
  at: number
  label: string
  /** What the mark is ('chapter', 'checkpoint', …): its shape, colour and `data-mark-kind`. */
  kind: string
  /** A checkpoint answered right: drawn green (its label says so too). */
  done?: boolean
}

interface PlayerMarksProps {
  videoId: string
  marks: readonly PlayerMark[]
  /** The video's length as measured by the server; the player's own once it knows it. */
  durationSeconds: number | null
  /** Where playback starts (`?t=`): the current mark before the player reports. */
  startAt?: number | null
  /** The kind whose current mark is named beside the strip, and its word ("Chapter"). */
  current?: { kind: string; noun: string }
}

/** Each kind's shape and colour; the legend's words. Unknown kinds get the amber bar. */
const KIND_CLASSES: Record<string, string> = {
  chapter: 'h-4 w-1.5 rounded-full bg-white ring-brand-700',
  checkpoint: 'h-3 w-3 rotate-45 rounded-[2px] bg-amber-400 ring-amber-800',
}
const DONE_CLASSES = 'h-3 w-3 rotate-45 rounded-[2px] bg-emerald-500 ring-emerald-800'
const KIND_NAMES: Record<string, string> = { chapter: 'Chapter', checkpoint: 'Question' }

/** "Chapter: " or "Question: " before a mark's label, so its name says what it is. */
function kindPrefix(kind: string): string {
  return KIND_NAMES[kind] ? `${KIND_NAMES[kind]}: ` : ''
}

function markClasses(mark: Pick<PlayerMark, 'kind' | 'done'>): string {
  if (mark.kind === 'checkpoint' && mark.done) return DONE_CLASSES
  return KIND_CLASSES[mark.kind] ?? 'h-4 w-1.5 rounded-full bg-amber-300 ring-amber-700'
}

export function PlayerMarks({ videoId, marks, durationSeconds, startAt = null, current }: PlayerMarksProps) {
  const time = usePlayerTime(videoId, startAt ?? 0, marks.length > 0)
  const duration = usePlayerDuration(videoId, durationSeconds)
  const shown = duration ? marks.filter((mark) => mark.at < duration) : []
  const currentMark = current
    ? markAt(
        marks.filter((mark) => mark.kind === current.kind),
        time,
      )
    : null
  // The legend: one entry per kind shown (and "Answered right" once a question is).
  const legend: { key: string; kind: string; done?: boolean; name: string }[] = []
  for (const mark of shown) {
    const key = mark.kind === 'checkpoint' && mark.done ? 'checkpoint-done' : mark.kind
    if (legend.some((entry) => entry.key === key)) continue
    const name = key === 'checkpoint-done' ? 'Answered right' : (KIND_NAMES[mark.kind] ?? mark.kind)
    legend.push({ key, kind: mark.kind, done: mark.done, name })
  }
  legend.sort((a, b) => a.key.localeCompare(b.key))
  if (!marks.length) return null
  return (
    <div className="mt-2" data-player-marks={videoId}>
      {shown.length ? (
        <nav aria-label="Moments in this video" className="relative mx-3 h-6">
          <div className="absolute inset-x-0 top-1/2 h-1.5 -translate-y-1/2 overflow-hidden rounded-full bg-ink-200">
            {duration ? (
              <div
                className="h-full bg-brand-500"
                style={{ width: `${Math.min(100, (time / duration) * 100)}%` }}
                data-played
                aria-hidden="true"
              />
            ) : null}
          </div>
          <ol className="absolute inset-0">
            {shown.map((mark) => (
              <li
                key={`${mark.kind}-${mark.at}`}
                className="absolute inset-y-0"
                style={{ left: `${(mark.at / duration!) * 100}%` }}
              >
                <Link
                  to={`?t=${mark.at}`}
                  preventScrollReset
                  onClick={(event) => seekTo(event, videoId, mark.at)}
                  aria-label={`${kindPrefix(mark.kind)}${mark.label}, ${formatDuration(mark.at)}`}
                  title={`${formatDuration(mark.at)} ${kindPrefix(mark.kind)}${mark.label}`}
                  data-mark-kind={mark.kind}
                  data-mark-at={mark.at}
                  className="group absolute inset-y-0 -left-3 flex w-6 items-center justify-center rounded"
                >
                  <span className={`block ring-2 transition-transform group-hover:scale-125 ${markClasses(mark)}`} />
                </Link>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {legend.length > 1 ? (
        <ul className="text-caption mx-3 mt-1 flex flex-wrap gap-x-4 gap-y-1" aria-label="Marks" data-marks-legend>
          {legend.map((entry) => (
            <li key={entry.key} className="inline-flex items-center gap-1.5">
              <span className={`block scale-75 ring-2 ${markClasses(entry)}`} aria-hidden="true" />
              {entry.name}
            </li>
          ))}
        </ul>
      ) : null}
      {current && currentMark ? (
        <p className="text-caption mt-1" data-current-mark={currentMark.at}>
          {current.noun}: <span className="font-semibold text-ink-900">{currentMark.label}</span>
        </p>
      ) : null}
    </div>
  )
}

/** The mark playing at `seconds`: the last one that started. */
function markAt(marks: readonly PlayerMark[], seconds: number): PlayerMark | null {
  let found: PlayerMark | null = null
  for (const mark of [...marks].sort((a, b) => a.at - b.at)) {
    if (mark.at <= seconds) found = mark
    else break
  }
  return found
}

/** The page's player for `videoId` (the `<video>` inside the VideoPlayer's box). */
export function playerOf(videoId: string): HTMLVideoElement | null {
  return document.querySelector<HTMLVideoElement>(`[data-video-id="${CSS.escape(videoId)}"] video`)
}

/** A `?t=` link followed with JavaScript: the player seeks in place and plays (no page load). */
export function seekTo(event: MouseEvent<HTMLAnchorElement>, videoId: string, seconds: number) {
  const video = playerOf(videoId)
  if (!video) return
  event.preventDefault()
  video.currentTime = seconds
  void video.play().catch(() => undefined)
}

/** The player's current time, following it as it plays and seeks (when `follow`); `initial` until it reports. */
export function usePlayerTime(videoId: string, initial: number, follow = true): number {
  const [time, setTime] = useState(initial)
  useEffect(() => {
    setTime(initial)
  }, [initial])
  useEffect(() => {
    const video = follow ? playerOf(videoId) : null
    if (!video) return
    const onTime = () => setTime(video.currentTime)
    video.addEventListener('timeupdate', onTime)
    video.addEventListener('seeking', onTime)
    video.addEventListener('seeked', onTime)
    return () => {
      video.removeEventListener('timeupdate', onTime)
      video.removeEventListener('seeking', onTime)
      video.removeEventListener('seeked', onTime)
    }
  }, [videoId, follow])
  return time
}

function usePlayerDuration(videoId: string, known: number | null): number | null {
  const [duration, setDuration] = useState(known)
  useEffect(() => {
    const video = playerOf(videoId)
    if (!video) return
    const onMeta = () => {
      if (Number.isFinite(video.duration) && video.duration > 0) setDuration(video.duration)
    }
    onMeta()
    video.addEventListener('durationchange', onMeta)
    return () => video.removeEventListener('durationchange', onMeta)
  }, [videoId])
  return duration
}
