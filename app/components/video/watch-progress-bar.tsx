import { formatDuration } from '~/lib/format'
import { watchedShare, type WatchPosition } from '~/lib/schemas/progress'

/**
 * The thin bar along the bottom of a card's thumbnail for a video the learner
 * started (ADR 0034): how far they got, full when finished. Its words are for
 * screen readers ("Watched to 12:34", "Watched").
 */
export function WatchProgressBar({ progress }: { progress: WatchPosition }) {
  const percent = Math.round(watchedShare(progress) * 100)
  return (
    <div className="absolute inset-x-0 bottom-0 h-1 bg-white/35" data-watched={percent}>
      <div className="h-full bg-brand-500" style={{ width: `${Math.max(percent, 2)}%` }} />
      <span className="sr-only">{progress.finished ? 'Watched' : `Watched to ${formatDuration(progress.positionSeconds)}`}</span>
    </div>
  )
}
