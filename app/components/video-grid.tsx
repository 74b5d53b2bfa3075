import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { AlertCircleIcon, VideoOutlineIcon } from '~/components/icons'
import { MAX_SHOWN } from '~/lib/browse'
import { Spinner } from './ui/spinner'
import { useFetcherAnswer } from './use-fetcher-answer'
import { useHydrated } from './use-hydrated'
import { VideoCard, type VideoCardData } from './video-card'

/**
 * A grid of video or spark cards with "Load more". Pages come by cursor
 * (keyset, see app/server/feed/). Without JavaScript the button is a
 * link to the next page (`?cursor=…`); with JavaScript a fetcher loads that
 * same URL's data and the cards are appended, focus moving to the first new
 * card and a polite announcement saying how many arrived.
 *
 * Mount it with a `key` that changes with the filters: appended pages belong
 * to one list, and a revalidation of the first page does not drop them.
 */
export interface VideoPageData {
  items: VideoCardData[]
  nextCursor: string | null
}

/** What the page's loader answers a fetcher: a page, or null when loading failed. */
export interface PagedLoaderData {
  page: VideoPageData | null
}

const grids = {
  video: 'grid gap-5 sm:grid-cols-2 lg:grid-cols-3',
  spark: 'grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-5',
} as const

export function PagedVideoGrid({
  first,
  variant,
  pageHref,
  loadMoreLabel = 'Load more',
  moreHref,
  noun,
  failedMessage,
}: {
  first: VideoPageData
  variant: keyof typeof grids
  /** The URL of the page after `cursor` (same filters). */
  pageHref: (cursor: string) => string
  /**
   * Without JavaScript: the URL of the list showing everything so far plus the
   * next page (`?shown=`), given how many cards are shown; the link jumps to the
   * first new card. Past MAX_SHOWN cards (or when absent) the link pages by cursor.
   */
  moreHref?: (shown: number) => string | null
  loadMoreLabel?: string
  /** "videos" or "sparks", for announcements. */
  noun: string
  failedMessage: string
}) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<PagedLoaderData>()
  const [items, setItems] = useState(first.items)
  const [nextCursor, setNextCursor] = useState(first.nextCursor)
  const [announcement, setAnnouncement] = useState('')
  const [failed, setFailed] = useState(false)
  const gridRef = useRef<HTMLUListElement>(null)
  /** The first new card, which takes focus once it is rendered (the effect below). */
  const [focusNext, setFocusNext] = useState<string | null>(null)

  // The next page's answer, taken while rendering (useFetcherAnswer says why not in an effect).
  const answer = useFetcherAnswer(fetcher)
  if (answer) {
    setFailed(!answer.page)
    if (answer.page) {
      const known = new Set(items.map((item) => item.id))
      const fresh = answer.page.items.filter((item) => !known.has(item.id))
      setItems([...items, ...fresh])
      setNextCursor(answer.page.nextCursor)
      setAnnouncement(fresh.length ? `${fresh.length} more ${noun} loaded` : `No more ${noun}`)
      setFocusNext(fresh[0]?.id ?? null)
    }
  }

  // After the new cards are committed: a frame callback could run before React rendered them.
  useEffect(() => {
    const link = focusNext ? gridRef.current?.querySelector<HTMLElement>(`[data-video-card="${focusNext}"] .card-link`) : null
    if (!link) return
    setFocusNext(null)
    link.focus()
  }, [focusNext, items])

  const loading = fetcher.state !== 'idle'
  return (
    <div>
      <ul ref={gridRef} className={grids[variant]}>
        {items.map((video, index) => (
          <li key={video.id} id={`card-${index + 1}`} className="flex min-w-0 scroll-mt-24">
            <div className="w-full min-w-0 [&>article]:h-full">
              <VideoCard video={video} eager={index < 5} priority={index === 0} />
            </div>
          </li>
        ))}
      </ul>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {failed ? (
        <p role="alert" className="mt-6 text-center text-sm font-medium text-red-700">
          {failedMessage}
        </p>
      ) : null}
      {nextCursor ? (
        <div className="mt-8 flex justify-center">
          {hydrated ? (
            <button
              type="button"
              className="btn-secondary min-w-40"
              aria-disabled={loading || undefined}
              onClick={() => {
                if (!loading) fetcher.load(pageHref(nextCursor))
              }}
            >
              {loading ? <Spinner label={`Loading more ${noun}`} className="h-4 w-4" /> : null}
              {failed ? 'Try again' : loadMoreLabel}
            </button>
          ) : (
            <Link
              to={moreHref?.(items.length) ? `${moreHref(items.length)}#card-${items.length + 1}` : pageHref(nextCursor)}
              className="btn-secondary min-w-40"
              rel="next"
            >
              {loadMoreLabel}
            </Link>
          )}
        </div>
      ) : items.length > 0 ? (
        <p className="text-caption mt-8 text-center">You’ve reached the end.</p>
      ) : null}
    </div>
  )
}

/** The empty and error states of the lists: one look, a hint and a way forward. */
export function EmptyState({
  title,
  message,
  action,
  tone = 'neutral',
  dark = false,
}: {
  title: string
  message: string
  action: { href: string; label: string }
  tone?: 'neutral' | 'error'
  dark?: boolean
}) {
  return (
    <section
      role={tone === 'error' ? 'alert' : undefined}
      className={`flex flex-col items-center rounded-card px-6 py-14 text-center ${
        dark ? 'bg-white/5 text-white ring-1 ring-white/10' : 'card'
      }`}
    >
      <span
        className={`inline-flex h-14 w-14 items-center justify-center rounded-full ${
          tone === 'error' ? 'bg-red-100 text-red-700' : dark ? 'bg-white/10 text-spark-300' : 'bg-brand-50 text-brand-600'
        }`}
      >
        {tone === 'error' ? <AlertCircleIcon /> : <VideoOutlineIcon />}
      </span>
      <h2 className={`text-heading mt-4 ${dark ? 'text-white' : ''}`}>{title}</h2>
      <p className={`mt-1 max-w-md text-sm ${dark ? 'text-white/70' : 'text-ink-600'}`}>{message}</p>
      <Link to={action.href} className="btn-primary mt-6">
        {action.label}
      </Link>
    </section>
  )
}

/** `?search=…&category=…` (plus `extra`) for a list's links, leaving out empty filters; '' when none. */
/** The no-JS "Load more" URL showing the first `shown` cards, or null past MAX_SHOWN (then the list pages by cursor). */
/** The filters a browse page keeps in its links. */
export interface BrowseFilters {
  search: string
  category: string
  captions?: boolean
}

export function showMoreHref(path: string, filters: BrowseFilters, shown: number): string | null {
  return shown <= MAX_SHOWN ? `${path}${filterQuery(filters, { shown: String(shown) })}` : null
}

export function filterQuery(filters: BrowseFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  if (filters.search) params.set('search', filters.search)
  if (filters.category) params.set('category', filters.category)
  if (filters.captions) params.set('captions', '1')
  for (const [key, value] of Object.entries(extra)) params.set(key, value)
  const query = params.toString()
  return query ? `?${query}` : ''
}
