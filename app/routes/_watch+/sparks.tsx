import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useLocation, type ShouldRevalidateFunction } from '@remix-run/react'
import { CaptionsFilter } from '~/components/captions-filter'
import { CategoryFilter } from '~/components/category-filter'
import { BoltIcon } from '~/components/icons'
import { SearchBox } from '~/components/search-box'
import { StatusCard } from '~/components/status-card'
import { Page, PageHeader } from '~/components/ui/page'
import { cardPage } from '~/components/video-card'
import { EmptyState, filterQuery, PagedVideoGrid, showMoreHref, type PagedLoaderData } from '~/components/video-grid'
import { LIMITS } from '~/lib/catalog'
import { listVideos } from '~/server/feed/lists.server'
import { browseQuery, firstPageSize, MAX_SHOWN } from '~/lib/browse'
import { jsonWithHeaders, loadFailure } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { SparkFeedTabs } from '~/components/reels/not-interested'
import { feedParams, parseSparkFeed } from '~/lib/for-you'
import { listSparkFeed } from '~/server/for-you.server'

export const SPARKS_MESSAGES = {
  empty: 'No sparks available yet',
  failed: 'Failed to load sparks. Please try again later.',
} as const

/**
 * GET /sparks?feed=following&search=&category=&captions=1&cursor= — the sparks grid (docs/product.md: Sparks),
 * five at a time (docs/product.md, Limits and timers: sparks page size 5), with Watch as Reels keeping
 * the filters. Without a filter the grid is a ranked feed (ADR 0045): For You (the default)
 * or Following, the tabs at the top; a search or category lists newest first. Login required.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const { filters, cursor, shown } = browseQuery(request.url)
  const feed = parseSparkFeed(new URL(request.url).searchParams.get('feed'))
  const ranked = !filters.search.trim() && !filters.category && !filters.captions
  try {
    const limit = firstPageSize(LIMITS.sparksPageSize, { cursor, shown })
    const data: PagedLoaderData = {
      // Only what the cards show goes into the page's data (cardData).
      page: cardPage(
        ranked
          ? await listSparkFeed(claims, { feed, cursor, limit })
          : await listVideos(claims, { type: 'spark', ...filters, cursor, limit }),
      ),
    }
    return jsonWithHeaders({ ...data, filters, cursor, feed, ranked }, 200, headers)
  } catch (error) {
    console.warn('[sparks] could not load sparks:', error instanceof Error ? error.message : error)
    const failure = loadFailure(error)
    return jsonWithHeaders({ page: null, filters, cursor, feed, ranked }, failure.status, headers, failure.headers)
  }
}

/** Reporting a card (a fetcher post to /report) changes nothing the grid shows. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.startsWith('/report') ? false : defaultShouldRevalidate

export default function SparksPage() {
  const { page, filters, cursor, feed, ranked } = useLoaderData<typeof loader>()
  const feedQuery = ranked ? feedParams(feed) : {}
  const location = useLocation()
  const filtered = Boolean(filters.search.trim() || filters.category || filters.captions)
  const hasSparks = Boolean(page && page.items.length > 0)

  return (
    <Page>
      <PageHeader
        title="Sparks"
        subtitle="Big ideas in under a minute."
        actions={
          hasSparks ? (
            <Link to={`/sparks-reels${filterQuery(filters, feedQuery)}`} className="btn-primary bg-ink-900 hover:bg-ink-800">
              <BoltIcon className="h-4 w-4 text-spark-400" />
              Watch as Reels
            </Link>
          ) : null
        }
      />
      <SearchBox action="/sparks" value={filters.search} placeholder="Search by video name...">
        <CategoryFilter value={filters.category} />
        <CaptionsFilter checked={filters.captions} />
      </SearchBox>

      <div className="mt-4">
        <SparkFeedTabs
          current={ranked ? feed : null}
          href={(to) => `/sparks${filterQuery({ search: '', category: '', captions: false }, feedParams(to))}`}
        />
      </div>

      <div className="mt-6 flex flex-col gap-6">
        {filtered && hasSparks ? (
          <p className="text-caption">
            <Link to="/sparks" className="font-medium text-brand-700 hover:underline">
              Clear filters
            </Link>
          </p>
        ) : null}
        {cursor && page ? (
          <p className="text-caption">
            <Link to={`/sparks${filterQuery(filters, feedQuery)}`} className="font-medium text-brand-700 hover:underline">
              {ranked ? '← Back to the top' : '← Back to the newest sparks'}
            </Link>
          </p>
        ) : null}
        {!page ? (
          <EmptyState
            title={SPARKS_MESSAGES.failed}
            message="Check your connection and try again."
            action={{ href: `${location.pathname}${location.search}`, label: 'Try again' }}
            tone="error"
          />
        ) : page.items.length === 0 ? (
          <EmptyState
            title={SPARKS_MESSAGES.empty}
            message={
              filtered
                ? 'No spark matches this search or category. Try another word, or clear the filters.'
                : feed === 'following'
                  ? 'Clips from the creators you follow appear here. Find creators to follow on Discover Creators.'
                  : 'Creators’ short clips appear here as soon as they are published. The feed has longer lessons meanwhile.'
            }
            action={
              filtered
                ? { href: '/sparks', label: 'Clear filters' }
                : feed === 'following'
                  ? { href: '/creators', label: 'Discover creators' }
                  : { href: '/feed', label: 'Go to the feed' }
            }
          />
        ) : (
          <PagedVideoGrid
            key={location.search}
            first={page}
            variant="spark"
            noun="sparks"
            loadMoreLabel="Load More"
            failedMessage={SPARKS_MESSAGES.failed}
            pageHref={(next) => `/sparks${filterQuery(filters, { ...feedQuery, cursor: next })}`}
            moreHref={(shown) =>
              ranked
                ? shown + LIMITS.sparksPageSize <= MAX_SHOWN
                  ? `/sparks${filterQuery(filters, { ...feedQuery, shown: String(shown + LIMITS.sparksPageSize) })}`
                  : null
                : showMoreHref('/sparks', filters, shown + LIMITS.sparksPageSize)
            }
          />
        )}
      </div>
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'Sparks — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Sparks are unavailable"
      message={SPARKS_MESSAGES.failed}
      action={{ href: '/sparks', label: 'Try again' }}
    />
  )
}
