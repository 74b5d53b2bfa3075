import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from '@remix-run/react'
import { CourseGrid } from '~/components/courses/course-card'
import { CreatorHeader, TabLinks } from '~/components/creators/creator-header'
import { StatusCard } from '~/components/status-card'
import { Page } from '~/components/ui/page'
import { cardPage } from '~/components/video-card'
import { EmptyState, PagedVideoGrid, type PagedLoaderData } from '~/components/video-grid'
import type { CourseCardItem } from '~/lib/course-types'
import { formatDate } from '~/lib/format'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { listCreatorCourses } from '~/server/courses.server'
import { getCreator } from '~/server/creators.server'
import { isDomainError } from '~/server/errors.server'
import { FEED_PAGE_SIZE } from '~/server/feed/lists.server'
import { listCreatorVideos } from '~/server/feed/people.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { getSession } from '~/server/session.server'

/**
 * GET /creator/:id?tab=videos|about&cursor= — a creator's page (docs/product.md: Creator
 * profile; public): header with counts and Follow/Unfollow, tab Videos
 * (their public videos and sparks, newest first, paged), Courses (ADR 0048) or About (bio,
 * joined date). An unknown or malformed id is 404 'Creator Not Found'.
 */
const TABS = [
  { id: 'videos', label: 'Videos' },
  { id: 'courses', label: 'Courses' },
  { id: 'about', label: 'About' },
] as const
type CreatorTab = (typeof TABS)[number]['id']

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, claims, headers } = await getSession(request, context)
  const url = new URL(request.url)
  const asked = url.searchParams.get('tab')
  const tab: CreatorTab = asked === 'about' || asked === 'courses' ? asked : 'videos'
  const id = params.id ?? ''
  try {
    const creator = await getCreator(claims, id)
    const page: PagedLoaderData['page'] =
      tab === 'videos'
        ? cardPage(await listCreatorVideos(claims, id, { cursor: url.searchParams.get('cursor'), limit: FEED_PAGE_SIZE }))
        : null
    const courses = tab === 'courses' ? await listCreatorCourses(claims, id) : null
    return jsonWithHeaders({ creator, tab, page, courses, own: user?.id === id, signedIn: Boolean(user) }, 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    throw error
  }
}

export default function CreatorPage() {
  const { creator, tab, page, courses, own, signedIn } = useLoaderData<typeof loader>()
  const base = `/creator/${creator.id}`
  return (
    <Page>
      <div className="mx-auto flex max-w-4xl flex-col gap-6">
        <CreatorHeader creator={creator} signedIn={signedIn} />
        <TabLinks label="Creator sections" tabs={TABS} current={tab} href={(next) => `${base}?tab=${next}`} />
        <section id="videos" aria-label={TABS.find((item) => item.id === tab)!.label}>
          {tab === 'courses' ? (
            <CreatorCourses courses={courses ?? []} username={creator.username} own={own} />
          ) : tab === 'about' ? (
            <div className="card p-6">
              <h2 className="text-heading">About {creator.username}</h2>
              <p className="text-body mt-2 whitespace-pre-line">{creator.bio || 'No bio yet.'}</p>
              <p className="text-caption mt-4">Joined {formatDate(creator.joinedAt)}</p>
            </div>
          ) : page && page.items.length > 0 ? (
            <PagedVideoGrid
              key={creator.id}
              first={page}
              variant="video"
              noun="videos"
              failedMessage="Failed to load videos"
              pageHref={(next) => `${base}?tab=videos&cursor=${encodeURIComponent(next)}`}
            />
          ) : (
            <EmptyState
              title="No videos yet"
              message={`${creator.username} has not published any videos or sparks yet.`}
              action={{ href: '/creators', label: 'Discover more creators' }}
            />
          )}
        </section>
      </div>
    </Page>
  )
}

/** The Courses tab: their courses (with drafts, to themselves), or an empty state. */
function CreatorCourses({ courses, username, own }: { courses: CourseCardItem[]; username: string; own: boolean }) {
  return courses.length ? (
    <div className="flex flex-col gap-4">
      {own ? (
        <Link to="/courses/new" className="btn-primary w-fit">
          New course
        </Link>
      ) : null}
      <CourseGrid courses={courses} headingLevel={2} />
    </div>
  ) : (
    <EmptyState
      title="No courses yet"
      message={own ? 'Put your videos and sparks in an order learners can follow.' : `${username} has not published a course yet.`}
      action={own ? { href: '/courses/new', label: 'New course' } : { href: '/courses', label: 'Browse courses' }}
    />
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: loaderData ? `${loaderData.creator.username} — Lumen` : `${CREATOR_MESSAGES.notFound} — Lumen` },
]

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusCard
        title={CREATOR_MESSAGES.notFound}
        message="This creator doesn't exist or their account was removed."
        action={{ href: '/feed', label: 'Back to Feed' }}
      />
    )
  }
  return (
    <StatusCard
      title="Something went wrong"
      message="We could not load this creator. Please try again in a moment."
      action={{ href: '/creators', label: 'Discover Creators' }}
    />
  )
}
