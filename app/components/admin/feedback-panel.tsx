import { Link } from '@remix-run/react'
import type { FeedbackPage } from '~/lib/admin-types'
import { formatDate } from '~/lib/format'
import { Badge, EmptyPanel } from './admin-tabs'

/** Feedback: every submission, newest first, 20 a page. */
export function FeedbackPanel({ page, cursor }: { page: FeedbackPage; cursor: string | null }) {
  if (page.entries.length === 0 && !cursor) {
    return <EmptyPanel title="No feedback yet" message="What users send from the Feedback button will show up here." />
  }
  return (
    <div className="space-y-4">
      <ul className="grid gap-4 md:grid-cols-2">
        {page.entries.map((entry) => (
          <li key={entry.id}>
            <article className="card h-full p-5" aria-label={`Feedback from ${entry.username ?? 'a deleted user'}`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-semibold text-ink-900">{entry.username ?? 'Deleted user'}</p>
                <div className="flex items-center gap-2">
                  <Badge tone={entry.liked ? 'success' : 'danger'}>{entry.liked ? 'Likes Lumen' : 'Does not like Lumen'}</Badge>
                  <time dateTime={entry.createdAt} className="text-caption">
                    {formatDate(entry.createdAt)}
                  </time>
                </div>
              </div>
              <dl className="mt-3 space-y-3 text-sm">
                <div>
                  <dt className="font-medium text-ink-500">How they use Lumen</dt>
                  <dd className="mt-0.5 whitespace-pre-line text-ink-800">{entry.usage}</dd>
                </div>
                <div>
                  <dt className="font-medium text-ink-500">Recommendations</dt>
                  <dd className="mt-0.5 whitespace-pre-line text-ink-800">{entry.recommendations}</dd>
                </div>
              </dl>
            </article>
          </li>
        ))}
      </ul>
      <nav aria-label="Feedback pages" className="flex flex-wrap justify-between gap-2">
        {cursor ? (
          <Link to="/admin/feedback" className="btn-secondary">
            Newest
          </Link>
        ) : (
          <span />
        )}
        {page.next ? (
          <Link to={`/admin/feedback?after=${encodeURIComponent(page.next)}`} className="btn-secondary">
            Older feedback
          </Link>
        ) : null}
      </nav>
    </div>
  )
}
