import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import type { FormFailure } from '~/lib/forms'
import { data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { EditorErrorCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { SelectField, TextAreaField, TextField } from '~/components/ui/field'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { ChapterRows } from '~/components/video/chapter-rows'
import { SparkLessonFields } from '~/components/video/spark-lesson-fields'
import { chaptersFromRows, formatClock, type ChapterErrors, type ChapterRow } from '~/lib/schemas/chapters'
import { editVideo, getVideoEditor } from '~/server/chapters.server'
import { isDomainError, type FieldErrors } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'

/**
 * /video/:id/edit — the video's creator (or an admin, as the videos policies allow) edits
 * its title, description, category and chapters (ADR 0042). One plain form: it works
 * without JavaScript (a few empty chapter rows to fill in); with it, chapter rows are
 * added and removed in place. Everything is checked again by the same domain function as
 * `PUT /api/videos/:id`, and a refusal changes nothing.
 */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  try {
    const video = await getVideoEditor(claims, params.id ?? '')
    return jsonWithHeaders({ video }, 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    throw error
  }
}

interface EditValues {
  title: string
  description: string
  category: string
  rows: ChapterRow[]
  /** A spark's lesson (ADR 0050), as typed. */
  lessonId: string
  lessonAt: string
}

type ActionData = FormFailure<EditValues> & { formError: string; fieldErrors: FieldErrors; values: EditValues }

const SAVED = 'Video updated'

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const id = params.id ?? ''
  const form = await request.formData()
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  const starts = form.getAll('chapterStart').map(String)
  const titles = form.getAll('chapterTitle').map(String)
  const typed = starts.map((start, index) => ({ start, title: titles[index] ?? '' }))
  const { chapters, rows } = chaptersFromRows(typed)
  const values: EditValues = {
    title: text('title'),
    description: text('description'),
    category: text('category'),
    rows,
    lessonId: text('lessonId'),
    lessonAt: text('lessonAt'),
  }
  // The lesson fields are on a spark's form only: without them the link stays as it is.
  const lesson = form.has('lessonId') ? { lessonId: values.lessonId, lessonAt: values.lessonAt } : undefined
  try {
    await editVideo(claims, id, {
      title: values.title,
      description: values.description,
      category: values.category,
      chapters,
      lesson,
    })
    return redirectWithFlash(`/video/${encodeURIComponent(id)}`, { kind: 'success', message: SAVED }, headers)
  } catch (error) {
    if (isDomainError(error) && error.status < 500) {
      return jsonWithHeaders<ActionData>(
        { ok: false, formError: error.message, fieldErrors: error.fieldErrors ?? {}, values },
        error.status,
        headers,
      )
    }
    throw error
  }
}

export default function EditVideoPage() {
  const { video } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const errors = result?.fieldErrors ?? {}
  const values: EditValues = result?.values ?? {
    title: video.title,
    description: video.description,
    category: video.categoryId,
    rows: video.chapters.map((chapter) => ({ start: formatClock(chapter.start), title: chapter.title })),
    lessonId: video.lesson?.id ?? '',
    lessonAt: video.lesson?.at ? formatClock(video.lesson.at) : '',
  }
  const chapterErrors: ChapterErrors = Object.fromEntries(
    Object.entries(errors).filter((entry): entry is [string, string] => entry[0].startsWith('chapters') && Boolean(entry[1])),
  )
  const otherError = result && !Object.keys(errors).length ? result.formError : null
  return (
    <Page width="narrow">
      <PageHeader
        title="Edit video"
        subtitle={
          <>
            <Link to={`/video/${video.id}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              {video.title}
            </Link>
            {video.durationSeconds ? <> · {formatClock(video.durationSeconds)} long</> : null}
          </>
        }
      />
      {/* A new key per answer: the fields show what was sent, with its errors. */}
      <Form
        key={result ? JSON.stringify(result) : 'saved'}
        method="post"
        noValidate
        className="card flex flex-col gap-5 p-5 sm:p-6"
      >
        {otherError ? <Alert tone="error">{otherError}</Alert> : null}
        {result && Object.keys(errors).length ? (
          <Alert tone="error">Please fix the {Object.keys(errors).length === 1 ? 'field' : 'fields'} marked below.</Alert>
        ) : null}
        <TextField label="Title" name="title" defaultValue={values.title} maxLength={200} error={errors.title} required />
        <TextAreaField
          label="Description"
          name="description"
          rows={5}
          maxLength={5000}
          defaultValue={values.description}
          error={errors.description}
          required
        />
        <SelectField
          label="Category"
          name="category"
          defaultValue={values.category}
          options={video.categories}
          error={errors.category}
          required
        />
        <ChapterRows rows={values.rows} errors={chapterErrors} />
        {video.type === 'spark' ? (
          <SparkLessonFields
            choices={video.lessonChoices}
            lessonId={values.lessonId}
            lessonAt={values.lessonAt}
            errors={errors}
          />
        ) : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={`/video/${video.id}`} className="btn-secondary">
            Cancel
          </Link>
          <SubmitButton pendingLabel="Saving…">Save changes</SubmitButton>
        </div>
      </Form>
      <section aria-labelledby="edit-more-title" className="card mt-6 flex flex-col gap-3 p-5 sm:p-6">
        <h2 id="edit-more-title" className="text-heading">
          More for this video
        </h2>
        <ul className="flex flex-col gap-2 text-sm">
          <li>
            <Link
              to={`/video/${video.id}/checkpoints`}
              className="font-semibold text-brand-700 underline-offset-2 hover:underline"
            >
              Checkpoints
            </Link>{' '}
            <span className="text-ink-600">— questions that pause the video and check what was understood.</span>
          </li>
          <li>
            <Link to={`/video/${video.id}/captions`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              Captions
            </Link>{' '}
            <span className="text-ink-600">— add, replace or remove caption tracks.</span>
          </li>
        </ul>
      </section>
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: loaderData ? `Edit · ${loaderData.video.title} — Lumen` : 'Edit video — Lumen' },
]

export function ErrorBoundary() {
  return (
    <EditorErrorCard
      titles={{ notFound: 'Video Not Found', forbidden: 'Not your video', other: 'This video cannot be edited now' }}
      back={{ href: '/dashboard', label: 'Back to dashboard' }}
    />
  )
}
