import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useFetcher,
  useLoaderData,
  useRevalidator,
  useRouteError,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from '@remix-run/react'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { ReportControl } from '~/components/report-dialog'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Checkbox, FieldError } from '~/components/ui/field'
import { Page } from '~/components/ui/page'
import { Spinner } from '~/components/ui/spinner'
import { useHydrated } from '~/components/use-hydrated'
import { ROLE_LABELS, UserAvatar, type ShellRole } from '~/components/user-avatar'
import { ExternalVideo, VideoPlayer } from '~/components/video-player'
import { avatarUrl, mediaPathUrl, mediaUrls } from '~/lib/media-urls'
import {
  COMMENT_MAX,
  commentSchema,
  deleteVideoSchema,
  field,
  intentSchema,
  likeSchema,
  shareLink,
  VIDEO_MESSAGES,
  type VideoIntent,
} from '~/lib/schemas/video'
import { publicUrl } from '~/server/env.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { supabaseSettings } from '~/server/supabase.server'
import { addComment, deleteComment } from '~/server/comments.server'
import { isDomainError } from '~/server/errors.server'
import { pageFailure } from '~/server/http/domain-errors.server'
import { likeQuote, likeVideo } from '~/server/likes.server'
import { deleteQuote } from '~/server/quotes.server'
import { deleteVideo, getVideoPage } from '~/server/videos.server'
import type { PersonSummary } from '~/lib/video-types'

/**
 * /video/:id — the video page (spec: Video detail). Login required. Player
 * (HLS through hls.js, native HLS, MP4 without JS, or the YouTube embed),
 * details, like, quote, share, report, delete, comments and quotes. Every
 * control is a plain form first; with JavaScript, likes are optimistic
 * fetchers, comments post in place and delete asks in a dialog.
 *
 * A view is counted here, in the loader, once the video is playable: one per
 * viewer, video and hour (`public.record_view`), so reloading does not
 * inflate it, and it works without JavaScript. Prefetches are not counted.
 */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, claims, headers } = await requireUser(request, context)
  try {
    const page = await getVideoPage(claims, params.id ?? '', { countView: !isPrefetch(request) })
    return jsonWithHeaders({ viewer: { id: user.id, role: user.role }, ...page }, 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    throw error
  }
}

/** Browsers mark speculative loads (`<link rel=prefetch>`, Remix's prefetch="intent"); they are not views. */
function isPrefetch(request: Request): boolean {
  const purpose = `${request.headers.get('Sec-Purpose') ?? ''} ${request.headers.get('Purpose') ?? ''}`
  return /prefetch|prerender/i.test(purpose)
}

type ActionData =
  | { ok: true; intent: 'like' | 'quote-like'; targetId: string; likes: number; hasLiked: boolean }
  | { ok: true; intent: 'comment' | 'delete-comment' | 'delete-quote'; targetId: string; message?: string }
  | { ok: false; intent: VideoIntent | null; targetId: string; error: string; values?: { body: string } }

const FAILURES: Record<VideoIntent, string> = {
  like: VIDEO_MESSAGES.likeFailed,
  'quote-like': VIDEO_MESSAGES.quoteLikeFailed,
  comment: VIDEO_MESSAGES.commentFailed,
  'delete-comment': VIDEO_MESSAGES.commentDeleteFailed,
  'delete-quote': VIDEO_MESSAGES.quoteDeleteFailed,
  delete: VIDEO_MESSAGES.deleteFailed,
}

/**
 * Every action posts an `intent`. Scripted submissions (`js=1`, set only
 * once React runs) get data back; plain form posts are redirected back with
 * a flash message (post/redirect/get). Refusals — 400, 403, 404 — answer
 * with their status and the spec's message either way; a signed-out visitor
 * is sent to /login by the guard (the session expired: 401's equivalent for
 * a page).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const id = params.id ?? ''
  const here = `/video/${encodeURIComponent(id)}`
  const form = await request.formData()
  const scripted = form.get('js') === '1'
  const parsedIntent = intentSchema.safeParse(field(form, 'intent'))
  const reply = (value: ActionData, status = 200) => jsonWithHeaders<ActionData>(value, status, headers)
  if (!parsedIntent.success) return reply({ ok: false, intent: null, targetId: id, error: VIDEO_MESSAGES.unknownAction }, 400)
  const intent = parsedIntent.data
  const targetId = field(form, 'targetId') ?? id

  try {
    switch (intent) {
      case 'like': {
        const want = likeSchema.safeParse({ like: field(form, 'like') })
        const state = await likeVideo(claims, id, want.success ? want.data.like : undefined)
        return scripted ? reply({ ok: true, intent, targetId: id, ...state }) : redirectWithHeaders(`${here}#actions`, headers)
      }
      case 'quote-like': {
        const want = likeSchema.safeParse({ like: field(form, 'like') })
        const state = await likeQuote(claims, targetId, want.success ? want.data.like : undefined)
        return scripted ? reply({ ok: true, intent, targetId, ...state }) : redirectWithHeaders(`${here}#quote-${targetId}`, headers)
      }
      case 'comment': {
        const body = field(form, 'body') ?? ''
        const parsed = commentSchema.safeParse({ body })
        if (!parsed.success) {
          return reply({ ok: false, intent, targetId: id, error: parsed.error.issues[0]!.message, values: { body } }, 400)
        }
        await addComment(claims, id, parsed.data.body)
        return scripted
          ? reply({ ok: true, intent, targetId: id })
          : redirectWithFlash(`${here}#comments`, { kind: 'success', message: VIDEO_MESSAGES.commentAdded }, headers)
      }
      case 'delete-comment': {
        await deleteComment(claims, targetId)
        return scripted
          ? reply({ ok: true, intent, targetId, message: VIDEO_MESSAGES.commentDeleted })
          : redirectWithFlash(`${here}#comments`, { kind: 'success', message: VIDEO_MESSAGES.commentDeleted }, headers)
      }
      case 'delete-quote': {
        const message = await deleteQuote(claims, targetId)
        return scripted
          ? reply({ ok: true, intent, targetId, message })
          : redirectWithFlash(`${here}#quotes`, { kind: 'success', message }, headers)
      }
      case 'delete': {
        if (!deleteVideoSchema.safeParse({ confirm: field(form, 'confirm') }).success) {
          return reply({ ok: false, intent, targetId: id, error: VIDEO_MESSAGES.confirmDelete }, 400)
        }
        const message = await deleteVideo(claims, id)
        return redirectWithFlash('/dashboard', { kind: 'success', message }, headers)
      }
    }
  } catch (error) {
    if (isDomainError(error)) return pageFailure(error, { ok: false as const, intent, targetId }, headers)
    console.warn(`[video] ${intent} failed for ${targetId}:`, error instanceof Error ? error.message : error)
    return reply({ ok: false, intent, targetId, error: FAILURES[intent] }, 500)
  }
}

/**
 * With JavaScript every submission passes through here: when the server
 * cannot be reached (offline, a dropped connection) the action's own failure
 * comes back — a like is reverted with 'Error liking video' — instead of
 * the error page. Redirects and the server's answers pass untouched.
 */
export async function clientAction({ request, params, serverAction }: ClientActionFunctionArgs) {
  const form = await request.clone().formData()
  try {
    return await serverAction<typeof action>()
  } catch (error) {
    const intent = intentSchema.safeParse(form.get('intent'))
    if (error instanceof Response || isRouteErrorResponse(error) || !intent.success) throw error
    const targetId = field(form, 'targetId') ?? params.id ?? ''
    return { ok: false, intent: intent.data, targetId, error: FAILURES[intent.data] } satisfies ActionData
  }
}

/** A like answers with the server's count: no need to reload the whole page for it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, actionResult, defaultShouldRevalidate }) => {
  const intent = formData?.get('intent')
  if ((intent === 'like' || intent === 'quote-like') && (actionResult as ActionData | undefined)?.ok) return false
  return defaultShouldRevalidate
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>
type CommentData = LoaderData['comments'][number]
type QuoteData = LoaderData['quotes'][number]

export default function VideoPage() {
  const { video, media, share, comments, quotes } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const failed = actionData && !actionData.ok ? actionData : undefined
  const playable = video.status === 'ready' || Boolean(video.externalUrl)

  return (
    <Page>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-10">
        <div className="min-w-0">
          <article aria-labelledby="video-title">
            {video.externalUrl ? (
              <ExternalVideo url={video.externalUrl} title={video.title} />
            ) : playable ? (
              <VideoPlayer
                videoId={video.id}
                title={video.title}
                hlsUrl={media.hlsUrl}
                mp4Url={media.mp4Url}
                posterUrl={media.posterUrl}
                className={`w-full overflow-hidden rounded-card bg-ink-950 ${video.portrait ? 'aspect-[4/5] sm:aspect-video' : 'aspect-video'}`}
              />
            ) : (
              <ProcessingPanel status={video.status} statusMessage={video.statusMessage} posterUrl={media.posterUrl} />
            )}

            <header className="mt-5">
              <div className="flex flex-wrap items-center gap-2">
                {video.type === 'spark' ? (
                  <span className="rounded-full bg-spark-300/40 px-2.5 py-0.5 text-xs font-semibold text-ink-900">Spark</span>
                ) : null}
                {!video.isPublic ? (
                  <span className="rounded-full bg-ink-200 px-2.5 py-0.5 text-xs font-semibold text-ink-800">Private</span>
                ) : null}
                <span className="text-caption">{video.categoryName}</span>
              </div>
              <h1 id="video-title" className="text-title mt-1 break-words">
                {video.title}
              </h1>
              <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
                <Link
                  to={`/creator/${video.creator.id}`}
                  className="inline-flex min-h-11 items-center gap-2.5 rounded-full pr-2 font-semibold text-ink-900 hover:text-brand-700"
                >
                  <UserAvatar user={video.creator} size="md" />
                  <span>
                    <span className="block leading-tight">{video.creator.username}</span>
                    <span className="text-caption block font-normal leading-tight">{ROLE_LABELS[video.creator.role] ?? 'Creator'}</span>
                  </span>
                </Link>
                <p className="text-caption">
                  <time dateTime={video.createdAt}>{formatDate(video.createdAt)}</time>
                  <span aria-hidden="true"> · </span>
                  <span data-testid="view-count">{formatCount(video.views, 'view')}</span>
                </p>
              </div>
            </header>

            <div id="actions" className="mt-4 flex flex-wrap items-center gap-2">
              <VideoLikeButton videoId={video.id} likes={video.likes} hasLiked={video.hasLiked} noJsError={failed?.intent === 'like' ? failed.error : null} />
              <Link to={`/create-quote?videoId=${encodeURIComponent(video.id)}`} className="btn-secondary">
                <QuoteIcon />
                Quote
              </Link>
              <ShareControl videoId={video.id} share={share} />
              <ReportControl contentType="video" contentId={video.id} contentLabel={video.title} variant="button" />
              {video.canDelete ? (
                <DeleteVideoControl title={video.title} error={failed?.intent === 'delete' ? failed.error : null} />
              ) : null}
            </div>

            {video.description ? (
              <div className="card mt-5 p-4 sm:p-5">
                <h2 className="sr-only">Description</h2>
                <p className="text-body whitespace-pre-line break-words">{video.description}</p>
              </div>
            ) : null}
          </article>

          <CommentsSection videoId={video.id} comments={comments} count={video.commentCount} failed={failed} />
        </div>

        <QuotesSection videoId={video.id} quotes={quotes} count={video.quoteCount} failed={failed} />
      </div>
    </Page>
  )
}

// Player states -----------------------------------------------------------------------

const STATUS_LABELS: Record<string, string> = {
  uploading: 'Uploading',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Processing failed',
}

/** Shown instead of the player until the worker is done; re-checks every few seconds with JS. */
function ProcessingPanel({ status, statusMessage, posterUrl }: { status: string; statusMessage: string | null; posterUrl: string | null }) {
  const revalidator = useRevalidator()
  const failed = status === 'failed'
  useEffect(() => {
    if (failed) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') revalidator.revalidate()
    }, 4000)
    return () => clearInterval(timer)
  }, [failed, revalidator])

  return (
    <div
      className="relative flex aspect-video w-full flex-col items-center justify-center gap-2 overflow-hidden rounded-card bg-ink-900 p-6 text-center text-white"
      data-testid="processing-panel"
    >
      {posterUrl ? <img src={posterUrl} alt="" className="absolute inset-0 h-full w-full object-cover opacity-20" /> : null}
      <div className="relative flex flex-col items-center gap-2" role="status">
        {failed ? (
          <>
            <p className="text-heading">This video could not be processed.</p>
            {statusMessage ? <p className="max-w-md text-sm text-ink-200">{statusMessage}</p> : null}
          </>
        ) : (
          <>
            <Spinner label="Preparing video" className="h-8 w-8" />
            <p className="text-heading">We’re preparing this video…</p>
            <p className="text-sm text-ink-300">Status: {STATUS_LABELS[status] ?? status}. It will start here as soon as it is ready.</p>
          </>
        )}
      </div>
      {failed ? null : (
        <a href="" className="relative mt-2 text-sm font-semibold text-white underline underline-offset-4">
          Check again
        </a>
      )}
    </div>
  )
}

// Like --------------------------------------------------------------------------------

interface LikeState {
  likes: number
  hasLiked: boolean
}

/**
 * A like toggle: a plain form post without JS; with JS a fetcher whose
 * button flips at once (optimistic), then shows the server's count, or
 * goes back to the last confirmed state with the error.
 */
function useLikeToggle(fetcherKey: string, intent: 'like' | 'quote-like', initial: LikeState) {
  const fetcher = useFetcher<typeof action>({ key: fetcherKey })
  const { likes, hasLiked } = initial
  const [confirmed, setConfirmed] = useState<LikeState>({ likes, hasLiked })
  // Fresh loader data (another action revalidated the page) is the server's word too.
  useEffect(() => setConfirmed({ likes, hasLiked }), [likes, hasLiked])
  const result = fetcher.state === 'idle' && fetcher.data && fetcher.data.intent === intent ? fetcher.data : undefined
  useEffect(() => {
    if (result?.ok && 'likes' in result) setConfirmed({ likes: result.likes, hasLiked: result.hasLiked })
  }, [result])
  let shown = confirmed
  const pending = fetcher.formData?.get('like')
  if (typeof pending === 'string') {
    const want = pending === 'true'
    if (want !== confirmed.hasLiked) shown = { hasLiked: want, likes: Math.max(0, confirmed.likes + (want ? 1 : -1)) }
  }
  const error = result && !result.ok ? result.error : null
  return { fetcher, shown, error }
}

function VideoLikeButton({ videoId, likes, hasLiked, noJsError }: LikeState & { videoId: string; noJsError: string | null }) {
  const hydrated = useHydrated()
  const { fetcher, shown, error } = useLikeToggle(`like-${videoId}`, 'like', { likes, hasLiked })
  const message = error ?? noJsError
  return (
    <fetcher.Form method="post" preventScrollReset className="relative">
      <input type="hidden" name="intent" value="like" />
      <input type="hidden" name="like" value={String(!shown.hasLiked)} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <button
        type="submit"
        aria-pressed={shown.hasLiked}
        data-testid="like-button"
        data-like-count={shown.likes}
        className={`btn ${shown.hasLiked ? 'bg-rose-50 text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-100' : 'bg-white text-ink-900 ring-1 ring-inset ring-ink-200 hover:bg-ink-100'}`}
      >
        <HeartIcon filled={shown.hasLiked} />
        <span>{shown.hasLiked ? 'Liked' : 'Like'}</span>
        <span className="tabular-nums" aria-label={formatCount(shown.likes, 'like')}>
          {shown.likes}
        </span>
      </button>
      {message ? (
        <p role="alert" className="absolute left-0 top-full z-10 mt-1 whitespace-nowrap rounded-lg bg-red-50 px-2 py-1 text-xs font-medium text-red-800 ring-1 ring-red-200">
          {message}
        </p>
      ) : null}
    </fetcher.Form>
  )
}

// Share -------------------------------------------------------------------------------

function ShareControl({ videoId, share }: { videoId: string; share: LoaderData['share'] }) {
  const hydrated = useHydrated()
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string; url?: string } | null>(null)
  const inputId = useId()
  useEffect(() => {
    if (notice?.tone !== 'success') return
    const timer = setTimeout(() => setNotice(null), 3000)
    return () => clearTimeout(timer)
  }, [notice])

  if (!hydrated) {
    // Without JS: the link in a read-only field, to select and copy.
    return (
      <details className="group relative">
        <summary className="btn-secondary cursor-pointer list-none [&::-webkit-details-marker]:hidden">
          <ShareIcon />
          Share
        </summary>
        <div className="card absolute left-0 z-20 mt-2 w-[min(22rem,calc(100vw-2rem))] p-4">
          {share.ok ? (
            <>
              <label htmlFor={inputId} className="text-sm font-medium text-ink-800">
                Link to this video
              </label>
              <input
                id={inputId}
                readOnly
                value={share.url}
                className="mt-1.5 block w-full rounded-xl border-0 bg-ink-50 px-3 py-2 text-sm text-ink-900 ring-1 ring-inset ring-ink-300"
              />
              <p className="text-caption mt-1.5">Select the link and copy it.</p>
            </>
          ) : (
            <FieldError>{share.message}</FieldError>
          )}
        </div>
      </details>
    )
  }

  const copy = async () => {
    const link = shareLink(window.location.origin, videoId)
    if (!link.ok) {
      setNotice({ tone: 'error', text: link.message })
      return
    }
    try {
      await navigator.clipboard.writeText(link.url)
      setNotice({ tone: 'success', text: VIDEO_MESSAGES.linkCopied })
    } catch {
      // Clipboard refused (permissions, insecure origin): show the link to copy by hand.
      setNotice({ tone: 'error', text: 'Copy this link to share the video:', url: link.url })
    }
  }
  return (
    <div className="relative">
      <button type="button" className="btn-secondary" onClick={copy}>
        <ShareIcon />
        Share
      </button>
      <div aria-live="polite" className="absolute left-0 top-full z-20 mt-1">
        {notice ? (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`w-max max-w-[min(22rem,calc(100vw-2rem))] rounded-lg px-3 py-1.5 text-sm font-medium shadow-card ring-1 ${notice.tone === 'success' ? 'bg-emerald-50 text-emerald-900 ring-emerald-200' : 'bg-white text-ink-900 ring-ink-200'}`}
          >
            {notice.text}
            {notice.url ? (
              <input
                readOnly
                aria-label="Link to this video"
                value={notice.url}
                onFocus={(event) => event.currentTarget.select()}
                className="mt-1.5 block w-full rounded-lg border-0 bg-ink-50 px-2 py-1 text-sm ring-1 ring-inset ring-ink-300"
              />
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  )
}

// Delete ------------------------------------------------------------------------------

/**
 * Owner or admin only. With JS: a button opening a confirmation dialog.
 * Without: a disclosure whose form needs the box 'Yes, delete this video'
 * ticked (the server insists on it either way).
 */
function DeleteVideoControl({ title, error }: { title: string; error: string | null }) {
  const hydrated = useHydrated()
  const dialogRef = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  const danger = 'btn bg-white text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50'

  if (!hydrated) {
    return (
      <details className="open:basis-full" open={Boolean(error)}>
        <summary className={`${danger} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
          <TrashIcon />
          Delete
        </summary>
        <Form method="post" className="card mt-2 flex max-w-sm flex-col gap-3 p-4">
          <input type="hidden" name="intent" value="delete" />
          <p className="text-sm text-ink-800">Deleting removes the video, its comments and quotes for everyone. This cannot be undone.</p>
          <Checkbox name="confirm" value="yes" label="Yes, delete this video" />
          {error ? <FieldError>{error}</FieldError> : null}
          <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
            Delete video
          </button>
        </Form>
      </details>
    )
  }

  return (
    <>
      <button type="button" className={danger} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <TrashIcon />
        Delete
      </button>
      {error ? (
        <p role="alert" className="basis-full text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault()
          setOpen(false)
        }}
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === dialogRef.current) setOpen(false)
        }}
        className="m-0 mt-auto w-full max-w-none rounded-t-2xl bg-white p-0 text-ink-900 shadow-2xl backdrop:bg-ink-950/50 sm:m-auto sm:w-[26rem] sm:rounded-card"
      >
        {open ? (
          <Form method="post" className="flex flex-col gap-4 p-5 pb-[calc(1.25rem+env(safe-area-inset-bottom))] sm:p-6" onSubmit={() => setOpen(false)}>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="confirm" value="yes" />
            <h2 id={titleId} className="text-heading">
              Delete this video?
            </h2>
            <p className="text-body">
              “<span className="font-semibold">{title}</span>” will be removed for everyone, with its comments and quotes. This cannot be undone.
            </p>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <button type="button" className="btn-secondary" autoFocus onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
                Delete video
              </button>
            </div>
          </Form>
        ) : null}
      </dialog>
    </>
  )
}

// Comments ----------------------------------------------------------------------------

type Failure = Extract<ActionData, { ok: false }> | undefined

function CommentsSection({ videoId, comments, count, failed }: { videoId: string; comments: CommentData[]; count: number; failed: Failure }) {
  return (
    <section id="comments" aria-labelledby="comments-heading" className="mt-10 scroll-mt-24">
      <h2 id="comments-heading" className="text-heading">
        Comments <span className="text-caption font-normal">({count})</span>
      </h2>
      <CommentForm videoId={videoId} noJsFailure={failed?.intent === 'comment' ? failed : undefined} />
      {failed && failed.intent === 'delete-comment' ? (
        <div className="mt-4">
          <Alert tone="error">{failed.error}</Alert>
        </div>
      ) : null}
      {comments.length === 0 ? (
        <p className="text-caption mt-6 rounded-card border border-dashed border-ink-300 px-4 py-8 text-center">
          No comments yet. Start the conversation.
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-5">
          {comments.map((comment) => (
            <CommentItem key={comment.id} comment={comment} />
          ))}
        </ul>
      )}
    </section>
  )
}

function CommentForm({ videoId, noJsFailure }: { videoId: string; noJsFailure: Failure }) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<typeof action>({ key: `comment-${videoId}` })
  const [body, setBody] = useState(noJsFailure?.values?.body ?? '')
  const textareaId = useId()
  const errorId = `${textareaId}-error`
  const result = fetcher.state === 'idle' && fetcher.data?.intent === 'comment' ? fetcher.data : undefined
  const submitting = fetcher.state !== 'idle'
  useEffect(() => {
    if (result?.ok) setBody('')
  }, [result])
  const error = result && !result.ok ? result.error : (noJsFailure?.error ?? null)
  const empty = body.trim() === ''

  return (
    <fetcher.Form method="post" preventScrollReset className="mt-4 flex flex-col gap-2">
      <input type="hidden" name="intent" value="comment" />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <label htmlFor={textareaId} className="text-sm font-medium text-ink-800">
        Add a comment
      </label>
      <textarea
        id={textareaId}
        name="body"
        rows={3}
        maxLength={COMMENT_MAX}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        placeholder="Share a thought or ask a question"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="block w-full rounded-xl border-0 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm ring-1 ring-inset ring-ink-300 placeholder:text-ink-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid=true]:ring-red-500"
      />
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={hydrated && (empty || submitting)}>
          {submitting ? <Spinner label="Posting comment" className="h-4 w-4" /> : null}
          Post Comment
        </button>
      </div>
    </fetcher.Form>
  )
}

function CommentItem({ comment }: { comment: CommentData }) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<typeof action>({ key: `delete-comment-${comment.id}` })
  const deleting = fetcher.state !== 'idle'
  const failedHere = fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null
  return (
    <li className={`flex gap-3 ${deleting ? 'opacity-50' : ''}`} id={`comment-${comment.id}`}>
      <UserAvatar user={comment.user} size="md" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <PersonName person={comment.user} />
          <time className="text-caption" dateTime={comment.createdAt}>
            {formatDate(comment.createdAt)}
          </time>
        </div>
        <p className="text-body mt-0.5 whitespace-pre-line break-words">{comment.body}</p>
        {failedHere ? <FieldError>{failedHere}</FieldError> : null}
      </div>
      <div className="flex shrink-0 items-start">
        <ReportControl contentType="comment" contentId={comment.id} contentLabel={excerpt(comment.body)} />
        {comment.canDelete ? (
          <fetcher.Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="delete-comment" />
            <input type="hidden" name="targetId" value={comment.id} />
            {hydrated ? <input type="hidden" name="js" value="1" /> : null}
            <IconButton label="Delete comment" disabled={deleting}>
              <TrashIcon />
            </IconButton>
          </fetcher.Form>
        ) : null}
      </div>
    </li>
  )
}

// Quotes ------------------------------------------------------------------------------

function QuotesSection({ videoId, quotes, count, failed }: { videoId: string; quotes: QuoteData[]; count: number; failed: Failure }) {
  const quoteFailure = failed && (failed.intent === 'delete-quote' || failed.intent === 'quote-like') ? failed : undefined
  return (
    <aside id="quotes" aria-labelledby="quotes-heading" className="scroll-mt-24">
      <div className="flex items-center justify-between gap-3">
        <h2 id="quotes-heading" className="text-heading">
          Quotes <span className="text-caption font-normal">({count})</span>
        </h2>
        <Link to={`/create-quote?videoId=${encodeURIComponent(videoId)}`} className="text-sm font-semibold text-brand-700 hover:text-brand-800">
          Quote this video
        </Link>
      </div>
      {quoteFailure ? (
        <div className="mt-3">
          <Alert tone="error">{quoteFailure.error}</Alert>
        </div>
      ) : null}
      {quotes.length === 0 ? (
        <p className="text-caption mt-4 rounded-card border border-dashed border-ink-300 px-4 py-8 text-center">
          No quotes yet. Share your take on this video.
        </p>
      ) : (
        <ul className="mt-4 flex flex-col gap-4">
          {quotes.map((quote) => (
            <QuoteItem key={quote.id} quote={quote} />
          ))}
        </ul>
      )}
    </aside>
  )
}

function QuoteItem({ quote }: { quote: QuoteData }) {
  const hydrated = useHydrated()
  const deleter = useFetcher<typeof action>({ key: `delete-quote-${quote.id}` })
  const deleting = deleter.state !== 'idle'
  const deleteError = deleter.state === 'idle' && deleter.data && !deleter.data.ok ? deleter.data.error : null
  return (
    <li id={`quote-${quote.id}`} className={`card scroll-mt-24 p-4 ${deleting ? 'opacity-50' : ''}`}>
      <div className="flex items-center gap-2.5">
        <UserAvatar user={quote.creator} size="sm" />
        <div className="min-w-0 flex-1">
          <PersonName person={quote.creator} />
          <p className="text-caption leading-tight">
            {quote.type === 'video' ? 'Video response' : 'Text comment'} · <time dateTime={quote.createdAt}>{formatDate(quote.createdAt)}</time>
          </p>
        </div>
      </div>
      {quote.body ? <p className="text-body mt-3 whitespace-pre-line break-words">{quote.body}</p> : null}
      {quote.response ? (
        quote.response.status === 'ready' ? (
          <VideoPlayer
            videoId={quote.id}
            title={`Video response by ${quote.creator.username}`}
            hlsUrl={quote.response.hlsUrl}
            mp4Url={quote.response.mp4Url}
            className="mt-3 aspect-video w-full overflow-hidden rounded-xl bg-ink-950"
          />
        ) : (
          <p className="text-caption mt-3 rounded-xl bg-ink-100 px-3 py-2">
            {quote.response.status === 'failed' ? 'This video response could not be processed.' : 'The video response is being prepared…'}
          </p>
        )
      ) : null}
      <div className="mt-3 flex items-center gap-1">
        <QuoteLikeButton quoteId={quote.id} likes={quote.likes} hasLiked={quote.hasLiked} />
        <ReportControl contentType="quote" contentId={quote.id} contentLabel={excerpt(quote.body || `quote by ${quote.creator.username}`)} />
        {quote.canDelete ? (
          <deleter.Form
            method="post"
            preventScrollReset
            className="ml-auto"
            onSubmit={(event) => {
              if (!window.confirm('Delete this quote?')) event.preventDefault()
            }}
          >
            <input type="hidden" name="intent" value="delete-quote" />
            <input type="hidden" name="targetId" value={quote.id} />
            {hydrated ? <input type="hidden" name="js" value="1" /> : null}
            <IconButton label="Delete quote" disabled={deleting}>
              <TrashIcon />
            </IconButton>
          </deleter.Form>
        ) : null}
      </div>
      {deleteError ? <FieldError>{deleteError}</FieldError> : null}
    </li>
  )
}

function QuoteLikeButton({ quoteId, likes, hasLiked }: LikeState & { quoteId: string }) {
  const hydrated = useHydrated()
  const { fetcher, shown, error } = useLikeToggle(`quote-like-${quoteId}`, 'quote-like', { likes, hasLiked })
  return (
    <fetcher.Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="quote-like" />
      <input type="hidden" name="targetId" value={quoteId} />
      <input type="hidden" name="like" value={String(!shown.hasLiked)} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <button
        type="submit"
        aria-pressed={shown.hasLiked}
        aria-label={`Like quote, ${formatCount(shown.likes, 'like')}`}
        data-testid="quote-like-button"
        className={`inline-flex min-h-11 items-center gap-1.5 rounded-full px-3 text-sm font-semibold transition-colors ${shown.hasLiked ? 'text-rose-700 hover:bg-rose-50' : 'text-ink-600 hover:bg-ink-100'}`}
      >
        <HeartIcon filled={shown.hasLiked} />
        <span className="tabular-nums">{shown.likes}</span>
      </button>
      {error ? (
        <span role="alert" className="ml-1 text-xs font-medium text-red-700">
          {error}
        </span>
      ) : null}
    </fetcher.Form>
  )
}

// Small pieces ------------------------------------------------------------------------

function PersonName({ person }: { person: { id: string; username: string; role: ShellRole } }) {
  const className = 'font-semibold text-ink-900'
  return person.role === 'user' ? (
    <span className={className}>{person.username}</span>
  ) : (
    <Link to={`/creator/${person.id}`} className={`${className} hover:text-brand-700`}>
      {person.username}
    </Link>
  )
}

function IconButton({ label, disabled, children }: { label: string; disabled?: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      title={label}
      aria-disabled={disabled || undefined}
      className="inline-flex h-11 w-11 items-center justify-center rounded-full text-ink-500 transition-colors hover:bg-ink-100 hover:text-red-700"
    >
      <span className="sr-only">{label}</span>
      {children}
    </button>
  )
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })

/** A fixed locale and zone, so the server's HTML and the browser's render agree. */
function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso))
}

function formatCount(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`
}

function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" aria-hidden="true">
      <path d="M12 20.5s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.6a4.3 4.3 0 0 1 7.5 2.7c0 5.6-7.5 10.2-7.5 10.2Z" />
    </svg>
  )
}

function QuoteIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M9.5 7H6a1 1 0 0 0-1 1v4a1 1 0 0 0 1 1h3v1.5A2.5 2.5 0 0 1 6.5 17M19.5 7H16a1 1 0 0 0-1 1v4a1 1 0 0 0 1 1h3v1.5a2.5 2.5 0 0 1-2.5 2.5" />
    </svg>
  )
}

function ShareIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M12 15V4m0 0L8 8m4-4 4 4M5 13v5a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-5" />
    </svg>
  )
}

function TrashIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
    </svg>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: loaderData ? `${loaderData.video.title} — Lumen` : `${VIDEO_MESSAGES.notFound} — Lumen` },
  ...(loaderData?.video.description ? [{ name: 'description', content: loaderData.video.description.slice(0, 160) }] : []),
]

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusCard
        title={VIDEO_MESSAGES.notFound}
        message="This video doesn't exist, was deleted, or is private."
        action={{ href: '/feed', label: 'Back to Feed' }}
      />
    )
  }
  const status = isRouteErrorResponse(error) ? `error ${error.status}` : 'something went wrong'
  return (
    <StatusCard
      title="Something went wrong"
      message={`Failed to load video: ${status}. Please try again in a moment.`}
      action={{ href: '/feed', label: 'Back to Feed' }}
    />
  )
}


