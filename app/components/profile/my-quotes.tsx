import { Link, useFetcher } from '@remix-run/react'
import type { FormFailure } from '~/lib/forms'
import { TrashIcon } from '~/components/icons'
import { Alert } from '~/components/ui/alert'
import { ConfirmAction } from '~/components/ui/confirm-action'
import { FieldError } from '~/components/ui/field'
import { QuoteResponse } from '~/components/video/quotes'
import { formatCount, formatDate, formatDuration } from '~/lib/format'
import type { UserQuote } from '~/lib/quote-types'
import { momentParam } from '~/lib/schemas/quote'

/** What the profile's action answers a scripted delete (and a refused plain one). */
export type MyQuotesActionData =
  { ok: true; intent: 'delete-quote'; message: string } | (FormFailure & { intent: 'delete-quote'; formError: string })

/**
 * Profile → My Quotes (docs/product.md, Screens; ADR 0014): each quote's text,
 * the quoted video's card, the response video if any (or that it is still
 * processing), its likes, View Original (at the quote's moment) and delete
 * with a confirmation — a dialog with JavaScript, a second button in a
 * disclosure without. The delete posts `intent=delete-quote` to the page's
 * own action (`/profile?tab=quotes`).
 */
export function MyQuotesPanel({ quotes, error }: { quotes: UserQuote[]; error: string | null }) {
  return (
    <section aria-labelledby="my-quotes-title" className="mt-6" id="my-quotes">
      <h2 id="my-quotes-title" tabIndex={-1} className="text-heading">
        My Quotes
      </h2>
      {error ? (
        <div className="mt-3">
          <Alert tone="error">{error}</Alert>
        </div>
      ) : quotes.length === 0 ? (
        <p className="text-caption mt-3 rounded-card border border-dashed border-ink-300 px-4 py-8 text-center">
          You have not quoted a video yet.{' '}
          <Link to="/create-quote" className="font-semibold text-brand-700">
            Quote one
          </Link>
        </p>
      ) : (
        <ul className="mt-3 flex flex-col gap-4">
          {quotes.map((quote) => (
            <MyQuoteItem key={quote.id} quote={quote} />
          ))}
        </ul>
      )}
    </section>
  )
}

function MyQuoteItem({ quote }: { quote: UserQuote }) {
  const deleter = useFetcher<MyQuotesActionData>({ key: `my-quote-delete-${quote.id}` })
  const deleting = deleter.state !== 'idle'
  const failure = deleter.state === 'idle' && deleter.data && !deleter.data.ok ? deleter.data.formError : null
  const original = quote.originalVideo
  return (
    <li className={`card p-4 ${deleting ? 'opacity-50' : ''}`} data-testid="my-quote" id={`quote-${quote.id}`}>
      <p className="text-caption">
        {quote.type === 'video' ? 'Video response' : 'Text comment'} ·{' '}
        <time dateTime={quote.createdAt}>{formatDate(quote.createdAt)}</time>
      </p>
      {quote.body ? <p className="text-body mt-2 whitespace-pre-line">{quote.body}</p> : null}
      {quote.response ? (
        <QuoteResponse quoteId={quote.id} response={quote.response} title={`Your video response to ${original.title}`} />
      ) : null}
      <Link
        to={`/video/${original.id}`}
        className="mt-3 flex items-center gap-3 rounded-xl p-2 ring-1 ring-inset ring-ink-200 hover:bg-ink-50"
        aria-label={`Quoted video: ${original.title} by ${original.creator.username}`}
      >
        {original.thumbnailUrl ? (
          <img
            src={original.thumbnailUrl}
            alt=""
            className="h-12 w-20 shrink-0 rounded-lg bg-ink-100 object-cover"
            loading="lazy"
          />
        ) : (
          <span aria-hidden="true" className="h-12 w-20 shrink-0 rounded-lg bg-ink-100" />
        )}
        <span className="min-w-0">
          <span className="block truncate text-sm font-semibold text-ink-900">{original.title}</span>
          <span className="block truncate text-caption">by {original.creator.username}</span>
        </span>
      </Link>
      <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
        <span className="text-ink-700" data-testid="my-quote-likes">
          {formatCount(quote.likes, 'like')}
        </span>
        <Link
          to={`/video/${original.id}${momentParam(quote.moment)}`}
          className="font-semibold text-brand-700 hover:text-brand-800"
        >
          View Original{quote.moment !== null ? ` at ${formatDuration(quote.moment)}` : ''}
        </Link>
        {quote.canDelete ? (
          <span className="ml-auto">
            <ConfirmAction
              label={
                <>
                  <TrashIcon />
                  Delete
                </>
              }
              triggerClassName="inline-flex min-h-11 items-center gap-1.5 rounded-full px-3 font-semibold text-red-700 hover:bg-red-50"
              title="Delete this quote?"
              description="Your quote and its likes are removed for everyone. This cannot be undone."
              fields={{ intent: 'delete-quote', quoteId: quote.id, js: '1' }}
              action="/profile?tab=quotes"
              fetcherKey={`my-quote-delete-${quote.id}`}
              focusAfterId="my-quotes-title"
              preventScrollReset
              confirmLabel="Delete quote"
              pendingLabel="Deleting…"
              fallback={
                <details>
                  <summary className="inline-flex min-h-11 cursor-pointer list-none items-center rounded-full px-3 font-semibold text-red-700 hover:bg-red-50 [&::-webkit-details-marker]:hidden">
                    Delete
                  </summary>
                  <form method="post" action="/profile?tab=quotes" className="mt-2 flex flex-col gap-2">
                    <p className="text-ink-800">Delete this quote?</p>
                    <input type="hidden" name="intent" value="delete-quote" />
                    <input type="hidden" name="quoteId" value={quote.id} />
                    <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
                      Delete quote
                    </button>
                  </form>
                </details>
              }
            />
          </span>
        ) : null}
      </div>
      {failure ? <FieldError>{failure}</FieldError> : null}
    </li>
  )
}
