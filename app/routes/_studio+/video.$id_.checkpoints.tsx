import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import type { FormFailure } from '~/lib/forms'
import { data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { EditorErrorCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Checkbox, TextAreaField, TextField } from '~/components/ui/field'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import {
  CHECKPOINT_MESSAGES,
  CHECKPOINTS_PER_VIDEO,
  EXPLANATION_MAX,
  formatMoment,
  OPTION_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
} from '~/lib/schemas/checkpoints'
import { addCheckpoint, deleteCheckpoint, getCheckpointAuthoring } from '~/server/checkpoints.server'
import { isDomainError } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'

/**
 * /video/:id/checkpoints — the creator's (or an admin's) questions inside one video
 * (ADR 0047): a question at a moment, 2–5 options with the correct ones marked, an
 * optional explanation, required or optional. Add and delete; plain forms, so it works
 * without JavaScript. Postgres decides who may (add_checkpoint, RLS); everyone else
 * gets a 403 page.
 */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  try {
    return jsonWithHeaders(await getCheckpointAuthoring(claims, params.id ?? ''), 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    throw error
  }
}

interface FormValues {
  at: string
  question: string
  options: string[]
  correct: number[]
  explanation: string
  required: boolean
}

type ActionData = FormFailure<FormValues> & { formError: string }

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const videoId = params.id ?? ''
  const back = `/video/${encodeURIComponent(videoId)}/checkpoints`
  const form = await request.formData()
  try {
    if (form.get('intent') === 'delete') {
      await deleteCheckpoint(claims, String(form.get('checkpointId') ?? ''))
      return redirectWithFlash(back, { kind: 'success', message: CHECKPOINT_MESSAGES.deleted }, headers)
    }
    const values: FormValues = {
      at: String(form.get('at') ?? ''),
      question: String(form.get('question') ?? ''),
      options: Array.from({ length: OPTIONS_MAX }, (_, index) => String(form.get(`option-${index}`) ?? '')),
      correct: form.getAll('correct').map(Number),
      explanation: String(form.get('explanation') ?? ''),
      required: form.get('required') === 'on',
    }
    try {
      await addCheckpoint(claims, videoId, values)
    } catch (error) {
      if (isDomainError(error) && error.status < 500) {
        return jsonWithHeaders<ActionData>(
          { ok: false, formError: error.message, fieldErrors: error.fieldErrors, values },
          error.status,
          headers,
        )
      }
      throw error
    }
    return redirectWithFlash(back, { kind: 'success', message: CHECKPOINT_MESSAGES.added }, headers)
  } catch (error) {
    if (isDomainError(error)) return jsonWithHeaders<ActionData>({ ok: false, formError: error.message }, error.status, headers)
    throw error
  }
}

export default function CheckpointsPage() {
  const { video, checkpoints } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const errors = result?.fieldErrors ?? {}
  const values = result?.values
  const full = checkpoints.length >= (video.type === 'spark' ? 1 : CHECKPOINTS_PER_VIDEO)
  return (
    <Page width="narrow">
      <PageHeader
        title="Checkpoints"
        subtitle={
          <>
            For{' '}
            <Link to={`/video/${video.id}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              {video.title}
            </Link>
            .{' '}
            {video.type === 'spark'
              ? 'A spark can end with one question.'
              : `The video pauses at each checkpoint and asks a question (up to ${CHECKPOINTS_PER_VIDEO}).`}
          </>
        }
      />
      <section aria-labelledby="checkpoints-heading" className="card p-5 sm:p-6">
        <h2 id="checkpoints-heading" className="text-heading">
          Questions
        </h2>
        {checkpoints.length === 0 ? (
          <p className="text-body mt-2">No checkpoints yet. Add one below.</p>
        ) : (
          <ol className="mt-3 divide-y divide-ink-100" data-testid="checkpoint-list">
            {checkpoints.map((point) => (
              <li key={point.id} className="flex flex-wrap items-start gap-x-4 gap-y-2 py-3">
                <div className="min-w-0 flex-1">
                  <p className="font-semibold text-ink-900">
                    <span className="mr-2 rounded-full bg-ink-100 px-2 py-0.5 text-xs font-medium tabular-nums text-ink-700">
                      {formatMoment(point.atSeconds)}
                    </span>
                    {point.question}
                    <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">
                      {point.required ? 'Required' : 'Optional'}
                    </span>
                  </p>
                  <ul className="mt-1 text-sm text-ink-700">
                    {point.options.map((option, index) => (
                      <li key={index}>
                        {point.correct.includes(index) ? (
                          <>
                            <span aria-hidden="true">✓ </span>
                            <strong>{option}</strong>
                            <span className="sr-only"> (correct)</span>
                          </>
                        ) : (
                          <>
                            <span aria-hidden="true">· </span>
                            {option}
                          </>
                        )}
                      </li>
                    ))}
                  </ul>
                  {point.explanation ? <p className="text-caption mt-1">Explanation: {point.explanation}</p> : null}
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="checkpointId" value={point.id} />
                  <button type="submit" className="btn-ghost text-red-700 hover:bg-red-50">
                    Delete<span className="sr-only"> the checkpoint at {formatMoment(point.atSeconds)}</span>
                  </button>
                </Form>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="add-heading" className="card mt-6 p-5 sm:p-6">
        <h2 id="add-heading" className="text-heading">
          Add a checkpoint
        </h2>
        {video.durationSeconds === null ? (
          <p className="text-body mt-2">{CHECKPOINT_MESSAGES.notProcessed}.</p>
        ) : full ? (
          <p className="text-body mt-2">
            {video.type === 'spark' ? CHECKPOINT_MESSAGES.sparkOnlyOne : CHECKPOINT_MESSAGES.tooMany}.
          </p>
        ) : (
          <Form method="post" noValidate className="mt-5 flex flex-col gap-5">
            {result?.formError && !result.fieldErrors ? <Alert tone="error">{result.formError}</Alert> : null}
            {video.type === 'spark' ? (
              <input type="hidden" name="at" value={String(video.durationSeconds)} />
            ) : (
              <TextField
                label="Moment"
                name="at"
                required
                inputMode="decimal"
                placeholder="0:08"
                autoComplete="off"
                defaultValue={values?.at ?? ''}
                error={errors.at}
                hint={`Minutes and seconds (0:08), inside the video's ${formatMoment(video.durationSeconds)}.`}
              />
            )}
            <TextAreaField
              label="Question"
              name="question"
              required
              maxLength={QUESTION_MAX}
              defaultValue={values?.question ?? ''}
              error={errors.question}
              hint={`Up to ${QUESTION_MAX} characters.`}
            />
            <fieldset className="flex flex-col gap-3">
              <legend className="text-sm font-medium text-ink-800">Options (2 to 5; tick the correct ones)</legend>
              {Array.from({ length: OPTIONS_MAX }, (_, index) => (
                <div key={index} className="flex flex-col gap-2 sm:flex-row sm:items-end">
                  <TextField
                    label={`Option ${index + 1}`}
                    name={`option-${index}`}
                    maxLength={OPTION_MAX}
                    autoComplete="off"
                    defaultValue={values?.options[index] ?? ''}
                    className="flex-1"
                  />
                  <Checkbox
                    label={
                      <>
                        Correct<span className="sr-only"> (option {index + 1})</span>
                      </>
                    }
                    name="correct"
                    value={String(index)}
                    defaultChecked={values?.correct.includes(index) ?? false}
                  />
                </div>
              ))}
              {errors.options ? (
                <p className="text-sm font-medium text-red-700" role="alert">
                  {errors.options}
                </p>
              ) : null}
              {errors.correct ? (
                <p className="text-sm font-medium text-red-700" role="alert">
                  {errors.correct}
                </p>
              ) : null}
            </fieldset>
            <TextAreaField
              label="Explanation (optional)"
              name="explanation"
              maxLength={EXPLANATION_MAX}
              defaultValue={values?.explanation ?? ''}
              error={errors.explanation}
              hint="Shown after the learner answers."
            />
            <Checkbox
              label="Required: the video does not go on until it is answered right"
              name="required"
              defaultChecked={values?.required ?? false}
            />
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Link to={`/video/${video.id}`} className="btn-secondary">
                Back to video
              </Link>
              <SubmitButton pendingLabel="Adding…">Add checkpoint</SubmitButton>
            </div>
          </Form>
        )}
      </section>
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: loaderData ? `Checkpoints · ${loaderData.video.title} — Lumen` : 'Checkpoints — Lumen' },
]

export function ErrorBoundary() {
  return (
    <EditorErrorCard
      titles={{ notFound: 'Video Not Found', forbidden: 'Not your video', other: 'Checkpoints are unavailable' }}
      back={{ href: '/dashboard', label: 'Back to dashboard' }}
    />
  )
}
