import { Link } from '@remix-run/react'
import { EmptyState } from '~/components/video-grid'
import { formatDate } from '~/lib/format'
import type { ProgressItem } from '~/lib/schemas/checkpoints'

/**
 * Profile → Progress (ADR 0047): the videos whose checkpoints the learner answered,
 * latest first, with their score (questions answered right at least once, of all the
 * video's questions). Only the learner sees it.
 */
export function ProgressPanel({ items }: { items: ProgressItem[] }) {
  if (items.length === 0) {
    return (
      <EmptyState
        title="No answers yet"
        message="Videos with questions inside them show your score here once you answer. Only you can see it."
        action={{ href: '/feed', label: 'Browse the feed' }}
      />
    )
  }
  return (
    <section aria-labelledby="progress-title" id="progress">
      <h2 id="progress-title" className="text-heading">
        Progress
      </h2>
      <p className="text-caption mt-0.5">Your answers to the questions inside videos. Only you can see them.</p>
      <ul className="mt-4 divide-y divide-ink-100" data-testid="progress-list">
        {items.map((item) => (
          <li key={item.videoId} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0">
              <Link to={`/video/${item.videoId}#check-yourself`} className="font-semibold text-ink-900 hover:text-brand-700">
                {item.title}
              </Link>
              <p className="text-caption">
                {item.answered} of {item.questions} answered · last on {formatDate(item.lastAnsweredAt)}
              </p>
            </div>
            <p className="text-sm font-semibold tabular-nums text-ink-900">
              {item.right} of {item.questions} right
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}
