import { Link } from '@remix-run/react'
import { useEffect, useRef, useState, type MouseEvent } from 'react'
import type { CueView } from '~/lib/caption-types'

/**
 * The transcript beside the player (ADR 0019): every cue with its time. Without
 * JavaScript each time is a link to `?t=<seconds>`, which the page honours; with it,
 * a click seeks the player in place and the line being said is highlighted (and kept
 * in view inside the list, never scrolling the page).
 */
export function Transcript({ videoId, label, cues }: { videoId: string; label: string; cues: CueView[] }) {
  const listRef = useRef<HTMLOListElement>(null)
  const [current, setCurrent] = useState(-1)

  useEffect(() => {
    const video = playerOf(videoId)
    if (!video) return
    const onTime = () => {
      const ms = video.currentTime * 1000
      let index = -1
      for (let i = 0; i < cues.length; i++) {
        if (cues[i]!.startMs > ms) break
        if (cues[i]!.endMs >= ms) index = i
      }
      setCurrent(index)
    }
    video.addEventListener('timeupdate', onTime)
    video.addEventListener('seeked', onTime)
    return () => {
      video.removeEventListener('timeupdate', onTime)
      video.removeEventListener('seeked', onTime)
    }
  }, [videoId, cues])

  useEffect(() => {
    const list = listRef.current
    const item = current >= 0 ? list?.children[current] : null
    if (!list || !(item instanceof HTMLElement)) return
    if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop - list.clientHeight / 3
    }
  }, [current])

  const seek = (event: MouseEvent<HTMLAnchorElement>, cue: CueView) => {
    const video = playerOf(videoId)
    if (!video) return
    event.preventDefault()
    video.currentTime = cue.startMs / 1000
    void video.play().catch(() => undefined)
  }

  return (
    <section aria-labelledby="transcript-heading" className="card mt-6 p-4 sm:p-5">
      <h2 id="transcript-heading" className="text-heading">
        Transcript <span className="text-caption font-normal">· {label}</span>
      </h2>
      <ol ref={listRef} className="relative mt-3 max-h-80 space-y-0.5 overflow-y-auto pr-1" aria-label={`Transcript, ${label}`}>
        {cues.map((cue, index) => (
          <li key={`${cue.startMs}-${index}`}>
            <Link
              to={`?t=${Math.floor(cue.startMs / 1000)}`}
              preventScrollReset
              onClick={(event) => seek(event, cue)}
              aria-current={index === current ? 'true' : undefined}
              className={`flex gap-3 rounded-lg px-2 py-1.5 text-left text-sm transition-colors hover:bg-ink-100 ${
                index === current ? 'bg-brand-50 text-ink-950 ring-1 ring-inset ring-brand-200' : 'text-ink-700'
              }`}
            >
              <span className="w-12 shrink-0 font-mono text-xs leading-5 text-brand-700">{clock(cue.startMs)}</span>
              <span className="whitespace-pre-line">{cue.text}</span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  )
}

function playerOf(videoId: string): HTMLVideoElement | null {
  return document.querySelector<HTMLVideoElement>(`[data-video-id="${CSS.escape(videoId)}"] video`)
}

function clock(ms: number): string {
  const total = Math.floor(ms / 1000)
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor(total / 60) % 60
  const seconds = String(total % 60).padStart(2, '0')
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`
}
