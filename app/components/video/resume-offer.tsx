import { Link, useSearchParams } from '@remix-run/react'
import { useRef } from 'react'
import { formatDuration } from '~/lib/format'
import { parseMoment } from '~/lib/schemas/quote'

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

/**
 * Where the player starts: `?t=` (a quote's or a chapter's moment), else where the learner stopped, as
 * first loaded for this video — a revalidation (after a comment) must not move the player to the
 * position saved since. `resume` is that saved moment when the page offers it.
 */
export function useStartMoment(video: { id: string; externalUrl: string | null }, resumeAt: number | null) {
  const [searchParams] = useSearchParams()
  const moment = parseMoment(searchParams.get('t'))
  const saved = useRef({ id: video.id, at: resumeAt })
  if (saved.current.id !== video.id) saved.current = { id: video.id, at: resumeAt }
  const resume = moment === null && !video.externalUrl ? saved.current.at : null
  return { moment, resume, startAt: moment ?? resume }
}
