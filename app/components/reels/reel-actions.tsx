import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { ChatIcon, CloseIcon, HeartIcon, QuoteIcon, ShareIcon } from '~/components/icons'
import { FieldError, useLiveError } from '~/components/ui/field'
import { checkCommentField } from '~/components/video/comment-check'
import { Spinner } from '~/components/ui/spinner'
import { UserAvatar } from '~/components/user-avatar'
import { useLikeToggle } from '~/components/video/like-buttons'
import { ManualCopyLink, useCopyLink } from '~/components/video/use-copy-link'
import type { FollowActionData } from '~/routes/_discover+/follow'
import { formatCount, formatDate } from '~/lib/format'
import { reelShareLink, type ReelActionData } from '~/lib/reel-actions'
import { COMMENT_MAX, VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { VideoPageComment } from '~/lib/video-page'

/**
 * A clip's actions in the reel viewer: the creator's avatar with Follow, Like,
 * Comments, Share and Quote, each with its count where it has one. Every one
 * works without JavaScript: Like and Follow are plain forms that come back to
 * the clip, Comments is a link that opens the clip's comment sheet, Share
 * shows the link to copy, Quote is a link. With JavaScript, Like and Follow
 * flip at once and go back on failure, Comments opens the sheet in place
 * (the clip keeps playing), and Share copies the link.
 */
export interface ReelActionsClip {
  id: string
  title: string
  creator: { id: string; username: string; avatarUrl: string | null }
  likeCount: number
  hasLiked: boolean
  commentCount: number
  /** null on the caller's own clips. */
  followsCreator: boolean | null
}

const railButton =
  'inline-flex h-11 w-11 items-center justify-center rounded-full bg-black/45 ring-1 ring-inset ring-white/15 backdrop-blur transition-colors hover:bg-black/65'
const railLabel = 'mt-0.5 text-xs font-semibold tabular-nums [text-shadow:0_1px_2px_rgb(0_0_0/0.8)]'

export function ReelActions({
  clip,
  hydrated,
  actionHref,
  siteUrl,
  here,
  commentsHref,
  onOpenComments,
}: {
  clip: ReelActionsClip
  /** The site's address (the Share link without JavaScript; with it, the page's own origin). */
  siteUrl: string
  hydrated: boolean
  /** Where Like posts (the viewer's own action, with its filters). */
  actionHref: string
  /** The viewer at this clip: where Follow comes back to without JavaScript. */
  here: string
  /** The viewer at this clip with its comment sheet open (no JavaScript). */
  commentsHref: string
  onOpenComments: (opener: HTMLElement) => void
}) {
  return (
    <div className="flex flex-col items-center gap-2.5" data-reel-actions>
      <FollowControl clip={clip} hydrated={hydrated} here={here} />
      <LikeControl clip={clip} hydrated={hydrated} actionHref={actionHref} />
      <RailItem label={formatCount(clip.commentCount, 'comment')} count={clip.commentCount}>
        {hydrated ? (
          <button
            type="button"
            className={railButton}
            aria-label={`Comments, ${formatCount(clip.commentCount, 'comment')}`}
            aria-haspopup="dialog"
            data-reel-comments-button
            onClick={(event) => onOpenComments(event.currentTarget)}
          >
            <ChatIcon />
          </button>
        ) : (
          <Link
            to={commentsHref}
            className={railButton}
            aria-label={`Comments, ${formatCount(clip.commentCount, 'comment')}`}
            data-reel-comments-button
          >
            <ChatIcon />
          </Link>
        )}
      </RailItem>
      <ShareControl clipId={clip.id} hydrated={hydrated} siteUrl={siteUrl} />
      <RailItem label="Quote">
        <Link to={`/create-quote?videoId=${encodeURIComponent(clip.id)}`} className={railButton} aria-label="Quote">
          <QuoteIcon />
        </Link>
      </RailItem>
    </div>
  )
}

function RailItem({ label, count, children }: { label: string; count?: number; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center">
      {children}
      <span className={railLabel} aria-hidden="true">
        {count ?? label}
      </span>
    </div>
  )
}

function LikeControl({ clip, hydrated, actionHref }: { clip: ReelActionsClip; hydrated: boolean; actionHref: string }) {
  const { fetcher, shown, error } = useLikeToggle(`reel-like-${clip.id}`, 'like', {
    likes: clip.likeCount,
    hasLiked: clip.hasLiked,
  })
  return (
    <fetcher.Form method="post" action={actionHref} preventScrollReset className="relative flex flex-col items-center">
      <input type="hidden" name="intent" value="like" />
      <input type="hidden" name="videoId" value={clip.id} />
      <input type="hidden" name="like" value={String(!shown.hasLiked)} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <button
        type="submit"
        aria-pressed={shown.hasLiked}
        aria-label={`Like, ${formatCount(shown.likes, 'like')}`}
        data-reel-like
        data-like-count={shown.likes}
        className={`${railButton} ${shown.hasLiked ? 'text-rose-500' : ''}`}
      >
        <HeartIcon filled={shown.hasLiked} />
      </button>
      <span className={railLabel} aria-hidden="true">
        {shown.likes}
      </span>
      {error ? (
        <p
          role="alert"
          className="absolute right-full top-1 mr-2 w-max max-w-[60vw] rounded-lg bg-red-50 px-2 py-1 text-xs font-medium text-red-800 ring-1 ring-red-200"
        >
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  )
}

/** The creator's avatar (a link to their page) with a small Follow toggle under it; none on one's own clips. */
function FollowControl({ clip, hydrated, here }: { clip: ReelActionsClip; hydrated: boolean; here: string }) {
  // One fetcher per creator: every clip of theirs shows the same state.
  const fetcher = useFetcher<FollowActionData>({ key: `reel-follow-${clip.creator.id}` })
  const initial = clip.followsCreator ?? false
  const [confirmed, setConfirmed] = useState(initial)
  useEffect(() => setConfirmed(initial), [initial])
  const result = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (result?.ok) setConfirmed(result.isFollowing)
  }, [result])
  const pending = fetcher.formData?.get('follow')
  const following = typeof pending === 'string' ? pending === 'true' : confirmed
  const avatar = (
    <Link
      to={`/creator/${clip.creator.id}`}
      className="rounded-full ring-2 ring-white"
      aria-label={`${clip.creator.username}’s page`}
    >
      <UserAvatar user={clip.creator} size="md" />
    </Link>
  )
  if (clip.followsCreator === null) return <div className="mb-2">{avatar}</div>
  return (
    <div className="relative mb-1 flex flex-col items-center">
      {avatar}
      <fetcher.Form method="post" action="/follow" preventScrollReset className="-mt-2.5">
        <input type="hidden" name="creatorId" value={clip.creator.id} />
        <input type="hidden" name="follow" value={String(!following)} />
        <input type="hidden" name="redirectTo" value={here} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <button
          type="submit"
          aria-pressed={following}
          aria-label={`${following ? 'Following' : 'Follow'} ${clip.creator.username}`}
          data-reel-follow
          className={`inline-flex h-6 min-w-6 items-center justify-center whitespace-nowrap rounded-full px-1.5 text-[0.7rem] font-bold shadow ${following ? 'bg-white text-ink-900' : 'bg-brand-600 text-white hover:bg-brand-700'}`}
        >
          {following ? 'Following' : 'Follow'}
        </button>
      </fetcher.Form>
      {result && !result.ok ? (
        <p
          role="alert"
          className="absolute right-full top-1 mr-2 w-max max-w-[60vw] rounded-lg bg-red-50 px-2 py-1 text-xs font-medium text-red-800 ring-1 ring-red-200"
        >
          {result.formError}
        </p>
      ) : null}
    </div>
  )
}

/** Share: copies the link that opens the viewer at this clip; without JavaScript, shows it to copy. */
function ShareControl({ clipId, hydrated, siteUrl }: { clipId: string; hydrated: boolean; siteUrl: string }) {
  const { notice, copy } = useCopyLink('spark')
  const [origin, setOrigin] = useState('')
  const inputId = useId()
  useEffect(() => setOrigin(window.location.origin), [])

  if (!hydrated) {
    return (
      <details className="relative flex flex-col items-center">
        <summary className={`${railButton} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
          <ShareIcon />
          <span className="sr-only">Share</span>
        </summary>
        <span className={railLabel} aria-hidden="true">
          Share
        </span>
        <div className="absolute bottom-0 right-full mr-2 w-[min(18rem,70vw)] rounded-xl bg-white p-3 text-ink-900 shadow-2xl">
          <label htmlFor={inputId} className="text-sm font-medium">
            Link to this spark
          </label>
          <input
            id={inputId}
            readOnly
            value={reelShareLink(siteUrl, clipId)}
            className="mt-1.5 block w-full rounded-lg border-0 bg-ink-50 px-2 py-1.5 text-sm ring-1 ring-inset ring-ink-300"
          />
          <a href={reelShareLink('', clipId)} className="mt-1.5 inline-block text-sm font-semibold text-brand-700 underline">
            Open the link
          </a>
        </div>
      </details>
    )
  }

  return (
    <div className="relative flex flex-col items-center">
      <button
        type="button"
        className={railButton}
        aria-label="Share"
        onClick={() => copy({ ok: true, url: reelShareLink(origin || window.location.origin, clipId) })}
        data-reel-share
      >
        <ShareIcon />
      </button>
      <span className={railLabel} aria-hidden="true">
        Share
      </span>
      <div aria-live="polite" className="absolute bottom-0 right-full mr-2">
        {notice ? (
          <div
            role="status"
            className="w-max max-w-[min(18rem,70vw)] rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-ink-900 shadow-2xl"
          >
            {notice.text}
            {notice.url ? <ManualCopyLink url={notice.url} label="Link to this spark" /> : null}
          </div>
        ) : null}
      </div>
    </div>
  )
}

/**
 * The comment sheet over the lower half of the screen: the clip's comments,
 * newest first, and the add-comment form. With JavaScript a modal `<dialog>`
 * (Escape or Close shuts it and focus goes back to the Comments button; the
 * clip keeps playing behind it); without, a panel the page opens with
 * `?comments=<id>` whose Close is a link back to the clip.
 */
export function CommentSheet({
  clip,
  comments,
  loading,
  hydrated,
  actionHref,
  closeHref,
  onClose,
  onCommented,
}: {
  clip: { id: string; title: string; commentCount: number }
  comments: VideoPageComment[] | null
  loading: boolean
  hydrated: boolean
  actionHref: string
  closeHref: string
  onClose: () => void
  onCommented: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const headingId = useId()
  useEffect(() => {
    const element = dialog.current
    if (hydrated && element && !element.open) element.showModal()
  }, [hydrated])
  const body = (
    <div className="flex h-full flex-col">
      <div className="flex items-center justify-between gap-3 border-b border-ink-100 px-4 py-2">
        <h2 id={headingId} className="text-base font-bold">
          Comments <span className="font-normal text-ink-500">({clip.commentCount})</span>
        </h2>
        {hydrated ? (
          <button
            type="button"
            onClick={onClose}
            className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-ink-100"
          >
            <CloseIcon className="h-5 w-5" />
            <span className="sr-only">Close comments</span>
          </button>
        ) : (
          <Link to={closeHref} className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-ink-100">
            <CloseIcon className="h-5 w-5" />
            <span className="sr-only">Close comments</span>
          </Link>
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
        {loading && !comments ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading comments" className="h-6 w-6" />
          </div>
        ) : comments && comments.length > 0 ? (
          <ul className="flex flex-col gap-4" data-reel-comment-list>
            {comments.map((comment) => (
              <li key={comment.id} className="flex gap-3">
                <UserAvatar user={comment.user} />
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                    <span className="min-w-0 font-semibold [overflow-wrap:anywhere]">{comment.user.username}</span>
                    <time className="text-xs text-ink-500" dateTime={comment.createdAt}>
                      {formatDate(comment.createdAt)}
                    </time>
                  </p>
                  <p className="mt-0.5 whitespace-pre-line text-sm [overflow-wrap:anywhere]">{comment.body}</p>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="py-6 text-center text-sm text-ink-500">No comments yet. Start the conversation.</p>
        )}
      </div>
      <ReelCommentForm clipId={clip.id} hydrated={hydrated} actionHref={actionHref} onCommented={onCommented} />
    </div>
  )
  const sheet =
    'inset-x-0 bottom-0 mx-auto h-[55dvh] w-full max-w-lg overflow-hidden rounded-t-2xl bg-white p-0 text-ink-900 shadow-2xl'
  if (!hydrated) {
    return (
      <section aria-labelledby={headingId} className={`fixed z-30 ${sheet}`} data-reel-comment-sheet>
        {body}
      </section>
    )
  }
  return (
    <dialog
      ref={dialog}
      aria-labelledby={headingId}
      onClose={onClose}
      className={`fixed mb-0 mt-auto max-h-[55dvh] backdrop:bg-black/30 ${sheet}`}
      data-reel-comment-sheet
    >
      {body}
    </dialog>
  )
}

function ReelCommentForm({
  clipId,
  hydrated,
  actionHref,
  onCommented,
}: {
  clipId: string
  hydrated: boolean
  actionHref: string
  onCommented: () => void
}) {
  const fetcher = useFetcher<ReelActionData>({ key: `reel-comment-${clipId}` })
  const [body, setBody] = useState('')
  const textareaId = useId()
  const errorId = `${textareaId}-error`
  const result = fetcher.state === 'idle' && fetcher.data?.intent === 'comment' ? fetcher.data : undefined
  const submitting = fetcher.state !== 'idle'
  const seen = useRef<unknown>(null)
  useEffect(() => {
    if (!result || seen.current === result) return
    seen.current = result
    if (result.ok) {
      setBody('')
      onCommented()
    }
  }, [result, onCommented])
  const { error, ref, markStale } = useLiveError<HTMLFormElement>(
    result && !result.ok ? result.formError : null,
    checkCommentField,
  )
  return (
    <fetcher.Form ref={ref} method="post" action={actionHref} preventScrollReset className="border-t border-ink-100 px-4 py-2">
      <input type="hidden" name="intent" value="comment" />
      <input type="hidden" name="videoId" value={clipId} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <label htmlFor={textareaId} className="sr-only">
        Add a comment
      </label>
      <div className="flex items-end gap-2">
        <textarea
          id={textareaId}
          name="body"
          rows={2}
          maxLength={COMMENT_MAX}
          required={!hydrated}
          value={body}
          onChange={(event) => {
            setBody(event.target.value)
            markStale(event)
          }}
          placeholder="Add a comment"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="block min-w-0 flex-1 resize-none rounded-xl border-0 bg-ink-50 px-3 py-2 text-base text-ink-900 ring-1 ring-inset ring-ink-300 placeholder:text-ink-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid=true]:ring-red-500"
        />
        <button type="submit" className="btn-primary shrink-0" disabled={hydrated && (body.trim() === '' || submitting)}>
          {submitting ? <Spinner label="Posting comment" className="h-4 w-4" /> : null}
          Post Comment
        </button>
      </div>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
      {result?.ok ? (
        <p role="status" className="mt-1 text-xs font-medium text-emerald-700">
          {VIDEO_MESSAGES.commentAdded}
        </p>
      ) : null}
    </fetcher.Form>
  )
}
