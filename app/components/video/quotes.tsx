import { Link, useFetcher } from '@remix-run/react'
import { TrashIcon } from '~/components/icons'
import { ReportControl } from '~/components/report-dialog'
import { Alert } from '~/components/ui/alert'
import { FieldError } from '~/components/ui/field'
import { useHydrated } from '~/components/use-hydrated'
import { UserAvatar } from '~/components/user-avatar'
import { VideoPlayer } from '~/components/video-player'
import { excerpt, formatDate } from '~/lib/format'
import type { VideoActionData, VideoActionFailure, VideoPageQuote } from '~/lib/video-page'
import { IconButton } from './icon-button'
import { QuoteLikeButton } from './like-buttons'
import { PersonName } from './person-name'

export function QuotesSection({
  videoId,
  quotes,
  count,
  failed,
}: {
  videoId: string
  quotes: VideoPageQuote[]
  count: number
  failed: VideoActionFailure | undefined
}) {
  const quoteFailure = failed && (failed.intent === 'delete-quote' || failed.intent === 'quote-like') ? failed : undefined
  return (
    <aside id="quotes" aria-labelledby="quotes-heading" className="scroll-mt-24">
      <div className="flex items-center justify-between gap-3">
        <h2 id="quotes-heading" className="text-heading">
          Quotes <span className="text-caption font-normal">({count})</span>
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
          <Alert tone="error">{quoteFailure.error}</Alert>
        </div>
      ) : null}
      {quotes.length === 0 ? (
        <p className="text-caption mt-4 rounded-card border border-dashed border-ink-300 px-4 py-8 text-center">
          No quotes yet. Share your take on this video.
        </p>
      ) : (
        <ul className="mt-4 flex flex-col gap-4">
          {quotes.map((quote) => (
            <QuoteItem key={quote.id} quote={quote} />
          ))}
        </ul>
      )}
    </aside>
  )
}

function QuoteItem({ quote }: { quote: VideoPageQuote }) {
  const hydrated = useHydrated()
  const deleter = useFetcher<VideoActionData>({ key: `delete-quote-${quote.id}` })
  const deleting = deleter.state !== 'idle'
  const deleteError = deleter.state === 'idle' && deleter.data && !deleter.data.ok ? deleter.data.error : null
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
      {quote.body ? <p className="text-body mt-3 whitespace-pre-line break-words">{quote.body}</p> : null}
      {quote.response ? (
        quote.response.status === 'ready' ? (
          <VideoPlayer
            videoId={quote.id}
            title={`Video response by ${quote.creator.username}`}
            hlsUrl={quote.response.hlsUrl}
            mp4Url={quote.response.mp4Url}
            className="mt-3 aspect-video w-full overflow-hidden rounded-xl bg-ink-950"
          />
        ) : (
          <p className="text-caption mt-3 rounded-xl bg-ink-100 px-3 py-2">
            {quote.response.status === 'failed'
              ? 'This video response could not be processed.'
              : 'The video response is being prepared…'}
          </p>
        )
      ) : null}
      <div className="mt-3 flex items-center gap-1">
        <QuoteLikeButton quoteId={quote.id} likes={quote.likes} hasLiked={quote.hasLiked} />
        <ReportControl
          contentType="quote"
          contentId={quote.id}
          authorId={quote.creator.id}
          contentLabel={excerpt(quote.body || `quote by ${quote.creator.username}`)}
        />
        {quote.canDelete ? (
          <deleter.Form
            method="post"
            preventScrollReset
            className="ml-auto"
            onSubmit={(event) => {
              if (!window.confirm('Delete this quote?')) event.preventDefault()
            }}
          >
            <input type="hidden" name="intent" value="delete-quote" />
            <input type="hidden" name="targetId" value={quote.id} />
            {hydrated ? <input type="hidden" name="js" value="1" /> : null}
            <IconButton label="Delete quote" disabled={deleting}>
              <TrashIcon />
            </IconButton>
          </deleter.Form>
        ) : null}
      </div>
      {deleteError ? <FieldError>{deleteError}</FieldError> : null}
    </li>
  )
}
