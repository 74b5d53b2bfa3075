import { useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { HeartIcon } from '~/components/icons'
import { useHydrated } from '~/components/use-hydrated'
import { formatCount } from '~/lib/format'
import type { VideoActionData } from '~/lib/video-page'
import type { LikeState } from '~/lib/video-types'

/**
 * A like toggle: a plain form post without JS; with JS a fetcher whose
 * button flips at once (optimistic), then shows the server's count, or
 * goes back to the last confirmed state with the error.
 */
export function useLikeToggle(fetcherKey: string, intent: 'like' | 'quote-like', initial: LikeState) {
  const fetcher = useFetcher<VideoActionData>({ key: fetcherKey })
  const { likes, hasLiked } = initial
  const [confirmed, setConfirmed] = useState<LikeState>({ likes, hasLiked })
  // Fresh loader data (another action revalidated the page) is the server's word too.
  useEffect(() => setConfirmed({ likes, hasLiked }), [likes, hasLiked])
  const result = fetcher.state === 'idle' && fetcher.data && fetcher.data.intent === intent ? fetcher.data : undefined
  useEffect(() => {
    if (result?.ok && 'likes' in result) setConfirmed({ likes: result.likes, hasLiked: result.hasLiked })
  }, [result])
  let shown = confirmed
  const pending = fetcher.formData?.get('like')
  if (typeof pending === 'string') {
    const want = pending === 'true'
    if (want !== confirmed.hasLiked) shown = { hasLiked: want, likes: Math.max(0, confirmed.likes + (want ? 1 : -1)) }
  }
  const error = result && !result.ok ? result.formError : null
  return { fetcher, shown, error }
}

export function VideoLikeButton({
  videoId,
  likes,
  hasLiked,
  noJsError,
}: LikeState & { videoId: string; noJsError: string | null }) {
  const hydrated = useHydrated()
  const { fetcher, shown, error } = useLikeToggle(`like-${videoId}`, 'like', { likes, hasLiked })
  const message = error ?? noJsError
  return (
    <fetcher.Form method="post" preventScrollReset className="relative">
      <input type="hidden" name="intent" value="like" />
      <input type="hidden" name="like" value={String(!shown.hasLiked)} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <button
        type="submit"
        aria-pressed={shown.hasLiked}
        data-testid="like-button"
        data-like-count={shown.likes}
        className={`btn ${shown.hasLiked ? 'bg-rose-50 text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-100' : 'bg-white text-ink-900 ring-1 ring-inset ring-ink-200 hover:bg-ink-100'}`}
      >
        <HeartIcon filled={shown.hasLiked} />
        <span>{shown.hasLiked ? 'Liked' : 'Like'}</span>
        <span className="tabular-nums" aria-label={formatCount(shown.likes, 'like')}>
          {shown.likes}
        </span>
      </button>
      {message ? (
        <p
          role="alert"
          className="absolute left-0 top-full z-10 mt-1 whitespace-nowrap rounded-lg bg-red-50 px-2 py-1 text-xs font-medium text-red-800 ring-1 ring-red-200"
        >
          {message}
        </p>
      ) : null}
    </fetcher.Form>
  )
}

export function QuoteLikeButton({ quoteId, likes, hasLiked }: LikeState & { quoteId: string }) {
  const hydrated = useHydrated()
  const { fetcher, shown, error } = useLikeToggle(`quote-like-${quoteId}`, 'quote-like', { likes, hasLiked })
  return (
    <fetcher.Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="quote-like" />
      <input type="hidden" name="targetId" value={quoteId} />
      <input type="hidden" name="like" value={String(!shown.hasLiked)} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <button
        type="submit"
        aria-pressed={shown.hasLiked}
        aria-label={`Like quote, ${formatCount(shown.likes, 'like')}`}
        data-testid="quote-like-button"
        className={`inline-flex min-h-11 items-center gap-1.5 rounded-full px-3 text-sm font-semibold transition-colors ${shown.hasLiked ? 'text-rose-700 hover:bg-rose-50' : 'text-ink-600 hover:bg-ink-100'}`}
      >
        <HeartIcon filled={shown.hasLiked} />
        <span className="tabular-nums">{shown.likes}</span>
      </button>
      {error ? (
        <span role="alert" className="ml-1 text-xs font-medium text-red-700">
          {error}
        </span>
      ) : null}
    </fetcher.Form>
  )
}
