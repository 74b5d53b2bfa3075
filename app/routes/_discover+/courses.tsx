import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { CourseGrid } from '~/components/courses/course-card'
import { StatusCard } from '~/components/status-card'
import { Page, PageHeader } from '~/components/ui/page'
import { EmptyState } from '~/components/video-grid'
import { canMakeCourses, COURSE_PAGE_SIZE, listCourses, listCreatorCourses } from '~/server/courses.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { getSession } from '~/server/session.server'

/**
 * GET /courses?cursor= — every published course, newest first, paged by keyset (public).
 * A verified creator also sees their own courses first, drafts included, and "New course".
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await getSession(request, context)
  const cursor = new URL(request.url).searchParams.get('cursor')
  const author = claims ? await canMakeCourses(claims) : false
  const [page, own] = await Promise.all([
    listCourses(claims, { cursor, limit: COURSE_PAGE_SIZE }),
    author && claims && !cursor ? listCreatorCourses(claims, claims.sub) : null,
  ])
  return jsonWithHeaders({ page, own, author, cursor }, 200, headers)
}

export default function CoursesPage() {
  const { page, own, author, cursor } = useLoaderData<typeof loader>()
  return (
    <Page>
      <PageHeader
        title="Courses"
        subtitle="Lessons in order, put together by Lumen’s creators."
        actions={
          author ? (
            <Link to="/courses/new" className="btn-primary">
              New course
            </Link>
          ) : null
        }
      />
      <div className="flex flex-col gap-10">
        {own ? (
          <section aria-labelledby="your-courses">
            <h2 id="your-courses" className="text-heading mb-4">
              Your courses
            </h2>
            {own.length ? (
              <CourseGrid courses={own} />
            ) : (
              <p className="text-body">
                You have no courses yet.{' '}
                <Link to="/courses/new" className="font-semibold text-brand-700 hover:underline">
                  Make your first course
                </Link>{' '}
                from your videos and sparks.
              </p>
            )}
          </section>
        ) : null}
        <section aria-labelledby="all-courses">
          <h2 id="all-courses" className="text-heading mb-4">
            {cursor ? 'More courses' : 'Newest courses'}
          </h2>
          {page.items.length ? (
            <CourseGrid courses={page.items} />
          ) : cursor ? (
            <p className="text-body">No more courses.</p>
          ) : (
            <EmptyState
              title="No courses yet"
              message="Creators have not published any courses yet. In the meantime, watch a lesson from the feed."
              action={{ href: '/explore', label: 'Explore' }}
            />
          )}
          <nav aria-label="Course pages" className="mt-6 flex flex-wrap justify-between gap-3">
            {cursor ? (
              <Link to="/courses" className="btn-secondary">
                ← Newest courses
              </Link>
            ) : (
              <span />
            )}
            {page.nextCursor ? (
              <Link to={`/courses?cursor=${encodeURIComponent(page.nextCursor)}`} className="btn-secondary">
                More courses →
              </Link>
            ) : null}
          </nav>
        </section>
      </div>
    </Page>
  )
}

export const meta: MetaFunction = () => [
  { title: 'Courses — Lumen' },
  { name: 'description', content: 'Courses on Lumen: a creator’s lessons in order.' },
]

export function ErrorBoundary() {
  return (
    <StatusCard title="Courses are unavailable" message="Please try again in a moment." action={{ href: '/courses', label: 'Try again' }} />
  )
}
