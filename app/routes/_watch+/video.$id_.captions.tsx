import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import type { FormFailure } from '~/lib/forms'
import { data } from '@remix-run/node'
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from '@remix-run/react'
import { CaptionTrackList } from '~/components/captions/track-list'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { checkWithSchema, FieldChecks, FieldFrame, fileInputClass, TextField } from '~/components/ui/field'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { CAPTION_FORM_MESSAGES, captionTrackSchema, COMMON_CAPTION_LANGUAGES, languageName } from '~/lib/schemas/captions'
import { deleteCaptionTrack, listCaptionTracks, saveCaptionTrack } from '~/server/captions.server'
import { isDomainError, DomainError } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { receiveCaptionForm } from '~/server/http/forms.server'
import { badRequest, jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { getVideo } from '~/server/videos.server'
import { CAPTION_MESSAGES } from '../../../media/captions'

/**
 * /video/:id/captions — the creator's (or an admin's) caption tracks for one video
 * (ADR 0019): add a WebVTT or SRT file per language, replace it by uploading again,
 * delete it. A plain multipart form, so it works without JavaScript; Postgres decides
 * who may (public.can_edit_captions), and everyone else gets a 403 page.
 */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const video = await getVideo(claims, params.id ?? '')
  if (!video) throw data('Video not found', { status: 404, headers })
  const { tracks, canEdit } = await listCaptionTracks(claims, video.id)
  if (!canEdit) throw data(CAPTION_FORM_MESSAGES.notYourVideo, { status: 403, headers })
  return jsonWithHeaders({ video: { id: video.id, title: video.title }, tracks }, 200, headers)
}

type ActionData = FormFailure<{ language: string; label: string }> & { formError: string }

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const videoId = params.id ?? ''
  const back = `/video/${videoId}/captions`
  try {
    if (!(request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
      const form = await request.formData()
      if (form.get('intent') !== 'delete') throw new DomainError('invalid', 'Unknown action')
      await deleteCaptionTrack(claims, String(form.get('trackId') ?? ''))
      return redirectWithFlash(back, { kind: 'success', message: CAPTION_FORM_MESSAGES.deleted }, headers)
    }
    const { form, file, tooLarge } = await receiveCaptionForm(request)
    const values = { language: String(form.get('language') ?? ''), label: String(form.get('label') ?? '') }
    if (tooLarge)
      return badRequest<ActionData>(
        { ok: false, formError: CAPTION_MESSAGES.tooLarge, fieldErrors: { file: CAPTION_MESSAGES.tooLarge }, values },
        headers,
      )
    try {
      const track = await saveCaptionTrack(claims, { videoId, language: values.language, label: values.label, file })
      return redirectWithFlash(back, { kind: 'success', message: `${CAPTION_FORM_MESSAGES.saved}: ${track.label}` }, headers)
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
  } catch (error) {
    if (isDomainError(error))
      return jsonWithHeaders<ActionData>({ ok: false, formError: error.message, fieldErrors: error.fieldErrors }, error.status, headers)
    console.warn('[captions] could not save:', error instanceof Error ? error.message : error)
    return jsonWithHeaders<ActionData>({ ok: false, formError: CAPTION_FORM_MESSAGES.saveFailed }, 500, headers)
  }
}

export default function CaptionsPage() {
  const { video, tracks } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const errors = result?.fieldErrors ?? {}
  return (
    <Page width="narrow">
      <PageHeader
        title="Captions"
        subtitle={
          <>
            For{' '}
            <Link to={`/video/${video.id}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              {video.title}
            </Link>
            . Captions make a lecture usable for deaf and hard-of-hearing learners, and searchable by what is said.
          </>
        }
      />
      <section aria-labelledby="tracks-heading" className="card p-5 sm:p-6">
        <h2 id="tracks-heading" className="text-heading">
          Tracks
        </h2>
        <CaptionTrackList tracks={tracks} />
      </section>

      <section aria-labelledby="add-heading" className="card mt-6 p-5 sm:p-6">
        <h2 id="add-heading" className="text-heading">
          Add or replace a track
        </h2>
        <p className="text-body mt-1">
          {CAPTION_FORM_MESSAGES.fileHint} Uploading a language that already has a track replaces it.
        </p>
        <FieldChecks check={checkCaptionField}>
          <Form method="post" encType="multipart/form-data" noValidate className="mt-5 flex flex-col gap-5">
            {result?.formError && !result.fieldErrors ? <Alert tone="error">{result.formError}</Alert> : null}
            <TextField
              label="Language"
              name="language"
              required
              list="caption-languages"
              placeholder="en"
              autoComplete="off"
              defaultValue={result?.values?.language ?? ''}
              error={errors.language}
              hint="A language tag such as en, fr or pt-BR."
            />
            <datalist id="caption-languages">
              {COMMON_CAPTION_LANGUAGES.map((tag) => (
                <option key={tag} value={tag}>
                  {languageName(tag)}
                </option>
              ))}
            </datalist>
            <TextField
              label="Label (optional)"
              name="label"
              maxLength={60}
              defaultValue={result?.values?.label ?? ''}
              error={errors.label}
              hint="What the player's caption menu shows; the language's name when empty."
            />
            <FieldFrame label="Caption file" error={errors.file}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  name="file"
                  type="file"
                  required
                  accept=".vtt,.srt,text/vtt"
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  className={fileInputClass}
                />
              )}
            </FieldFrame>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Link to={`/video/${video.id}`} className="btn-secondary">
                Back to video
              </Link>
              <SubmitButton pendingLabel="Saving…">Save captions</SubmitButton>
            </div>
          </Form>
        </FieldChecks>
      </section>
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Captions · ${data.video.title} — Lumen` : 'Captions — Lumen' },
]

export function ErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const message = isRouteErrorResponse(error) && typeof error.data === 'string' ? error.data : 'Please try again in a moment.'
  return (
    <StatusCard
      title={status === 404 ? 'Video Not Found' : status === 403 ? 'Not your video' : 'Captions are unavailable'}
      message={message}
      action={{ href: '/dashboard', label: 'Back to dashboard' }}
    />
  )
}

/** The language and label are checked again with the shared schema as they change. */
const checkCaptionField = checkWithSchema(captionTrackSchema)
