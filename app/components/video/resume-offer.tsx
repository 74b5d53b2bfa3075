import { Link } from '@remix-run/react'
import { formatDuration } from '~/lib/format'

/**
 * "Resume from 12:34" or "Start over" (ADR 0034), under the player when the
 * learner stopped this video part-way. Resuming is the default: the player
 * already starts at the saved moment (the server's `#t=` on the MP4, hls.js's
 * start position). Both choices are links (`?t=`), so they work without
 * JavaScript; with it, following one also plays from there.
 */
export function ResumeOffer({ videoId, at }: { videoId: string; at: number }) {
  const play = (seconds: number) => {
    const video = document.querySelector<HTMLVideoElement>(`[data-video-id="${videoId}"] video`)
    if (!video) return
    video.currentTime = seconds
    video.play().catch(() => {})
  }
  const time = formatDuration(at)
  return (
    <section
      aria-label="Resume watching"
      className="mt-3 flex flex-col gap-3 rounded-card bg-brand-50 px-4 py-3 ring-1 ring-inset ring-brand-100 sm:flex-row sm:items-center sm:justify-between"
      data-resume-at={at}
    >
      <p className="text-sm text-ink-700">
        You stopped at <span className="font-semibold tabular-nums text-ink-900">{time}</span> last time.
      </p>
      <div className="flex flex-wrap gap-2">
        <Link to={`?t=${at}`} replace preventScrollReset className="btn-primary tabular-nums" onClick={() => play(at)}>
          {`Resume from ${time}`}
        </Link>
        <Link to="?t=0" replace preventScrollReset className="btn-secondary" onClick={() => play(0)}>
          Start over
        </Link>
      </div>
    </section>
  )
}
