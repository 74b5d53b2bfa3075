import { Link } from '@remix-run/react'
import { useEffect, useRef, useState, type MouseEvent } from 'react'
import type { CueView } from '~/lib/caption-types'
import { chapterIndexAt, type Chapter } from '~/lib/schemas/chapters'

/**
 * The transcript beside the player (ADR 0019): every cue with its time. Without
 * JavaScript each time is a link to `?t=<seconds>`, which the page honours; with it,
 * a click seeks the player in place and the line being said is highlighted (and kept
 * in view inside the list, never scrolling the page). A video with chapters has its lines
 * grouped under the chapters' titles (ADR 0042).
 */
export function Transcript({
  videoId,
  label,
  cues,
  chapters = [],
}: {
  videoId: string
  label: string
  cues: CueView[]
  chapters?: readonly Chapter[]
}) {
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
    const item = current >= 0 ? list?.querySelector(`[data-cue="${current}"]`) : null
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

  const line = (cue: CueView, index: number) => (
    <li key={`${cue.startMs}-${index}`} data-cue={index}>
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
  )

  return (
    <section aria-labelledby="transcript-heading" className="card mt-6 p-4 sm:p-5">
      <h2 id="transcript-heading" className="text-heading">
        Transcript <span className="text-caption font-normal">· {label}</span>
      </h2>
      <ol ref={listRef} className="relative mt-3 max-h-80 space-y-0.5 overflow-y-auto pr-1" aria-label={`Transcript, ${label}`}>
        {chapters.length
          ? groupByChapter(cues, chapters).map(({ chapter, items }) => (
              <li key={chapter.start}>
                <h3 className="sticky top-0 z-10 bg-white px-2 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-ink-600">
                  {chapter.title}
                </h3>
                <ol className="space-y-0.5">{items.map(({ cue, index }) => line(cue, index))}</ol>
              </li>
            ))
          : cues.map((cue, index) => line(cue, index))}
      </ol>
    </section>
  )
}

/** The cues under the chapter they start in (with their index in the whole list); chapters without a cue are left out. */
function groupByChapter(cues: readonly CueView[], chapters: readonly Chapter[]) {
  const groups = chapters.map((chapter) => ({ chapter, items: [] as { cue: CueView; index: number }[] }))
  cues.forEach((cue, index) => groups[Math.max(0, chapterIndexAt(chapters, cue.startMs / 1000))]!.items.push({ cue, index }))
  return groups.filter((group) => group.items.length > 0)
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
