import { Await, useFetcher } from '@remix-run/react'
import { Suspense, useEffect, useId, useState } from 'react'
import { ReportControl } from '~/components/report-dialog'
import { Alert } from '~/components/ui/alert'
import { DeleteControl } from '~/components/ui/delete-control'
import { checkCommentField } from '~/components/video/comment-check'
import { FieldError, useLiveError } from '~/components/ui/field'
import { Spinner } from '~/components/ui/spinner'
import { useHydrated } from '~/components/use-hydrated'
import { UserAvatar } from '~/components/user-avatar'
import { excerpt, formatDate } from '~/lib/format'
import { COMMENT_MAX } from '~/lib/schemas/video'
import type { VideoActionData, VideoActionFailure, VideoPageComment } from '~/lib/video-page'
import { PersonName } from './person-name'

export function CommentsSection({
  videoId,
  comments,
  more = null,
  count,
  failed,
}: {
  videoId: string
  /** The first page. */
  comments: VideoPageComment[]
  /** The rest, as deferred data (in the HTML without JavaScript; streamed after the page with it). */
  more?: Promise<VideoPageComment[]> | null
  count: number
  failed: VideoActionFailure | undefined
}) {
  return (
    <section id="comments" aria-labelledby="comments-heading" className="mt-10 scroll-mt-24">
      <h2 id="comments-heading" tabIndex={-1} className="text-heading focus:outline-none">
        Comments <span className="text-caption font-normal">({count})</span>
      </h2>
      <CommentForm videoId={videoId} noJsFailure={failed?.intent === 'comment' ? failed : undefined} />
      {failed && failed.intent === 'delete-comment' ? (
        <div className="mt-4">
          <Alert tone="error">{failed.formError}</Alert>
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
          {more ? (
            <Suspense fallback={<li className="text-caption">Loading more comments…</li>}>
              <Await resolve={more} errorElement={<li className="text-caption">More comments could not be loaded.</li>}>
                {(rest) => rest.map((comment) => <CommentItem key={comment.id} comment={comment} />)}
              </Await>
            </Suspense>
          ) : null}
        </ul>
      )}
    </section>
  )
}

function CommentForm({ videoId, noJsFailure }: { videoId: string; noJsFailure: VideoActionFailure | undefined }) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<VideoActionData>({ key: `comment-${videoId}` })
  const [body, setBody] = useState(noJsFailure?.values?.body ?? '')
  const textareaId = useId()
  const errorId = `${textareaId}-error`
  const result = fetcher.state === 'idle' && fetcher.data?.intent === 'comment' ? fetcher.data : undefined
  const submitting = fetcher.state !== 'idle'
  useEffect(() => {
    if (result?.ok) setBody('')
  }, [result])
  const { error, ref, markStale } = useLiveError<HTMLFormElement>(
    result && !result.ok ? result.formError : (noJsFailure?.formError ?? null),
    checkCommentField,
  )
  const empty = body.trim() === ''

  return (
    <fetcher.Form ref={ref} method="post" preventScrollReset className="mt-4 flex flex-col gap-2">
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
        onChange={(event) => {
          setBody(event.target.value)
          markStale(event)
        }}
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

function CommentItem({ comment }: { comment: VideoPageComment }) {
  const fetcher = useFetcher<VideoActionData>({ key: `delete-comment-${comment.id}` })
  const deleting = fetcher.state !== 'idle'
  const failedHere = fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null
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
        <p className="text-body mt-0.5 whitespace-pre-line">{comment.body}</p>
        {failedHere ? <FieldError>{failedHere}</FieldError> : null}
      </div>
      <div className="flex shrink-0 items-start">
        <ReportControl
          contentType="comment"
          contentId={comment.id}
          contentLabel={excerpt(comment.body)}
          authorId={comment.user.id}
        />
        {comment.canDelete ? (
          <DeleteControl
            noun="comment"
            title="Delete this comment?"
            description="Your comment is removed for everyone. This cannot be undone."
            fields={{ intent: 'delete-comment', targetId: comment.id }}
            fetcherKey={`delete-comment-${comment.id}`}
            focusAfterId="comments-heading"
          />
        ) : null}
      </div>
    </li>
  )
}
