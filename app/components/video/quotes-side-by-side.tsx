import { Link } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useHydrated } from '~/components/use-hydrated'
import { VideoPlayer } from '~/components/video-player'
import { formatDuration } from '~/lib/format'
import type { UserQuote } from '~/lib/quote-types'
import { momentParam } from '~/lib/schemas/quote'

/** Further apart than this (seconds), the original is moved back in step with the response. */
const DRIFT_SECONDS = 0.5

/**
 * A video response next to its original (ADR 0014), both playing
 * their own renditions — nothing is re-encoded. With JavaScript one
 * Play/Pause drives both: the original starts at the quote's moment and
 * follows the response's clock. Without it each is a plain player (the
 * original's MP4 opens at the moment, `#t=`).
 */
export function QuoteSideBySide({ quote }: { quote: UserQuote }) {
  const hydrated = useHydrated()
  const responseRef = useRef<HTMLVideoElement | null>(null)
  const originalRef = useRef<HTMLVideoElement | null>(null)
  const [playing, setPlaying] = useState(false)
  const start = quote.moment ?? 0
  const original = quote.originalVideo
  const response = quote.response!

  // The original follows the response: same play state, same position (offset by the moment).
  useEffect(() => {
    const answer = responseRef.current
    const source = originalRef.current
    if (!answer || !source) return
    const follow = () => {
      const target = start + answer.currentTime
      if (Math.abs(source.currentTime - target) > DRIFT_SECONDS) source.currentTime = target
    }
    const onPlay = () => {
      follow()
      void source.play().catch(() => undefined)
      setPlaying(true)
    }
    const onPause = () => {
      source.pause()
      setPlaying(false)
    }
    answer.addEventListener('play', onPlay)
    answer.addEventListener('pause', onPause)
    answer.addEventListener('ended', onPause)
    answer.addEventListener('seeked', follow)
    answer.addEventListener('timeupdate', follow)
    return () => {
      answer.removeEventListener('play', onPlay)
      answer.removeEventListener('pause', onPause)
      answer.removeEventListener('ended', onPause)
      answer.removeEventListener('seeked', follow)
      answer.removeEventListener('timeupdate', follow)
    }
  }, [start])

  const toggle = () => {
    const answer = responseRef.current
    if (!answer) return
    if (answer.paused) void answer.play().catch(() => undefined)
    else answer.pause()
  }
  const restart = () => {
    const answer = responseRef.current
    const source = originalRef.current
    if (!answer || !source) return
    answer.currentTime = 0
    source.currentTime = start
  }

  return (
    <section aria-labelledby="side-by-side-title" className="flex flex-col gap-4">
      <h2 id="side-by-side-title" className="sr-only">
        Response and original, side by side
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <figure className="card overflow-hidden">
          <VideoPlayer
            ref={responseRef}
            videoId={quote.id}
            title={`Video response by ${quote.creator.username}`}
            hlsUrl={response.hlsUrl}
            mp4Url={response.mp4Url}
            posterUrl={response.posterUrl}
            controls={!hydrated}
            className="aspect-video w-full overflow-hidden bg-ink-950"
          />
          <figcaption className="p-3 text-sm font-semibold text-ink-900">Response by {quote.creator.username}</figcaption>
        </figure>
        <figure className="card overflow-hidden">
          <VideoPlayer
            ref={originalRef}
            videoId={original.id}
            title={original.title}
            hlsUrl={original.hlsUrl}
            mp4Url={original.mp4Url}
            posterUrl={original.thumbnailUrl}
            startAt={quote.moment}
            muted={hydrated}
            controls={!hydrated}
            className="aspect-video w-full overflow-hidden bg-ink-950"
          />
          <figcaption className="p-3 text-sm">
            <span className="font-semibold text-ink-900">{original.title}</span>
            {quote.moment !== null ? <span className="text-ink-600"> · from {formatDuration(quote.moment)}</span> : null}
          </figcaption>
        </figure>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        {hydrated ? (
          <>
            <button type="button" className="btn-primary" onClick={toggle} aria-pressed={playing} data-testid="sync-toggle">
              {playing ? 'Pause both' : 'Play both'}
            </button>
            <button type="button" className="btn-secondary" onClick={restart}>
              Restart
            </button>
            <p className="text-caption">The original plays muted, in step with the response.</p>
          </>
        ) : null}
        <Link to={`/video/${original.id}${momentParam(quote.moment)}`} className="btn-secondary">
          View Original
        </Link>
      </div>
    </section>
  )
}
