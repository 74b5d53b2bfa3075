import { Link } from '@remix-run/react'
import { VideoCard, type VideoCardData } from '~/components/video-card'

/**
 * The feed's first row (ADR 0034): lessons the learner started and has not
 * finished, latest first, each card with its progress bar; the card opens the
 * video, which offers "Resume from …". A row that scrolls sideways on a phone,
 * the feed's grid from the small breakpoint up. Rendered only when there is
 * something to continue.
 */
export function ContinueWatchingRow({ items }: { items: VideoCardData[] }) {
  if (items.length === 0) return null
  return (
    <section aria-labelledby="continue-watching" data-continue-watching>
      <div className="mb-3 flex items-baseline justify-between gap-4">
        <h2 id="continue-watching" className="text-heading text-ink-900">
          Continue watching
        </h2>
        <Link to="/profile?tab=history" className="text-sm font-medium text-brand-700 hover:underline">
          History
        </Link>
      </div>
      <ul className="-mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:gap-5 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-3">
        {items.map((video) => (
          <li key={video.id} className="flex w-[80%] shrink-0 snap-start sm:w-auto">
            <div className="w-full min-w-0 [&>article]:h-full">
              <VideoCard video={video} headingLevel={3} eager />
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
