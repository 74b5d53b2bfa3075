import { Link } from '@remix-run/react'
import { FollowButton } from '~/components/creators/follow-button'
import { ROLE_LABELS, UserAvatar } from '~/components/user-avatar'
import { formatCount, formatDate } from '~/lib/format'
import type { VideoPagePerson } from '~/lib/video-page'

interface VideoDetailsProps {
  video: {
    title: string
    type: 'video' | 'spark'
    isPublic: boolean
    categoryName: string
    createdAt: string
    views: number
    creator: VideoPagePerson
  }
  /** The Follow toggle for the creator (null on one's own video). */
  follow?: { isFollowing: boolean } | null
}

/** The page's heading: badges and category, the title, the creator, the date and the view count. */
export function VideoDetails({ video, follow }: VideoDetailsProps) {
  return (
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
      <h1 id="video-title" className="text-title mt-1">
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
        {follow ? (
          <FollowButton
            creatorId={video.creator.id}
            username={video.creator.username}
            isFollowing={follow.isFollowing}
            signedIn
          />
        ) : null}
        <p className="text-caption">
          <time dateTime={video.createdAt}>{formatDate(video.createdAt)}</time>
          <span aria-hidden="true"> · </span>
          <span data-testid="view-count">{formatCount(video.views, 'view')}</span>
        </p>
      </div>
    </header>
  )
}

/** The description under the actions, when there is one. */
export function VideoDescription({ description }: { description: string }) {
  if (!description) return null
  return (
    <div className="card mt-5 p-4 sm:p-5">
      <h2 className="sr-only">Description</h2>
      <p className="text-body whitespace-pre-line">{description}</p>
    </div>
  )
}
