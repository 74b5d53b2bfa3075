import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import type { ClientActionFunctionArgs } from '@remix-run/react'
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import { CheckIcon } from '~/components/icons'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Page, PageHeader } from '~/components/ui/page'
import { UploadForm } from '~/components/upload/upload-form'
import {
  serverErrorMessage,
  UPLOAD_MESSAGES,
  UPLOAD_REDIRECT_MS,
  UPLOAD_TIMEOUT_MS,
  uploadFormValues,
  uploadFailureParts,
  type UploadActionData,
  type UploadValues,
} from '~/lib/schemas/upload'
import { formFailure } from '~/server/http/domain-errors.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { isDomainError } from '~/server/errors.server'
import { discardUploadBody, FORMS, receiveForm, type ReceivedForm } from '~/server/http/forms.server'
import { requireUploader } from '~/server/permissions.server'
import { browserSupabaseUrl, supabaseSettings } from '~/server/supabase.server'
import { createUpload, uploadCategories, uploadedVideo } from '~/server/uploads.server'
import { lessonChoicesFor } from '~/server/spark-lessons.server'

/**
 * Upload (docs/product.md, Screens; States; Rules and messages): verified creators and admins only.
 * `?uploaded=<id>` is the page a submission without JavaScript lands on:
 * the success message, then the video after 1.5 s.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUploader(request, context)
  const uploadedId = new URL(request.url).searchParams.get('uploaded')
  if (uploadedId) {
    const uploaded = await uploadedVideo(session.claims, uploadedId)
    if (uploaded) return jsonWithHeaders({ uploaded, form: null }, 200, session.headers)
  }
  const { anonKey } = supabaseSettings()
  return jsonWithHeaders(
    {
      uploaded: null,
      form: {
        categories: await uploadCategories(session.claims),
        // A spark may lead to one of the creator's long-form videos (ADR 0050).
        lessonChoices: await lessonChoicesFor(session.claims, session.user.id),
        userId: session.user.id,
        // The browser sends the video to Storage itself (TUS) with the visitor's own session,
        // at the address it opened the page at ('' when the stand-in shares the app's origin).
        supabase: { url: browserSupabaseUrl(), anonKey },
      },
    },
    200,
    session.headers,
  )
}

/**
 * Creates the video. The form carries either the video file itself (no
 * JavaScript: answered with a redirect to the success page) or the name of
 * the object the browser already uploaded (answered with data for the page
 * to show). Either way every check runs here.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  let session: Awaited<ReturnType<typeof requireUploader>>
  try {
    session = await requireUploader(request, context, { verify: true })
  } catch (error) {
    // Read the rest of the form first, or a browser still sending its video sees a reset, not the redirect.
    await discardUploadBody(request)
    throw error
  }

  let received: ReceivedForm<keyof typeof FORMS.upload.files>
  try {
    received = await receiveForm(request, FORMS.upload)
  } catch (error) {
    if (!isDomainError(error)) throw error
    return formFailure<UploadValues>({ formError: error.message }, error.status, session.headers)
  }

  const viaStorage = received.form.has('sourcePath')
  const sourcePath = received.form.get('sourcePath')
  try {
    const result = await createUpload(session, {
      values: uploadFormValues(received.form),
      sourcePath: typeof sourcePath === 'string' ? sourcePath : null,
      video: received.files.video ?? null,
      thumbnail: received.files.thumbnail ?? null,
      captions: received.files.captions
        ? {
            file: received.files.captions,
            name: received.files.captions.name,
            language: String(received.form.get('captionsLanguage') ?? ''),
          }
        : null,
    })
    if (result.ok) {
      return viaStorage
        ? jsonWithHeaders<UploadActionData>({ ok: true, videoId: result.videoId }, 200, session.headers)
        : redirectWithHeaders(`/upload?uploaded=${result.videoId}`, session.headers)
    }
    return formFailure<UploadValues>(
      { ...uploadFailureParts(result.errors), values: result.values, hadFile: !viaStorage },
      result.status,
      session.headers,
    )
  } catch (error) {
    console.error('[upload] could not create the video', error)
    return formFailure<UploadValues>(
      { formError: UPLOAD_MESSAGES.failed, values: uploadFormValues(received.form), hadFile: !viaStorage },
      500,
      session.headers,
    )
  } finally {
    await received.dispose()
  }
}

/**
 * With JavaScript: the spec's messages for what never reaches the action —
 * no connection, no answer within 30 minutes, a server error page.
 * Redirects (a session that ended, rights that changed) are followed.
 */
export async function clientAction({ serverAction }: ClientActionFunctionArgs): Promise<UploadActionData> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), UPLOAD_TIMEOUT_MS)
  })
  try {
    const result = await Promise.race([serverAction<typeof action>(), deadline])
    if (result === 'timeout') return { ok: false, formError: UPLOAD_MESSAGES.timeout }
    return result as UploadActionData
  } catch (error) {
    if (error instanceof Response) throw error
    if (isRouteErrorResponse(error)) return { ok: false, formError: serverErrorMessage(error.status) }
    if (error instanceof TypeError) return { ok: false, formError: UPLOAD_MESSAGES.network }
    return { ok: false, formError: UPLOAD_MESSAGES.unexpected }
  } finally {
    clearTimeout(timer)
  }
}

export default function Upload() {
  const { uploaded, form } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>() as UploadActionData | undefined
  if (uploaded) return <Uploaded id={uploaded.id} title={uploaded.title} />
  return (
    <Page>
      <PageHeader
        title="Upload Content"
        subtitle="Share a lesson with the feed, or a spark — a clip under a minute."
        actions={
          <Link to="/dashboard" className="btn-secondary">
            Your dashboard
          </Link>
        }
      />
      {form ? <UploadForm {...form} result={result} /> : null}
    </Page>
  )
}

/** The success message, then the video (by a timer, or by a refresh tag without JavaScript). */
function Uploaded({ id, title }: { id: string; title: string }) {
  const navigate = useNavigate()
  useEffect(() => {
    const timer = window.setTimeout(() => navigate(`/video/${id}`, { replace: true }), UPLOAD_REDIRECT_MS)
    return () => window.clearTimeout(timer)
  }, [id, navigate])
  return (
    <Page width="narrow">
      <noscript>
        <meta httpEquiv="refresh" content={`${UPLOAD_REDIRECT_MS / 1000};url=/video/${id}`} />
      </noscript>
      <section className="card flex flex-col items-center gap-4 p-8 text-center" aria-labelledby="uploaded-title">
        <span className="inline-flex h-14 w-14 items-center justify-center rounded-full bg-emerald-50 text-emerald-600 ring-1 ring-emerald-200">
          <CheckIcon className="h-7 w-7" strokeWidth="2.25" />
        </span>
        <h1 id="uploaded-title" className="text-title">
          {title}
        </h1>
        <Alert tone="success">{UPLOAD_MESSAGES.success}</Alert>
        <p className="text-caption">We are preparing it for playback — it will be ready to watch in a moment.</p>
        <Link to={`/video/${id}`} className="btn-primary">
          Go to your video
        </Link>
      </section>
    </Page>
  )
}

export const meta: MetaFunction = () => [
  { title: 'Upload Content — Lumen' },
  { name: 'description', content: 'Upload a lesson to the Lumen feed, or a spark under a minute.' },
]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Upload is unavailable"
      message="The upload page could not be shown. Please try again in a moment."
      action={{ href: '/upload', label: 'Try again' }}
    />
  )
}
