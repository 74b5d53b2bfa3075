import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, type ClientLoaderFunctionArgs, type ShouldRevalidateFunction } from '@remix-run/react'
import { BoltIcon } from '~/components/icons'
import { REEL_EMPTY, REEL_FAILED, ReelViewer } from '~/components/reel-viewer'
import { filterQuery } from '~/components/video-grid'
import { listVideos } from '~/server/feed/lists.server'
import type { ShellHandle } from '~/root'
import { browseQuery } from '~/lib/browse'
import { isUuid } from '~/lib/ids'
import { commentSchema, field, likeSchema, VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { ReelActionData } from '~/lib/reel-actions'
import type { VideoPageComment } from '~/lib/video-page'
import { captionsOnByDefault } from '~/server/captions.server'
import { getPlaybackRate } from '~/server/playback.server'
import { addComment } from '~/server/comments.server'
import { isDomainError } from '~/server/errors.server'
import { flashFailure, pageFailure } from '~/server/http/domain-errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders, loadFailure, redirectWithHeaders } from '~/server/http/responses.server'
import { likeVideo } from '~/server/likes.server'
import { siteUrlFor } from '~/server/env.server'
import { requireUser } from '~/server/permissions.server'
import { listReelComments, openReelWindow, toReelItems, withReasons } from '~/server/reels.server'
import { SparkFeedTabs } from '~/components/reels/not-interested'
import { feedParams, NOT_INTERESTED_MESSAGES, parseSparkFeed, type NotInterestedActionData, type SparkFeed } from '~/lib/for-you'
import { listSparkFeed, markNotInterested } from '~/server/for-you.server'

/** Sparks per load; the viewer asks for more when two clips remain. */
const REEL_PAGE_SIZE = 8
/** With `?start=`, this many earlier sparks are loaded above the starting clip. */
const REEL_BEFORE = 10

/** The shell hides its header, bottom bar and Feedback button on this full-screen route. */
export const handle: ShellHandle = { immersive: true }

/** The ranked feeds (For You, Following) apply when no filter is set; a search or category lists newest first. */
function isRanked(filters: { search: string; category: string; captions: boolean }): boolean {
  return !filters.search.trim() && !filters.category && !filters.captions
}

/** The viewer's query: the filters, or the feed (`?feed=following`; For You is the default). */
function viewerQuery(
  filters: { search: string; category: string; captions: boolean },
  feed: SparkFeed,
  extra: Record<string, string> = {},
) {
  return filterQuery(filters, { ...(isRanked(filters) ? feedParams(feed) : {}), ...extra })
}

/**
 * GET /sparks-reels?feed=following&search=&category=&start=<id> — the reel viewer over the
 * same list as /sparks (docs/product.md: Sparks). `start` opens at one spark (with up to
 * ten before it); `cursor` answers the viewer's fetcher with the next sparks
 * (`{ page }`). `comments=<id>` opens that clip's comment sheet (the no-JS
 * page: with `start=<id>`, the whole viewer with the sheet open; the viewer's
 * fetcher asks `commentsOf=<id>` for `{ comments }` alone). Login required.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const { filters, cursor, start } = browseQuery(request.url)
  const query = new URL(request.url).searchParams
  const commentsOf = query.get('commentsOf')
  const commentsFor = query.get('comments')
  const feed = parseSparkFeed(query.get('feed'))
  const ranked = isRanked(filters)
  const none = {
    page: null,
    window: null,
    filters,
    feed,
    ranked,
    captionsOn: false,
    playbackRate: null as number | null,
    comments: null,
    siteUrl: siteUrlFor(request.url),
  }
  try {
    if (commentsOf) {
      const comments = isUuid(commentsOf) ? await listReelComments(claims, commentsOf) : []
      return jsonWithHeaders({ ...none, comments: { videoId: commentsOf, list: comments } }, 200, headers)
    }
    if (cursor && ranked) {
      const page = await listSparkFeed(claims, { feed, cursor, limit: REEL_PAGE_SIZE })
      return jsonWithHeaders(
        { ...none, page: { items: await withReasons(claims, page.items), nextCursor: page.nextCursor } },
        200,
        headers,
      )
    }
    if (cursor) {
      const page = await listVideos(claims, { type: 'spark', ...filters, cursor, limit: REEL_PAGE_SIZE })
      const items = await toReelItems(claims, page.items)
      return jsonWithHeaders({ ...none, page: { items, nextCursor: page.nextCursor } }, 200, headers)
    }
    const window = await openReelWindow(claims, { filters, feed, ranked, start, pageSize: REEL_PAGE_SIZE, before: REEL_BEFORE })
    const [captionsOn, playbackRate] = await Promise.all([captionsOnByDefault(claims), getPlaybackRate(claims)])
    let comments: { videoId: string; list: VideoPageComment[] } | null = null
    if (commentsFor && window.items.some((item) => item.id === commentsFor)) {
      comments = { videoId: commentsFor, list: await listReelComments(claims, commentsFor) }
    }
    return jsonWithHeaders({ ...none, window, captionsOn, playbackRate, comments }, 200, headers)
  } catch (error) {
    console.warn('[reels] could not load sparks:', error instanceof Error ? error.message : error)
    const failure = loadFailure(error)
    return jsonWithHeaders(none, failure.status, headers, failure.headers)
  }
}

/**
 * In the browser, the viewer's next page (`?cursor=`) never ends on the error page: a load the
 * connection dropped answers as the loader does when it cannot read the sparks (`page: null`),
 * and the viewer offers to try again. Every other load is the server's answer as it is.
 */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  if (!new URL(request.url).searchParams.has('cursor')) return serverLoader<typeof loader>()
  try {
    return await serverLoader<typeof loader>()
  } catch (error) {
    if (request.signal.aborted) throw error
    return { page: null }
  }
}

/**
 * POST /sparks-reels — a clip's Like and Comment from the viewer: fields
 * `intent` ('like' | 'comment'), `videoId`, `like` ('true' | 'false') or
 * `body`, and `js=1` from scripts. The same domain functions as the video
 * page's (likeVideo, addComment) with the same messages; scripts get
 * `ReelActionData`, a plain form post is redirected back to the clip (its
 * comment sheet open after a comment) with a flash. Follow posts to /follow.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const form = await request.formData()
  const scripted = field(form, 'js') === '1'
  const intent = field(form, 'intent')
  const videoId = field(form, 'videoId') ?? ''
  const { filters } = browseQuery(request.url)
  const back = (extra: Record<string, string> = {}) =>
    `/sparks-reels${filterQuery(filters, { start: videoId, ...extra })}#reel-${encodeURIComponent(videoId)}`
  const reply = (value: ReelActionData, status = 200) => jsonWithHeaders<ReelActionData>(value, status, headers)
  if (intent === 'not-interested') return notInterested(form, claims, headers, request.url)
  if (!isUuid(videoId) || (intent !== 'like' && intent !== 'comment')) {
    return reply({ ok: false, intent: null, targetId: videoId, formError: VIDEO_MESSAGES.unknownAction }, 400)
  }
  try {
    if (intent === 'like') {
      const want = likeSchema.safeParse({ like: field(form, 'like') })
      const state = await likeVideo(claims, videoId, want.success ? want.data.like : undefined)
      return scripted ? reply({ ok: true, intent, targetId: videoId, ...state }) : redirectWithHeaders(back(), headers)
    }
    const body = field(form, 'body') ?? ''
    const parsed = commentSchema.safeParse({ body })
    if (!parsed.success) {
      const error = parsed.error.issues[0]!.message
      return scripted
        ? reply({ ok: false, intent, targetId: videoId, formError: error, values: { body } }, 400)
        : redirectWithFlash(back({ comments: videoId }), { kind: 'error', message: error }, headers)
    }
    await addComment(claims, videoId, parsed.data.body)
    return scripted
      ? reply({ ok: true, intent, targetId: videoId, message: VIDEO_MESSAGES.commentAdded })
      : redirectWithFlash(back({ comments: videoId }), { kind: 'success', message: VIDEO_MESSAGES.commentAdded }, headers)
  } catch (error) {
    const failure = intent === 'like' ? VIDEO_MESSAGES.likeFailed : VIDEO_MESSAGES.commentFailed
    if (isDomainError(error)) {
      return scripted ? pageFailure(error, { intent, targetId: videoId }, headers) : flashFailure(error, back(), headers)
    }
    console.warn(`[reels] ${intent} failed for ${videoId}:`, error instanceof Error ? error.message : error)
    return scripted
      ? reply({ ok: false, intent, targetId: videoId, formError: failure }, 500)
      : redirectWithFlash(back(), { kind: 'error', message: failure }, headers)
  }
}

/**
 * `intent=not-interested` (ADR 0045): the clip, and with `creator=1` its creator's clips, go
 * down in the learner's For You. Scripts get `NotInterestedActionData`; a plain form post is
 * redirected to the next clip (`next`) of a fresh feed, with a flash.
 */
async function notInterested(form: FormData, claims: Parameters<typeof markNotInterested>[0], headers: Headers, url: string) {
  const scripted = field(form, 'js') === '1'
  const videoId = field(form, 'videoId') ?? ''
  const alsoCreator = field(form, 'creator') === '1'
  const next = field(form, 'next')
  const { filters } = browseQuery(url)
  const feed = parseSparkFeed(new URL(url).searchParams.get('feed'))
  const back = isUuid(next ?? '')
    ? `/sparks-reels${viewerQuery(filters, feed, { start: next! })}#reel-${encodeURIComponent(next!)}`
    : `/sparks-reels${viewerQuery(filters, feed)}`
  const reply = (value: NotInterestedActionData, status = 200) => jsonWithHeaders<NotInterestedActionData>(value, status, headers)
  try {
    await markNotInterested(claims, videoId, alsoCreator)
    const message = alsoCreator ? NOT_INTERESTED_MESSAGES.doneCreator : NOT_INTERESTED_MESSAGES.done
    return scripted
      ? reply({ ok: true, intent: 'not-interested', targetId: videoId, message })
      : redirectWithFlash(back, { kind: 'success', message }, headers)
  } catch (error) {
    if (isDomainError(error)) {
      return scripted
        ? reply({ ok: false, intent: 'not-interested', targetId: videoId, formError: error.message }, error.status)
        : flashFailure(error, back, headers)
    }
    console.warn(`[reels] not interested failed for ${videoId}:`, error instanceof Error ? error.message : error)
    return scripted
      ? reply({ ok: false, intent: 'not-interested', targetId: videoId, formError: NOT_INTERESTED_MESSAGES.failed }, 500)
      : redirectWithFlash(back, { kind: 'error', message: NOT_INTERESTED_MESSAGES.failed }, headers)
  }
}

/**
 * A report, a like, a comment or a follow from the viewer changes only what
 * the viewer already shows (it keeps its own counts): reloading the list
 * would restart the clips. Plain form posts (no JavaScript) reload the page anyway.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, formMethod, defaultShouldRevalidate }) =>
  formAction?.startsWith('/report') ||
  formAction?.startsWith('/follow') ||
  /^\/video\/[^/]+\/check$/.test(formAction ?? '') ||
  (formMethod?.toUpperCase() === 'POST' && formAction?.startsWith('/sparks-reels'))
    ? false
    : defaultShouldRevalidate

export default function SparksReelsPage() {
  const { window, filters, feed, ranked, captionsOn, playbackRate, comments, siteUrl } = useLoaderData<typeof loader>()
  const backHref = `/sparks${viewerQuery(filters, feed)}`
  const tabs = ranked ? (
    <SparkFeedTabs tone="dark" current={feed} href={(to) => `/sparks-reels${filterQuery(filters, feedParams(to))}`} />
  ) : null
  if (!window || window.items.length === 0) {
    return (
      <div className="fixed inset-0 z-40 flex flex-col items-center justify-center gap-4 bg-ink-950 px-6 text-center text-white">
        <span
          className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-white/10 text-spark-300"
          aria-hidden="true"
        >
          <BoltIcon className="h-8 w-8" />
        </span>
        <h1 className="text-title" role={window ? undefined : 'alert'}>
          {window ? REEL_EMPTY : REEL_FAILED}
        </h1>
        <p className="max-w-sm text-sm text-white/70">
          {window
            ? filters.search || filters.category || filters.captions
              ? 'No spark matches these filters. Try another search or category.'
              : ranked && feed === 'following'
                ? 'Clips from the creators you follow appear here. Follow a creator from a clip or their page.'
                : 'Short clips from creators will appear here as soon as they are published.'
            : 'Check your connection and try again.'}
        </p>
        {tabs}
        <div className="flex flex-wrap justify-center gap-3">
          <Link to={backHref} className="btn bg-white/10 text-white hover:bg-white/20">
            Back to Sparks
          </Link>
          {window ? null : (
            <Link to={`/sparks-reels${viewerQuery(filters, feed)}`} className="btn-primary">
              Try again
            </Link>
          )}
        </div>
      </div>
    )
  }
  return (
    <>
      <h1 className="sr-only">Sparks reels</h1>
      <ReelViewer
        key={`${feed}|${filters.search}|${filters.category}|${filters.captions}|${window.items[window.startIndex]?.id ?? ''}`}
        initial={window}
        captionsOn={captionsOn}
        playbackRate={playbackRate}
        openComments={comments}
        siteUrl={siteUrl}
        filtersQuery={viewerQuery(filters, feed)}
        backHref={backHref}
        tabs={tabs}
        pageHref={(cursor) => `/sparks-reels${viewerQuery(filters, feed, { cursor })}`}
      />
    </>
  )
}

export const meta: MetaFunction = () => [{ title: 'Sparks reels — Lumen' }]

export function ErrorBoundary() {
  return (
    <div className="fixed inset-0 z-40 flex flex-col items-center justify-center gap-4 bg-ink-950 px-6 text-center text-white">
      <h1 className="text-title">{REEL_FAILED}</h1>
      <Link to="/sparks" className="btn bg-white/10 text-white hover:bg-white/20">
        Back to Sparks
      </Link>
    </div>
  )
}
