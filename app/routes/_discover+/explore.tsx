import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { CourseGrid } from '~/components/courses/course-card'
import { CreatorCardView } from '~/components/creators/creator-card'
import { StatusCard } from '~/components/status-card'
import { Page, PageHeader } from '~/components/ui/page'
import { cardData, VideoCard, type VideoCardData } from '~/components/video-card'
import { categoryName } from '~/lib/catalog'
import { FIELD_CATEGORIES } from '~/lib/interests'
import { listCourses } from '~/server/courses.server'
import { suggestCreators } from '~/server/creators.server'
import { listExploreVideos } from '~/server/feed/people.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { getOwnProfile } from '~/server/profiles.server'
import { getSession } from '~/server/session.server'

/**
 * /explore — discovery (the Following tab's empty state links here): creators
 * to follow and recent videos and sparks in the signed-in user's field of
 * interest and categories, falling back to the most watched; the newest courses (ADR 0048). Public: a
 * visitor gets the popular picks.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await getSession(request, context)
  const own = claims ? await getOwnProfile(claims) : null
  const categories = [
    ...new Set([
      ...(own?.categories.filter((category) => category.status !== 'rejected').map((category) => category.id) ?? []),
      ...(own?.fieldOfInterest ? (FIELD_CATEGORIES[own.fieldOfInterest] ?? []) : []),
    ]),
  ]
  const creators = await suggestCreators(claims, { categories, limit: 6 })
  const videos = await listExploreVideos(claims, { type: 'video', categories, limit: 6 })
  const sparks = await listExploreVideos(claims, { type: 'spark', categories, limit: 10 })
  const courses = (await listCourses(claims, { limit: 3 })).items
  return jsonWithHeaders(
    {
      signedIn: Boolean(claims),
      field: own?.fieldOfInterest ?? null,
      categories: categories.map(categoryName),
      creators,
      videos: { ...videos, items: videos.items.map(cardData) },
      sparks: { ...sparks, items: sparks.items.map(cardData) },
      courses,
    },
    200,
    headers,
  )
}

export default function Explore() {
  const { signedIn, field, categories, creators, videos, sparks, courses } = useLoaderData<typeof loader>()
  const about = categories.length
    ? `Picked for ${field ? `${field}: ` : ''}${categories.slice(0, 3).join(', ')}`
    : 'Popular on Lumen'
  return (
    <Page>
      <PageHeader title="Explore" subtitle={about} />
      <div className="flex flex-col gap-10">
        <section aria-labelledby="explore-creators">
          <div className="mb-4 flex items-end justify-between gap-3">
            <h2 id="explore-creators" className="text-heading">
              Creators to follow
            </h2>
            <Link to="/creators" className="text-sm font-semibold text-brand-700 hover:underline">
              All creators
            </Link>
          </div>
          {creators.length ? (
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {creators.map((creator) => (
                <li key={creator.id} className="flex min-w-0 [&>article]:w-full">
                  <CreatorCardView creator={creator} signedIn={signedIn} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-body">You follow every creator already. New ones appear on Discover Creators.</p>
          )}
        </section>
        <Shelf
          id="explore-videos"
          title={videos.popular ? 'Popular videos' : 'Recent videos in your field'}
          items={videos.items}
          more="/feed"
        />
        {courses.length ? (
          <section aria-labelledby="explore-courses">
            <div className="mb-4 flex items-end justify-between gap-3">
              <h2 id="explore-courses" className="text-heading">
                New courses
              </h2>
              <Link to="/courses" className="text-sm font-semibold text-brand-700 hover:underline">
                All courses
              </Link>
            </div>
            <CourseGrid courses={courses} />
          </section>
        ) : null}
        <Shelf
          id="explore-sparks"
          title={sparks.popular ? 'Popular sparks' : 'Recent sparks in your field'}
          items={sparks.items}
          more="/sparks"
          spark
        />
      </div>
    </Page>
  )
}

function Shelf({
  id,
  title,
  items,
  more,
  spark = false,
}: {
  id: string
  title: string
  items: VideoCardData[]
  more: string
  spark?: boolean
}) {
  return (
    <section aria-labelledby={id}>
      <div className="mb-4 flex items-end justify-between gap-3">
        <h2 id={id} className="text-heading">
          {title}
        </h2>
        <Link to={more} className="text-sm font-semibold text-brand-700 hover:underline">
          See all
        </Link>
      </div>
      {items.length ? (
        <ul
          className={spark ? 'grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5' : 'grid gap-5 sm:grid-cols-2 lg:grid-cols-3'}
        >
          {items.map((item) => (
            <li key={item.id} className="flex min-w-0">
              <div className="w-full min-w-0 [&>article]:h-full">
                <VideoCard video={item} />
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-body">Nothing here yet.</p>
      )}
    </section>
  )
}

export const meta: MetaFunction = () => [{ title: 'Explore — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Explore is unavailable"
      message="Please try again in a moment."
      action={{ href: '/explore', label: 'Try again' }}
    />
  )
}
