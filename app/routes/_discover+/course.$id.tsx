import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, isRouteErrorResponse, Link, useLoaderData, useRouteError } from '@remix-run/react'
import { CourseIcon } from '~/components/courses/course-card'
import { CourseLearning } from '~/components/courses/course-learning'
import { CourseLessonList } from '~/components/courses/course-lessons'
import { StatusCard } from '~/components/status-card'
import { Page } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { UserAvatar } from '~/components/user-avatar'
import { formatCount, formatDuration } from '~/lib/format'
import { COURSE_MESSAGES } from '~/lib/schemas/courses'
import { getCourse, setCoursePublished } from '~/server/courses.server'
import { getCourseProgress } from '~/server/course-progress.server'
import { isDomainError } from '~/server/errors.server'
import { flashFailure } from '~/server/http/domain-errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { getSession } from '~/server/session.server'
import { requireUser } from '~/server/permissions.server'

/**
 * /course/:id — a course (ADR 0048; public, like a creator's page): cover, creator,
 * category, description, its lessons in order under their section headings with their
 * lengths and the total. A draft is 404 to anyone but its creator and admins. Its creator
 * gets Edit and Publish/Unpublish; an admin Unpublish (never Publish or Edit).
 *
 * The loader reads the course and nothing else yet: the learner's side (enrolment,
 * progress, Continue) joins it as one more field, and its panel has a marked place below.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, user, headers } = await getSession(request, context)
  try {
    const [course, learning] = await Promise.all([getCourse(claims, params.id ?? ''), getCourseProgress(claims, params.id ?? '')])
    return jsonWithHeaders({ course, signedIn: Boolean(user), learning }, 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    throw error
  }
}

/** `intent`: publish | unpublish (its creator; an admin unpublish only). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context, { verify: true })
  const id = params.id ?? ''
  const back = `/course/${encodeURIComponent(id)}`
  const form = await request.formData()
  const intent = form.get('intent')
  try {
    if (intent === 'publish' || intent === 'unpublish') {
      const message = await setCoursePublished(claims, id, intent === 'publish')
      return redirectWithFlash(back, { kind: 'success', message }, headers)
    }
    return jsonWithHeaders({ error: 'Unknown action' }, 400, headers)
  } catch (error) {
    if (isDomainError(error)) return flashFailure(error, back, headers)
    throw error
  }
}

export default function CoursePage() {
  const { course, signedIn, learning } = useLoaderData<typeof loader>()
  const lessonCount = course.lessons.length
  return (
    <Page>
      <article className="mx-auto flex max-w-3xl flex-col gap-6" aria-labelledby="course-title">
        <header className="flex flex-col gap-4">
          <div className="relative aspect-video w-full overflow-hidden rounded-card bg-gradient-to-br from-brand-700 via-brand-900 to-ink-950 shadow-card">
            {course.coverUrl ? (
              <img src={course.coverUrl} alt="" className="h-full w-full object-cover" />
            ) : (
              <div className="flex h-full items-center justify-center" aria-hidden="true">
                <CourseIcon className="h-14 w-14 text-white/70" />
              </div>
            )}
            {course.isPublished ? null : (
              <span className="absolute left-3 top-3 rounded-full bg-ink-950/85 px-3 py-1 text-xs font-semibold text-white">
                {course.isOwner ? 'Draft — only you can see it' : 'Draft — only its creator and admins can see it'}
              </span>
            )}
          </div>
          <div>
            <p className="text-sm font-semibold text-brand-700">
              <span className="inline-flex items-center gap-1">
                <CourseIcon className="h-4 w-4" /> Course
              </span>
              <span className="text-ink-500"> · {course.category.name}</span>
            </p>
            <h1 id="course-title" className="text-title mt-1">
              {course.title}
            </h1>
            <p className="mt-2 text-sm text-ink-600" data-course-summary>
              {formatCount(lessonCount, 'lesson')}
              {course.totalSeconds > 0 ? <> · {formatDuration(course.totalSeconds)} in all</> : null}
            </p>
          </div>
          <Link
            to={`/creator/${course.creator.id}`}
            className="flex w-fit items-center gap-3 rounded-full pr-3 hover:bg-ink-100"
          >
            <UserAvatar user={course.creator} size="md" />
            <span className="text-sm">
              <span className="block text-ink-500">By</span>
              <span className="font-semibold text-ink-900">{course.creator.username}</span>
            </span>
          </Link>
          <CourseControls
            id={course.id}
            isOwner={course.isOwner}
            isAdmin={course.isAdmin}
            isPublished={course.isPublished}
          />
        </header>

        {course.description ? <p className="text-body whitespace-pre-line">{course.description}</p> : null}

        {/* The learner's place (enrolment, progress, Continue): its panel mounts here. */}
        <CourseLearning courseId={course.id} isPublished={course.isPublished} lessons={course.lessons} progress={learning} signedIn={signedIn} />

        <section aria-labelledby="course-lessons-title" className="flex flex-col gap-3">
          <h2 id="course-lessons-title" className="text-heading">
            Lessons
          </h2>
          {lessonCount ? (
            <CourseLessonList courseId={course.id} sections={course.sections} />
          ) : (
            <div className="card flex flex-col items-center px-6 py-10 text-center">
              <CourseIcon className="h-10 w-10 text-brand-600" />
              <p className="text-heading mt-3">No lessons yet</p>
              <p className="mt-1 max-w-sm text-sm text-ink-600">
                {course.isOwner
                  ? 'Add your videos and sparks to this course, in the order learners should watch them.'
                  : 'The creator has not added any lessons to this course yet.'}
              </p>
              {course.isOwner ? (
                <Link to={`/course/${course.id}/edit`} className="btn-primary mt-5">
                  Add lessons
                </Link>
              ) : null}
            </div>
          )}
        </section>
      </article>
    </Page>
  )
}

/** The creator's Edit and Publish/Unpublish; an admin's Unpublish. Nothing for everyone else. */
function CourseControls({
  id,
  isOwner,
  isAdmin,
  isPublished,
}: {
  id: string
  isOwner: boolean
  isAdmin: boolean
  isPublished: boolean
}) {
  if (!isOwner && !(isAdmin && isPublished)) return null
  return (
    <div className="flex flex-wrap gap-2" data-course-controls>
      {isOwner ? (
        <Link to={`/course/${id}/edit`} className="btn-secondary">
          Edit course
        </Link>
      ) : null}
      <Form method="post" preventScrollReset>
        <SubmitButton
          name="intent"
          value={isPublished ? 'unpublish' : 'publish'}
          variant={isPublished ? 'secondary' : 'primary'}
          pendingLabel={isPublished ? 'Unpublishing…' : 'Publishing…'}
        >
          {isPublished ? 'Unpublish' : 'Publish'}
        </SubmitButton>
      </Form>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: loaderData ? `${loaderData.course.title} — Lumen` : `${COURSE_MESSAGES.notFound} — Lumen` },
  ...(loaderData ? [{ name: 'description', content: loaderData.course.description.slice(0, 160) }] : []),
]

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusCard
        title="Course Not Found"
        message="This course doesn't exist, or it is not published."
        action={{ href: '/courses', label: 'Browse courses' }}
      />
    )
  }
  return (
    <StatusCard
      title="Something went wrong"
      message="We could not load this course. Please try again in a moment."
      action={{ href: '/explore', label: 'Explore' }}
    />
  )
}
