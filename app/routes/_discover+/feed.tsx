import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useLocation, type ShouldRevalidateFunction } from '@remix-run/react'
import { CaptionsFilter } from '~/components/captions-filter'
import { CourseGrid } from '~/components/courses/course-card'
import { CategoryFilter } from '~/components/category-filter'
import { SearchBox } from '~/components/search-box'
import { StatusCard } from '~/components/status-card'
import { ContinueWatchingRow } from '~/components/video/continue-watching'
import { Alert } from '~/components/ui/alert'
import { Page, PageHeader } from '~/components/ui/page'
import { cardData, cardPage } from '~/components/video-card'
import { EmptyState, filterQuery, PagedVideoGrid, showMoreHref, type PagedLoaderData } from '~/components/video-grid'
import { categoryName } from '~/lib/catalog'
import { searchCourses } from '~/server/courses.server'
import { FEED_PAGE_SIZE, loadFeed } from '~/server/feed/lists.server'
import { listContinueWatching } from '~/server/progress.server'
import { browseQuery, firstPageSize } from '~/lib/browse'
import { jsonWithHeaders, loadFailure } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'

export const FEED_MESSAGES = {
  empty: 'No videos available',
  failed: 'Failed to load videos',
  fallback: 'Showing public videos (feed unavailable).',
} as const

/**
 * GET /feed?search=&category=&captions=1&cursor= — the long-form feed (docs/product.md: Feed);
 * the search also looks inside what is said (captions, ADR 0022). Unfiltered, its
 * first page starts with Continue watching (ADR 0034) when there is something to continue.
 * Login required. `cursor` names the page after a given card (keyset). A
 * failure is shown in the page (status 500) with a retry link, so the
 * filters stay on screen.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const { filters, cursor, shown } = browseQuery(request.url)
  try {
    const limit = firstPageSize(FEED_PAGE_SIZE, { cursor, shown })
    const unfiltered = !cursor && !filters.search.trim() && !filters.category && !filters.captions
    const [{ fallback, ...page }, continueWatching, courses] = await Promise.all([
      loadFeed(claims, { type: 'video', ...filters, cursor, limit }),
      // The first row, on the feed's first page only (ADR 0034); the feed shows without it if it fails.
      unfiltered
        ? listContinueWatching(claims).catch((error: unknown) => {
            console.warn('[feed] could not load Continue watching:', error instanceof Error ? error.message : error)
            return []
          })
        : [],
      // Courses whose title or description match the search, above its first page (ADR 0048).
      filters.search.trim() && !cursor ? searchCourses(claims, filters.search) : [],
    ])
    // Only what the cards show goes into the page's data (cardData).
    const data: PagedLoaderData = { page: cardPage(page) }
    return jsonWithHeaders(
      { ...data, fallback, filters, cursor, pageSize: FEED_PAGE_SIZE, continueWatching: continueWatching.map(cardData), courses },
      200,
      headers,
    )
  } catch (error) {
    console.warn('[feed] could not load the feed:', error instanceof Error ? error.message : error)
    const failure = loadFailure(error)
    return jsonWithHeaders(
      { page: null, fallback: false, filters, cursor, pageSize: FEED_PAGE_SIZE, continueWatching: [], courses: [] },
      failure.status,
      headers,
      failure.headers,
    )
  }
}

/** Reporting a card (a fetcher post to /report) changes nothing the feed shows. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.startsWith('/report') ? false : defaultShouldRevalidate

export default function FeedPage() {
  const { page, fallback, filters, cursor, pageSize, continueWatching, courses } = useLoaderData<typeof loader>()
  const location = useLocation()
  const filtered = Boolean(filters.search.trim() || filters.category || filters.captions)
  const query = (extra: Record<string, string>) => `/feed${filterQuery(filters, extra)}`

  return (
    <Page>
      <PageHeader title="Your Feed" subtitle="Lessons from Lumen’s creators, newest first." />
      <SearchBox action="/feed" value={filters.search}>
        <CategoryFilter value={filters.category} />
        <CaptionsFilter checked={filters.captions} />
      </SearchBox>

      <div className="mt-6 flex flex-col gap-6">
        {fallback ? <Alert tone="warning">{FEED_MESSAGES.fallback}</Alert> : null}
        <ContinueWatchingRow items={continueWatching} />
        {courses.length ? (
          <section aria-labelledby="feed-courses">
            <h2 id="feed-courses" className="text-heading mb-4">
              Courses
            </h2>
            <CourseGrid courses={courses} />
          </section>
        ) : null}
        {filtered && page && page.items.length > 0 ? (
          <p className="text-caption" aria-live="polite">
            {describeFilters(filters)} ·{' '}
            <Link to="/feed" className="font-medium text-brand-700 hover:underline">
              Clear filters
            </Link>
          </p>
        ) : null}
        {cursor && page ? (
          <p className="text-caption">
            <Link to={query({})} className="font-medium text-brand-700 hover:underline">
              ← Back to the newest videos
            </Link>
          </p>
        ) : null}

        {!page ? (
          <EmptyState
            title={FEED_MESSAGES.failed}
            message="Something went wrong on our side. Check your connection and try again."
            action={{ href: `${location.pathname}${location.search}`, label: 'Try again' }}
            tone="error"
          />
        ) : page.items.length === 0 ? (
          <EmptyState
            title={FEED_MESSAGES.empty}
            message={
              filtered
                ? `Nothing matches ${describeFilters(filters).replace(/^Showing /, '')} yet. Try another word or category.`
                : 'New lessons appear here as soon as creators publish them. In the meantime, try a spark.'
            }
            action={filtered ? { href: '/feed', label: 'Clear filters' } : { href: '/sparks', label: 'Watch sparks' }}
          />
        ) : (
          <PagedVideoGrid
            key={location.search}
            first={page}
            variant="video"
            noun="videos"
            failedMessage={FEED_MESSAGES.failed}
            pageHref={(next) => query({ cursor: next })}
            moreHref={(shown) => showMoreHref('/feed', filters, shown + pageSize)}
          />
        )}
      </div>
    </Page>
  )
}

function describeFilters(filters: { search: string; category: string; captions: boolean }): string {
  const parts = []
  if (filters.search.trim()) parts.push(`“${filters.search.trim()}”`)
  if (filters.category) parts.push(`in ${categoryName(filters.category)}`)
  if (filters.captions) parts.push(parts.length ? 'with captions' : 'videos with captions')
  return `Showing ${parts.join(' ')}`
}

export const meta: MetaFunction = () => [{ title: 'Your Feed — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title={FEED_MESSAGES.failed}
      message="Something went wrong on our side. Please try again in a moment."
      action={{ href: '/feed', label: 'Try again' }}
    />
  )
}
