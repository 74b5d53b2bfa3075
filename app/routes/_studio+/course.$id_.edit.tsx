import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { CourseFields, type CourseFieldValues } from '~/components/courses/course-fields'
import { LessonEditor } from '~/components/courses/lesson-editor'
import { EditorErrorCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { SelectField, TextField } from '~/components/ui/field'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { formatCount, formatDuration } from '~/lib/format'
import { COURSE_MESSAGES, SECTION_TITLE_MAX, type CourseErrors } from '~/lib/schemas/courses'
import {
  addLesson,
  deleteCourse,
  getCourseEditor,
  moveLesson,
  removeLesson,
  reorderLessons,
  setCoursePublished,
  setSectionTitles,
  updateCourse,
} from '~/server/courses.server'
import { isDomainError } from '~/server/errors.server'
import { formText, receiveCourseForm, requireCourseAuthor } from '~/server/http/course-forms.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'

/**
 * /course/:id/edit — the course's creator edits it (ADR 0048): its fields and cover; its
 * lessons (add one of their public videos or sparks, move up or down, drag with JavaScript,
 * remove, section headings); publish or unpublish; delete (`?confirm=delete` asks first).
 * Every part is a plain form posting `intent` here, answered by a redirect back with a
 * flash (or, for the fields, the form again with its errors); the same domain functions as
 * /api/courses check everything again. Admins may only unpublish, on the course page.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = await requireCourseAuthor(request, context)
  try {
    const editor = await getCourseEditor(session.claims, params.id ?? '')
    return jsonWithHeaders(editor, 200, session.headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers: session.headers })
    throw error
  }
}

type ActionData = { intent: string; error: string; fieldErrors: CourseErrors; values?: CourseFieldValues }

export async function action({ request, context, params }: ActionFunctionArgs) {
  const session = await requireCourseAuthor(request, context, { verify: true })
  const { claims, headers } = session
  const id = params.id ?? ''
  const here = `/course/${encodeURIComponent(id)}/edit`
  const received = await receiveCourseForm(request)
  const form = received.form
  const intent = formText(form, 'intent')
  const done = (message: string, to = here) => redirectWithFlash(to, { kind: 'success', message }, headers)
  const values: CourseFieldValues = {
    title: formText(form, 'title'),
    description: formText(form, 'description'),
    category: formText(form, 'category'),
  }
  try {
    switch (intent) {
      case 'details':
        await updateCourse(session, id, { ...values, cover: received.cover, removeCover: form.get('removeCover') === '1' })
        return await done(COURSE_MESSAGES.saved)
      case 'add':
        await addLesson(claims, id, formText(form, 'videoId'), formText(form, 'sectionTitle'))
        return await done(COURSE_MESSAGES.lessonAdded, `${here}#lessons`)
      case 'lessons': {
        const [op, videoId] = formText(form, 'op').split(':')
        const order = form.getAll('order').map(String)
        if (op === 'up' || op === 'down') {
          await moveLesson(claims, id, videoId, op)
          return await done(COURSE_MESSAGES.lessonMoved, `${here}#lessons`)
        }
        if (op === 'remove') {
          await removeLesson(claims, id, videoId)
          return await done(COURSE_MESSAGES.lessonRemoved, `${here}#lessons`)
        }
        if (op === 'reorder') {
          await reorderLessons(claims, id, order)
          return await done(COURSE_MESSAGES.orderSaved, `${here}#lessons`)
        }
        const sections = form.getAll('section').map(String)
        await setSectionTitles(
          claims,
          id,
          order.map((lesson, index) => ({ videoId: lesson, sectionTitle: sections[index] ?? '' })),
        )
        return await done(COURSE_MESSAGES.sectionsSaved, `${here}#lessons`)
      }
      case 'publish':
      case 'unpublish':
        return await done(await setCoursePublished(claims, id, intent === 'publish'))
      case 'delete':
        return await done(await deleteCourse(claims, id), '/courses')
      default:
        return jsonWithHeaders<ActionData>({ intent, error: 'Unknown action', fieldErrors: {} }, 400, headers)
    }
  } catch (error) {
    if (isDomainError(error) && error.status < 500) {
      return jsonWithHeaders<ActionData>(
        { intent, error: error.message, fieldErrors: (error.fieldErrors ?? {}) as CourseErrors, values },
        error.status,
        headers,
      )
    }
    throw error
  } finally {
    await received.dispose()
  }
}

export default function EditCoursePage() {
  const { course, choices, categories } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const [params] = useSearchParams()
  const failed = (intent: string) => (result && result.intent === intent ? result : null)
  const details = failed('details')
  const detailErrors = details?.fieldErrors ?? {}
  const detailCount = Object.keys(detailErrors).length
  const lessonError = failed('lessons') ?? failed('add')
  const publishError = failed('publish') ?? failed('unpublish') ?? failed('delete')
  return (
    <Page>
      <div className="mx-auto flex max-w-3xl flex-col gap-8">
        <PageHeader
          title="Edit course"
          subtitle={
            <>
              <Link to={`/course/${course.id}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                {course.title}
              </Link>{' '}
              · {formatCount(course.lessons.length, 'lesson')}
              {course.totalSeconds > 0 ? <> · {formatDuration(course.totalSeconds)}</> : null}
            </>
          }
          actions={
            <Link to={`/course/${course.id}`} className="btn-secondary">
              View course
            </Link>
          }
        />

        <section aria-labelledby="publish-title" className="card flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6">
          <div>
            <h2 id="publish-title" className="text-heading">
              {course.isPublished ? 'Published' : 'Draft'}
            </h2>
            <p className="text-sm text-ink-600">
              {course.isPublished
                ? 'Everyone can find it on your page, on Explore and in search.'
                : 'Only you can see it. Publish it when its lessons are in order.'}
            </p>
            {publishError ? (
              <div className="mt-2">
                <Alert tone="error">{publishError.error}</Alert>
              </div>
            ) : null}
          </div>
          <Form method="post">
            <SubmitButton
              name="intent"
              value={course.isPublished ? 'unpublish' : 'publish'}
              variant={course.isPublished ? 'secondary' : 'primary'}
              pendingLabel={course.isPublished ? 'Unpublishing…' : 'Publishing…'}
            >
              {course.isPublished ? 'Unpublish' : 'Publish course'}
            </SubmitButton>
          </Form>
        </section>

        <section aria-labelledby="lessons-title" id="lessons" className="flex flex-col gap-4">
          <h2 id="lessons-title" className="text-heading">
            Lessons
          </h2>
          {lessonError ? <Alert tone="error">{lessonError.error}</Alert> : null}
          {course.lessons.length ? (
            <LessonEditor lessons={course.lessons} />
          ) : (
            <p className="card p-5 text-sm text-ink-600">No lessons yet. Add your first one below: learners take them in this order.</p>
          )}
          <Form method="post" className="card flex flex-col gap-4 p-5 sm:p-6" aria-labelledby="add-lesson-title">
            <h3 id="add-lesson-title" className="font-semibold text-ink-900">
              Add a lesson
            </h3>
            <input type="hidden" name="intent" value="add" />
            {choices.length ? (
              <>
                <SelectField
                  label="Video or spark"
                  name="videoId"
                  required
                  options={choices.map((choice) => ({
                    value: choice.videoId,
                    label: `${choice.type === 'spark' ? 'Spark · ' : ''}${choice.title}${
                      choice.durationSeconds !== null ? ` (${formatDuration(choice.durationSeconds)})` : ''
                    }`,
                  }))}
                />
                <TextField
                  label="Section heading above it (optional)"
                  name="sectionTitle"
                  maxLength={SECTION_TITLE_MAX}
                  hint="Starts a new section of the course at this lesson."
                />
                <div className="flex justify-end">
                  <SubmitButton name="intent" value="add" pendingLabel="Adding…">
                    Add lesson
                  </SubmitButton>
                </div>
              </>
            ) : (
              <p className="text-sm text-ink-600">
                {course.lessons.length
                  ? 'All your public videos and sparks are in this course.'
                  : 'A course is made of your public videos and sparks.'}{' '}
                <Link to="/upload" className="font-semibold text-brand-700 hover:underline">
                  Upload new content
                </Link>
              </p>
            )}
          </Form>
        </section>

        <section aria-labelledby="details-title" className="flex flex-col gap-4">
          <h2 id="details-title" className="text-heading">
            Details
          </h2>
          <Form
            key={details ? JSON.stringify(details) : course.updatedAt}
            method="post"
            encType="multipart/form-data"
            noValidate
            className="card flex flex-col gap-5 p-5 sm:p-6"
          >
            <input type="hidden" name="intent" value="details" />
            {details && !detailCount ? <Alert tone="error">{details.error}</Alert> : null}
            {detailCount ? <Alert tone="error">Please fix the {detailCount === 1 ? 'field' : 'fields'} marked below.</Alert> : null}
            <CourseFields
              values={details?.values ?? { title: course.title, description: course.description, category: course.category.id }}
              errors={detailErrors}
              categories={categories}
              coverUrl={course.coverUrl}
            />
            <div className="flex justify-end">
              <SubmitButton name="intent" value="details" pendingLabel="Saving…">
                Save details
              </SubmitButton>
            </div>
          </Form>
        </section>

        <section aria-labelledby="delete-title" className="card flex flex-col gap-3 p-5 sm:p-6">
          <h2 id="delete-title" className="text-heading">
            Delete course
          </h2>
          {params.get('confirm') === 'delete' ? (
            <Form method="post" className="flex flex-col gap-3">
              <p className="text-sm text-ink-700">
                Delete “{course.title}”? Learners lose it from their courses. Its videos and sparks stay as they are.
              </p>
              <div className="flex flex-wrap gap-2">
                <SubmitButton name="intent" value="delete" pendingLabel="Deleting…" className="bg-red-600 hover:bg-red-700">
                  Delete course
                </SubmitButton>
                <Link to={`/course/${course.id}/edit`} className="btn-secondary">
                  Keep it
                </Link>
              </div>
            </Form>
          ) : (
            <p className="text-sm text-ink-600">
              Its videos and sparks stay as they are.{' '}
              <Link to="?confirm=delete" className="font-semibold text-red-700 hover:underline">
                Delete this course…
              </Link>
            </p>
          )}
        </section>
      </div>
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: loaderData ? `Edit · ${loaderData.course.title} — Lumen` : 'Edit course — Lumen' },
]

export function ErrorBoundary() {
  return (
    <EditorErrorCard
      titles={{ notFound: 'Course Not Found', forbidden: 'Not your course', other: 'This course cannot be edited now' }}
      back={{ href: '/courses', label: 'Back to courses' }}
    />
  )
}
