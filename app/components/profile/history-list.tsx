import { Form, Link } from '@remix-run/react'
import { TrashIcon } from '~/components/icons'
import { EmptyState } from '~/components/video-grid'
import { WatchProgressBar } from '~/components/video/watch-progress-bar'
import { formatDate, formatDuration } from '~/lib/format'
import { resizedImage } from '~/lib/media-urls'
import { resumeMoment, type WatchPosition } from '~/lib/schemas/progress'
import type { VideoCardItem } from '~/lib/video-types'

/**
 * Profile → History (ADR 0034): the videos the learner watched, latest first,
 * each with how far they got, a link that resumes there (`?t=`), and Remove;
 * Clear history behind a disclosure (the confirmation, with or without
 * JavaScript). Plain forms posting `intent=history-remove|history-clear` to
 * the page's own action.
 */
export type HistoryEntry = VideoCardItem & { progress: WatchPosition }

export function HistoryPanel({ items, nextCursor }: { items: HistoryEntry[]; nextCursor: string | null }) {
  if (items.length === 0) {
    return (
      <EmptyState
        title="No history yet"
        message="Videos you watch are kept here, so you can pick up where you left off. Only you can see them."
        action={{ href: '/feed', label: 'Browse the feed' }}
      />
    )
  }
  return (
    <section aria-labelledby="history-title" id="history">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="history-title" className="text-heading">
            History
          </h2>
          <p className="text-caption mt-0.5">Only you can see what you watched.</p>
        </div>
        <details className="group relative">
          <summary className="btn-secondary cursor-pointer list-none [&::-webkit-details-marker]:hidden">Clear history</summary>
          <div className="card absolute right-0 z-20 mt-2 w-72 max-w-[calc(100vw-2rem)] p-4">
            <p className="text-sm text-ink-700">
              Remove every video from your history and Continue watching? This cannot be undone.
            </p>
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="history-clear" />
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit" className="btn-primary w-full bg-red-600 hover:bg-red-700">
                Clear all history
              </button>
            </Form>
          </div>
        </details>
      </div>
      <ul className="mt-4 flex flex-col gap-3" aria-label="Videos you watched">
        {items.map((item) => (
          <HistoryRow key={item.id} item={item} />
        ))}
      </ul>
      {nextCursor ? (
        <div className="mt-6 flex justify-center">
          <Link
            to={`/profile?tab=history&cursor=${encodeURIComponent(nextCursor)}`}
            className="btn-secondary min-w-40"
            rel="next"
          >
            Older videos
          </Link>
        </div>
      ) : null}
    </section>
  )
}

function HistoryRow({ item }: { item: HistoryEntry }) {
  const resumeAt = resumeMoment(item.progress)
  const href = resumeAt !== null ? `/video/${item.id}?t=${resumeAt}` : `/video/${item.id}`
  const { positionSeconds, durationSeconds, finished } = item.progress
  return (
    <li className="card flex items-center gap-3 p-3 sm:gap-4" data-history={item.id}>
      <Link
        to={href}
        className="relative block aspect-video w-28 shrink-0 overflow-hidden rounded-lg bg-ink-900 sm:w-40"
        tabIndex={-1}
        aria-hidden
      >
        {item.thumbnailUrl ? (
          <img
            src={resizedImage(item.thumbnailUrl, 320)}
            alt=""
            loading="lazy"
            decoding="async"
            className="h-full w-full object-cover"
          />
        ) : null}
        <WatchProgressBar progress={item.progress} />
      </Link>
      <div className="min-w-0 flex-1">
        <p className="line-clamp-2 break-words text-sm font-semibold text-ink-900 sm:text-base">
          <Link to={href} className="hover:text-brand-700 hover:underline">
            {item.title}
          </Link>
        </p>
        <p className="mt-0.5 truncate text-sm text-ink-600">{item.creator.username}</p>
        <p className="text-caption mt-0.5">
          {finished
            ? 'Finished'
            : `Watched to ${formatDuration(positionSeconds)}${durationSeconds ? ` of ${formatDuration(durationSeconds)}` : ''}`}{' '}
          · {formatDate(item.progress.updatedAt)}
        </p>
      </div>
      <Form method="post" className="shrink-0">
        <input type="hidden" name="intent" value="history-remove" />
        <input type="hidden" name="videoId" value={item.id} />
        <button type="submit" className="btn-ghost min-w-11 px-3" aria-label={`Remove “${item.title}” from history`}>
          <TrashIcon />
          <span className="hidden sm:inline">Remove</span>
        </button>
      </Form>
    </li>
  )
}
