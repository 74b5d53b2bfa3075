import { Await, Link, useFetcher } from '@remix-run/react'
import { Suspense } from 'react'
import { ReportControl } from '~/components/report-dialog'
import { Alert } from '~/components/ui/alert'
import { DeleteControl } from '~/components/ui/delete-control'
import { FieldError } from '~/components/ui/field'
import { UserAvatar } from '~/components/user-avatar'
import { VideoPlayer } from '~/components/video-player'
import { excerpt, formatDate, formatDuration } from '~/lib/format'
import type { QuoteResponseMedia } from '~/lib/quote-types'
import { momentParam } from '~/lib/schemas/quote'
import type { VideoActionData, VideoActionFailure, VideoPageQuote } from '~/lib/video-page'
import { QuoteLikeButton } from './like-buttons'
import { PersonName } from './person-name'

/**
 * The Quotes list of the video page (docs/product.md: Video detail; ADR 0014): author,
 * text, the response video playing inline (its author alone sees it while it
 * is processing), likes (optimistic with JavaScript), the moment it points
 * at with View Original, the side-by-side view, report, and delete with a
 * confirmation for its author or an admin — a dialog with JavaScript, a
 * second button in a disclosure without.
 */

export function QuotesSection({
  videoId,
  quotes,
  more = null,
  count,
  failed,
}: {
  videoId: string
  /** The first page. */
  quotes: VideoPageQuote[]
  /** The rest, as deferred data (in the HTML without JavaScript; streamed after the page with it). */
  more?: Promise<VideoPageQuote[]> | null
  /** The quotes the viewer can see (the stored counter also counts responses still processing, which only their authors see). */
  count: number
  failed: VideoActionFailure | undefined
}) {
  const shownCount = count
  const quoteFailure = failed && (failed.intent === 'delete-quote' || failed.intent === 'quote-like') ? failed : undefined
  return (
    <aside id="quotes" aria-labelledby="quotes-heading" className="scroll-mt-24">
      <div className="flex items-center justify-between gap-3">
        <h2 id="quotes-heading" tabIndex={-1} className="text-heading">
          Quotes <span className="text-caption font-normal">({shownCount})</span>
        </h2>
        <Link
          to={`/create-quote?videoId=${encodeURIComponent(videoId)}`}
          className="text-sm font-semibold text-brand-700 hover:text-brand-800"
        >
          Quote this video
        </Link>
      </div>
      {quoteFailure ? (
        <div className="mt-3">
          <Alert tone="error">{quoteFailure.formError}</Alert>
        </div>
      ) : null}
      {quotes.length === 0 ? (
        <p className="text-caption mt-4 rounded-card border border-dashed border-ink-300 px-4 py-8 text-center">
          No quotes yet. Share your take on this video.
        </p>
      ) : (
        <ul className="mt-4 flex flex-col gap-4">
          {quotes.map((quote) => (
            <QuoteItem key={quote.id} quote={quote} videoId={videoId} />
          ))}
          {more ? (
            <Suspense fallback={<li className="text-caption">Loading more quotes…</li>}>
              <Await resolve={more} errorElement={<li className="text-caption">More quotes could not be loaded.</li>}>
                {(rest) => rest.map((quote) => <QuoteItem key={quote.id} quote={quote} videoId={videoId} />)}
              </Await>
            </Suspense>
          ) : null}
        </ul>
      )}
    </aside>
  )
}

function QuoteItem({ quote, videoId }: { quote: VideoPageQuote; videoId: string }) {
  const deleter = useFetcher<VideoActionData>({ key: `delete-quote-${quote.id}` })
  const deleting = deleter.state !== 'idle'
  const deleteError = deleter.state === 'idle' && deleter.data && !deleter.data.ok ? deleter.data.formError : null
  return (
    <li id={`quote-${quote.id}`} className={`card scroll-mt-24 p-4 ${deleting ? 'opacity-50' : ''}`}>
      <div className="flex items-center gap-2.5">
        <UserAvatar user={quote.creator} size="sm" />
        <div className="min-w-0 flex-1">
          <PersonName person={quote.creator} />
          <p className="text-caption leading-tight">
            {quote.type === 'video' ? 'Video response' : 'Text comment'} ·{' '}
            <time dateTime={quote.createdAt}>{formatDate(quote.createdAt)}</time>
          </p>
        </div>
      </div>
      {quote.body ? <p className="text-body mt-3 whitespace-pre-line">{quote.body}</p> : null}
      {quote.response ? (
        <QuoteResponse quoteId={quote.id} response={quote.response} title={`Video response by ${quote.creator.username}`} />
      ) : null}
      <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Link to={`/video/${videoId}${momentParam(quote.moment)}`} className="font-semibold text-brand-700 hover:text-brand-800">
          View Original{quote.moment !== null ? ` at ${formatDuration(quote.moment)}` : ''}
        </Link>
        {quote.response?.status === 'ready' ? (
          <Link to={`/quote/${quote.id}`} className="font-semibold text-brand-700 hover:text-brand-800">
            Side by side
          </Link>
        ) : null}
      </p>
      <div className="mt-3 flex items-center gap-1">
        <QuoteLikeButton quoteId={quote.id} likes={quote.likes} hasLiked={quote.hasLiked} />
        <ReportControl
          contentType="quote"
          contentId={quote.id}
          authorId={quote.creator.id}
          contentLabel={excerpt(quote.body || `quote by ${quote.creator.username}`)}
        />
        {quote.canDelete ? (
          <span className="ml-auto">
            <DeleteControl
              noun="quote"
              title="Delete this quote?"
              description="Your quote and its likes are removed for everyone. This cannot be undone."
              fields={{ intent: 'delete-quote', targetId: quote.id }}
              fetcherKey={`delete-quote-${quote.id}`}
              focusAfterId="quotes-heading"
            />
          </span>
        ) : null}
      </div>
      {deleteError ? <FieldError>{deleteError}</FieldError> : null}
    </li>
  )
}

/** A quote's video response: its player once ready, else that it is being processed or could not be. */
export function QuoteResponse({ quoteId, response, title }: { quoteId: string; response: QuoteResponseMedia; title: string }) {
  return response.status === 'ready' ? (
    <VideoPlayer
      videoId={quoteId}
      title={title}
      hlsUrl={response.hlsUrl}
      mp4Url={response.mp4Url}
      posterUrl={response.posterUrl}
      className="mt-3 aspect-video w-full overflow-hidden rounded-xl bg-ink-950"
    />
  ) : (
    <p className="text-caption mt-3 rounded-xl bg-ink-100 px-3 py-2" data-testid="quote-processing">
      {response.status === 'failed'
        ? 'This video response could not be processed.'
        : 'Processing — your video response shows to others once it is ready.'}
    </p>
  )
}
