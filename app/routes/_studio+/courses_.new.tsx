import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { CourseFields, type CourseFieldValues } from '~/components/courses/course-fields'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { DEFAULT_CATEGORY } from '~/lib/catalog'
import { COURSE_MESSAGES, type CourseErrors } from '~/lib/schemas/courses'
import { categoriesFor, createCourse } from '~/server/courses.server'
import { isDomainError } from '~/server/errors.server'
import { formText, receiveCourseForm, requireCourseAuthor } from '~/server/http/course-forms.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'

/**
 * /courses/new — a verified creator starts a course (ADR 0048): title, description,
 * category, an optional cover. One plain multipart form; the lessons come next, on the
 * course's edit page. Others are sent away as from the upload page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireCourseAuthor(request, context)
  return jsonWithHeaders({ categories: await categoriesFor(session.claims) }, 200, session.headers)
}

type ActionData = { error: string; fieldErrors: CourseErrors; values: CourseFieldValues }

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireCourseAuthor(request, context, { verify: true })
  const received = await receiveCourseForm(request)
  const values: CourseFieldValues = {
    title: formText(received.form, 'title'),
    description: formText(received.form, 'description'),
    category: formText(received.form, 'category'),
  }
  try {
    const id = await createCourse(session, { ...values, cover: received.cover })
    return redirectWithFlash(`/course/${id}/edit`, { kind: 'success', message: COURSE_MESSAGES.created }, session.headers)
  } catch (error) {
    if (isDomainError(error) && error.status < 500) {
      return jsonWithHeaders<ActionData>(
        { error: error.message, fieldErrors: (error.fieldErrors ?? {}) as CourseErrors, values },
        error.status,
        session.headers,
      )
    }
    throw error
  } finally {
    await received.dispose()
  }
}

export default function NewCoursePage() {
  const { categories } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const errors = result?.fieldErrors ?? {}
  const count = Object.keys(errors).length
  return (
    <Page width="narrow">
      <PageHeader title="New course" subtitle="Put your videos and sparks in an order learners can follow." />
      <Form
        key={result ? JSON.stringify(result) : 'new'}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="card flex flex-col gap-5 p-5 sm:p-6"
      >
        {result && !count ? <Alert tone="error">{result.error}</Alert> : null}
        {count ? <Alert tone="error">Please fix the {count === 1 ? 'field' : 'fields'} marked below.</Alert> : null}
        <CourseFields
          values={result?.values ?? { title: '', description: '', category: DEFAULT_CATEGORY }}
          errors={errors}
          categories={categories}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to="/courses" className="btn-secondary">
            Cancel
          </Link>
          <SubmitButton pendingLabel="Creating…">Create course</SubmitButton>
        </div>
      </Form>
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'New course — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Courses are unavailable"
      message="The new-course page could not be shown. Please try again in a moment."
      action={{ href: '/courses/new', label: 'Try again' }}
    />
  )
}
