import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useLocation } from '@remix-run/react'
import { CreatorCardView } from '~/components/creators/creator-card'
import { SearchBox } from '~/components/search-box'
import { StatusCard } from '~/components/status-card'
import { Page } from '~/components/ui/page'
import { EmptyState } from '~/components/video-grid'
import { pluralNoun } from '~/lib/format'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { listCreators } from '~/server/creators.server'
import { jsonWithHeaders, loadFailure } from '~/server/http/responses.server'
import { getSession } from '~/server/session.server'

/**
 * GET /creators?search=&after= — Discover Creators (docs/product.md: Discover Creators;
 * public). A count badge, a search of names and bios (server-side, on an
 * index), creator cards with Follow, and keyset pages (`after`). A failure
 * is shown in the page (status 500) with Try Again.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, claims, headers } = await getSession(request, context)
  const url = new URL(request.url)
  const search = (url.searchParams.get('search') ?? '').slice(0, 200)
  const after = url.searchParams.get('after')
  const signedIn = Boolean(user)
  try {
    const page = await listCreators(claims, { search, cursor: after })
    return jsonWithHeaders({ page, search, after, signedIn }, 200, headers)
  } catch (error) {
    console.warn('[creators] could not load creators:', error instanceof Error ? error.message : error)
    const failure = loadFailure(error)
    return jsonWithHeaders({ page: null, search, after, signedIn }, failure.status, headers, failure.headers)
  }
}

export default function CreatorsPage() {
  const { page, search, after, signedIn } = useLoaderData<typeof loader>()
  const location = useLocation()
  const searching = Boolean(search.trim())
  const href = (extra: Record<string, string>) => {
    const params = new URLSearchParams()
    if (search) params.set('search', search)
    for (const [key, value] of Object.entries(extra)) params.set(key, value)
    const query = params.toString()
    return `/creators${query ? `?${query}` : ''}`
  }

  return (
    <Page>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-title flex items-center gap-3">
            Discover Creators
            {page ? (
              <span
                className="inline-flex min-w-8 items-center justify-center rounded-full bg-brand-600 px-2.5 py-0.5 text-sm font-semibold text-white"
                data-testid="creator-count"
                aria-label={`${page.total} ${searching ? 'matching ' : ''}${pluralNoun(page.total, 'creator')}`}
              >
                {page.total.toLocaleString('en-US')}
              </span>
            ) : null}
          </h1>
          <p className="text-body mt-1">Follow the people whose lessons you like, and never miss a new one.</p>
        </div>
      </div>
      <SearchBox action="/creators" value={search} placeholder="Search creators by name or bio..." label="Search creators" />

      <div className="mt-6 flex flex-col gap-6">
        {after && page ? (
          <p className="text-caption">
            <Link to={href({})} className="font-medium text-brand-700 hover:underline">
              ← Back to the first page
            </Link>
          </p>
        ) : null}
        {!page ? (
          <EmptyState
            title={CREATOR_MESSAGES.loadFailed}
            message="Something went wrong on our side. Check your connection and try again."
            action={{ href: `${location.pathname}${location.search}`, label: 'Try Again' }}
            tone="error"
          />
        ) : page.items.length === 0 ? (
          searching ? (
            <EmptyState
              title="No creators match your search"
              message={`Nobody’s name or bio matches “${search.trim()}”. Try another word.`}
              action={{ href: '/creators', label: 'Clear search' }}
            />
          ) : (
            <EmptyState
              title="No creators yet"
              message="Creators appear here as soon as they join Lumen."
              action={{ href: '/feed', label: 'Back to Feed' }}
            />
          )
        ) : (
          <>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Creators">
              {page.items.map((creator) => (
                <li key={creator.id} className="flex min-w-0 [&>article]:w-full">
                  <CreatorCardView creator={creator} signedIn={signedIn} />
                </li>
              ))}
            </ul>
            {page.nextCursor ? (
              <div className="flex justify-center">
                <Link to={href({ after: page.nextCursor })} className="btn-secondary min-w-40" rel="next">
                  More creators
                </Link>
              </div>
            ) : null}
          </>
        )}
      </div>
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'Discover Creators — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title={CREATOR_MESSAGES.loadFailed}
      message="Please try again in a moment."
      action={{ href: '/creators', label: 'Try Again' }}
    />
  )
}
