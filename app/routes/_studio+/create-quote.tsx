import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { isRouteErrorResponse, useActionData, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import { useRef } from 'react'
import { CreateQuoteForm } from '~/components/quote/create-quote-form'
import { OriginalVideo } from '~/components/quote/original-video'
import { VideoPicker } from '~/components/quote/video-picker'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Page, PageHeader } from '~/components/ui/page'
import { createFailedMessage, QUOTE_MESSAGES, quoteFormValues, type QuoteActionData } from '~/lib/schemas/quote'
import { serverErrorMessage, UPLOAD_MESSAGES } from '~/lib/schemas/upload'
import { isDomainError } from '~/server/errors.server'
import { cleanSearch } from '~/server/feed/search.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { discardUploadBody, FORMS, receiveForm, type ReceivedForm } from '~/server/http/forms.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { createQuote, originalVideo, searchVideosToQuote } from '~/server/quotes.server'
import { browserSupabaseUrl, supabaseSettings } from '~/server/supabase.server'

/**
 * /create-quote?videoId= (docs/product.md: Create quote; Rules and
 * messages). Any signed-in user quotes a video they can see, with text or a
 * video response. Without `videoId`: 'No video selected to quote' and a search to
 * pick one; a video that cannot be loaded: 'Failed to load the video'.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context)
  const url = new URL(request.url)
  const videoId = url.searchParams.get('videoId')?.trim() ?? ''
  if (!videoId) {
    const search = cleanSearch(url.searchParams.get('search')) ?? ''
    const results = await searchVideosToQuote(session.claims, search || null)
    return jsonWithHeaders({ mode: 'pick' as const, search, results, original: null, form: null }, 200, session.headers)
  }
  const original = await originalVideo(session.claims, videoId)
  if (!original) {
    const results = await searchVideosToQuote(session.claims, null)
    return jsonWithHeaders({ mode: 'missing' as const, search: '', results, original: null, form: null }, 404, session.headers)
  }
  const { anonKey } = supabaseSettings()
  return jsonWithHeaders(
    {
      mode: 'quote' as const,
      search: '',
      results: [],
      original,
      // The browser sends a video response to Storage itself (TUS) with the visitor's own session,
      // at the address it opened the page at ('' when the stand-in shares the app's origin).
      form: { userId: session.user.id, supabase: { url: browserSupabaseUrl(), anonKey } },
    },
    200,
    session.headers,
  )
}

/**
 * Creates the quote. Scripted posts (`js=1`, a video response already in
 * Storage as `sourcePath`) get data back; a plain form post is redirected to
 * the video's quotes with a flash. Every check runs in createQuote.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  let session: Awaited<ReturnType<typeof requireUser>>
  try {
    session = await requireUser(request, context, { verify: true })
  } catch (error) {
    // Read the rest of the form first, or a browser still sending its video sees a reset, not the redirect.
    await discardUploadBody(request)
    throw error
  }
  const reply = (body: QuoteActionData, status = 200) => jsonWithHeaders<QuoteActionData>(body, status, session.headers)

  let received: ReceivedForm<keyof typeof FORMS.quote.files>
  try {
    received = await receiveForm(request, FORMS.quote)
  } catch (error) {
    if (!isDomainError(error)) throw error
    return reply({ ok: false, formError: error.message, fieldErrors: { video: error.message } }, error.status)
  }
  const scripted = received.form.get('js') === '1'
  const sourcePath = received.form.get('sourcePath')
  const values = quoteFormValues(received.form)
  try {
    const created = await createQuote(session, {
      values,
      sourcePath: typeof sourcePath === 'string' ? sourcePath : null,
      video: received.files.video ?? null,
    })
    if (scripted) return reply({ ok: true, ...created })
    return redirectWithFlash(
      `/video/${created.videoId}#quote-${created.quoteId}`,
      { kind: 'success', message: QUOTE_MESSAGES.created },
      session.headers,
    )
  } catch (error) {
    const hadFile = Boolean(received.files.video)
    if (isDomainError(error)) {
      const fieldErrors = error.fieldErrors && !error.fieldErrors.videoId ? error.fieldErrors : undefined
      return reply(
        { ok: false, formError: fieldErrors ? error.message : createFailedMessage(error.message), fieldErrors, values, hadFile },
        error.status,
      )
    }
    console.error('[create-quote] could not create the quote', error)
    return reply({ ok: false, formError: createFailedMessage(UPLOAD_MESSAGES.unexpected), values, hadFile }, 500)
  } finally {
    await received.dispose()
  }
}

/** With JavaScript: no answer (offline, a server error page) still says 'Failed to create quote: …'. */
export async function clientAction({ serverAction }: ClientActionFunctionArgs): Promise<QuoteActionData> {
  try {
    return (await serverAction<typeof action>()) as QuoteActionData
  } catch (error) {
    if (error instanceof Response) throw error
    if (isRouteErrorResponse(error)) return { ok: false, formError: createFailedMessage(serverErrorMessage(error.status)) }
    return { ok: false, formError: createFailedMessage(UPLOAD_MESSAGES.network) }
  }
}

export default function CreateQuote() {
  const data = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>() as QuoteActionData | undefined
  const playerRef = useRef<HTMLVideoElement | null>(null)
  return (
    <Page>
      <PageHeader title="Create Quote" subtitle="Respond to a video with a thought or a video of your own." />
      {data.mode === 'pick' ? <VideoPicker message={QUOTE_MESSAGES.noVideo} search={data.search} results={data.results} /> : null}
      {data.mode === 'missing' ? (
        <div className="flex flex-col gap-4">
          <Alert tone="error">{QUOTE_MESSAGES.loadFailed}</Alert>
          <VideoPicker search="" results={data.results} />
        </div>
      ) : null}
      {data.mode === 'quote' && data.original && data.form ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,6fr)_minmax(0,5fr)] lg:items-start">
          <OriginalVideo ref={playerRef} video={data.original} />
          <CreateQuoteForm videoId={data.original.id} {...data.form} playerRef={playerRef} result={result} />
        </div>
      ) : null}
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.original ? `Quote “${data.original.title}” — Lumen` : 'Create Quote — Lumen' },
]

export function ErrorBoundary() {
  return (
    <StatusCard
      title={QUOTE_MESSAGES.loadFailed}
      message="The quote page could not be shown. Please try again in a moment."
      action={{ href: '/feed', label: 'Back to Feed' }}
    />
  )
}
