import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Suspense, useRef } from 'react'
import { checkpointMarks, CheckpointPlayer } from '~/components/checkpoints/checkpoint-player'
import {
  isRouteErrorResponse,
  useActionData,
  useLoaderData,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from '@remix-run/react'
import { LessonCourseLine } from '~/components/courses/lesson-course'
import { VideoPageError } from '~/components/video/video-page-error'
import { Page } from '~/components/ui/page'
import { VideoActionsBar } from '~/components/video/actions-bar'
import { CommentsSection } from '~/components/video/comments'
import { LessonSections } from '~/components/video/lesson-sections'
import { MoreQualitiesNote } from '~/components/video/more-qualities-note'
import { PlayerMarks } from '~/components/video/player-marks'
import { ProcessingPanel } from '~/components/video/processing-panel'
import { ResumeOffer, useStartMoment } from '~/components/video/resume-offer'
import { QuotesSection } from '~/components/video/quotes'
import { VideoDescription, VideoDetails } from '~/components/video/video-details'
import { ExternalVideo, VideoPlayer } from '~/components/video-player'
import { loadHls } from '~/components/video/warm-hls'
import {
  commentSchema,
  deleteVideoSchema,
  field,
  intentSchema,
  likeSchema,
  VIDEO_MESSAGES,
  type VideoIntent,
} from '~/lib/schemas/video'
import type { VideoActionData } from '~/lib/video-page'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { addComment, deleteComment } from '~/server/comments.server'
import { siteUrlFor } from '~/server/env.server'
import { isDomainError } from '~/server/errors.server'
import { pageFailure } from '~/server/http/domain-errors.server'
import { likeQuote, likeVideo } from '~/server/likes.server'
import { deleteQuote } from '~/server/quotes.server'
import { getLearnerVideoPage } from '~/server/video-page.server'
import { deleteVideo } from '~/server/videos.server'

// The player's engine loads with the page's own scripts, not after hydration (ADR 0027).
if (typeof document !== 'undefined') loadHls().catch(() => {})

/**
 * /video/:id — the video page (docs/product.md: Video detail). Login required. Player
 * (HLS through hls.js, native HLS, MP4 without JS, or the YouTube embed),
 * details, like, quote, share, report, delete, comments and quotes. Every
 * control is a plain form first; with JavaScript, likes are optimistic
 * fetchers, comments post in place and delete asks in a dialog.
 *
 * Views are counted by the player (progress reports, or without JavaScript
 * a page view), not by this loader: see ADR 0015.
 */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  try {
    const page = await getLearnerVideoPage(claims, params.id ?? '', { siteUrl: siteUrlFor(request.url) })
    return jsonWithHeaders(page, 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    throw error
  }
}

type ActionData = VideoActionData

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
  if (!parsedIntent.success) return reply({ ok: false, intent: null, targetId: id, formError: VIDEO_MESSAGES.unknownAction }, 400)
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
        return scripted
          ? reply({ ok: true, intent, targetId, ...state })
          : redirectWithHeaders(`${here}#quote-${targetId}`, headers)
      }
      case 'comment': {
        const body = field(form, 'body') ?? ''
        const parsed = commentSchema.safeParse({ body })
        if (!parsed.success) {
          return reply({ ok: false, intent, targetId: id, formError: parsed.error.issues[0]!.message, values: { body } }, 400)
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
          return reply({ ok: false, intent, targetId: id, formError: VIDEO_MESSAGES.confirmDelete }, 400)
        }
        const message = await deleteVideo(claims, id)
        return redirectWithFlash('/dashboard', { kind: 'success', message }, headers)
      }
    }
  } catch (error) {
    if (isDomainError(error)) return pageFailure(error, { intent, targetId }, headers)
    console.warn(`[video] ${intent} failed for ${targetId}:`, error instanceof Error ? error.message : error)
    return reply({ ok: false, intent, targetId, formError: FAILURES[intent] }, 500)
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
    return { ok: false, intent: intent.data, targetId, formError: FAILURES[intent.data] } satisfies ActionData
  }
}

/** A like answers with the server's count: no need to reload the whole page for it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, actionResult, defaultShouldRevalidate }) => {
  const intent = formData?.get('intent')
  if ((intent === 'like' || intent === 'quote-like') && (actionResult as ActionData | undefined)?.ok) return false
  return defaultShouldRevalidate
}

export default function VideoPage() {
  const {
    video,
    media,
    share,
    comments,
    quotes,
    quoteTotal,
    more,
    follow,
    captions,
    resumeAt,
    chapters,
    checkpoints,
    notes,
    playbackRate,
    course,
  } = useLoaderData<typeof loader>()
  const { sparkLessons } = useLoaderData<typeof loader>()
  const playerRef = useRef<HTMLVideoElement | null>(null)
  const actionData = useActionData<typeof action>()
  const failed = actionData && !actionData.ok ? actionData : undefined
  const playable = video.status === 'ready' || Boolean(video.externalUrl)
  const { moment, resume, startAt } = useStartMoment(video, resumeAt)

  return (
    <Page>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-10">
        <div className="min-w-0">
          <article aria-labelledby="video-title">
            {video.externalUrl ? (
              <ExternalVideo url={video.externalUrl} title={video.title} countViewOf={video.id} />
            ) : playable ? (
              <VideoPlayer
                ref={playerRef}
                videoId={video.id}
                title={video.title}
                hlsUrl={media.hlsUrl}
                mp4Url={media.mp4Url}
                posterUrl={media.posterUrl}
                captions={captions.tracks}
                captionsOn={captions.captionsOn}
                lessonControls={{ playbackRate }}
                startAt={startAt}
                // hls.js loads the media with JavaScript; without it, nothing before play (the MP4 would compete with the page).
                preload="none"
                eager
                reportProgress
                countPageView
                className={`w-full overflow-hidden rounded-card bg-ink-950 ${video.portrait ? 'aspect-[4/5] sm:aspect-video' : 'aspect-video'}`}
              />
            ) : (
              <ProcessingPanel status={video.status} statusMessage={video.statusMessage} posterUrl={media.posterUrl} />
            )}
            {playable && !video.externalUrl ? (
              <>
                <PlayerMarks
                  videoId={video.id}
                  marks={[
                    ...chapters.map((chapter) => ({ at: chapter.start, label: chapter.title, kind: 'chapter' })),
                    ...checkpointMarks(checkpoints.questions, checkpoints.results),
                  ]}
                  durationSeconds={video.durationSeconds}
                  startAt={startAt}
                  current={{ kind: 'chapter', noun: 'Chapter' }}
                />
                <CheckpointPlayer
                  videoId={video.id}
                  videoRef={playerRef}
                  questions={checkpoints.questions}
                  results={checkpoints.results}
                />
              </>
            ) : null}
            {playable && resume !== null ? <ResumeOffer videoId={video.id} at={resume} /> : null}
            {course ? <LessonCourseLine course={course} videoRef={playerRef} /> : null}
            {playable && video.isOwner && video.moreQualitiesPending ? <MoreQualitiesNote videoId={video.id} /> : null}
            <VideoDetails video={video} follow={follow} />
            <VideoActionsBar video={video} share={share} failed={failed} />
            <VideoDescription description={video.description} />
            <LessonSections
              {...{ videoId: video.id, playable, startAt, moment, sparkLessons, chapters, captions, checkpoints, notes }}
              canManageCheckpoints={captions.canEdit && !video.externalUrl}
            />
          </article>
          {/* Hydrated in tasks of their own, after the player's (ADR 0057). */}
          <Suspense>
            <CommentsSection
              videoId={video.id}
              comments={comments}
              more={more.comments}
              count={video.commentCount}
              failed={failed}
            />
          </Suspense>
        </div>
        <Suspense>
          <QuotesSection videoId={video.id} quotes={quotes} more={more.quotes} count={quoteTotal} failed={failed} />
        </Suspense>
      </div>
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: loaderData ? `${loaderData.video.title} — Lumen` : `${VIDEO_MESSAGES.notFound} — Lumen` },
  ...(loaderData?.video.description ? [{ name: 'description', content: loaderData.video.description.slice(0, 160) }] : []),
]

export function ErrorBoundary() {
  return <VideoPageError />
}
