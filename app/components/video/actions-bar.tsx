import { Link } from '@remix-run/react'
import { QuoteIcon } from '~/components/icons'
import { ReportControl } from '~/components/report-dialog'
import type { ShareResult, VideoActionFailure } from '~/lib/video-page'
import type { LikeState } from '~/lib/video-types'
import { DeleteVideoControl } from './delete-video-control'
import { VideoLikeButton } from './like-buttons'
import { ShareControl } from './share-control'

interface VideoActionsBarProps {
  video: LikeState & { id: string; title: string; canDelete: boolean; creator: { id: string } }
  share: ShareResult
  /** A refused plain-form post (no JavaScript), shown next to its control. */
  failed: VideoActionFailure | undefined
}

/** Like, quote, share, report and (owner or admin) delete, under the player. */
export function VideoActionsBar({ video, share, failed }: VideoActionsBarProps) {
  return (
    <div id="actions" className="mt-4 flex flex-wrap items-center gap-2">
      <VideoLikeButton
        videoId={video.id}
        likes={video.likes}
        hasLiked={video.hasLiked}
        noJsError={failed?.intent === 'like' ? failed.formError : null}
      />
      <Link to={`/create-quote?videoId=${encodeURIComponent(video.id)}`} className="btn-secondary">
        <QuoteIcon />
        Quote
      </Link>
      <ShareControl videoId={video.id} share={share} />
      <ReportControl
        contentType="video"
        contentId={video.id}
        contentLabel={video.title}
        authorId={video.creator.id}
        variant="button"
      />
      {video.canDelete ? (
        // Who may delete may edit: the video's creator or an admin.
        <Link to={`/video/${video.id}/edit`} className="btn-secondary">
          Edit
        </Link>
      ) : null}
      {video.canDelete ? (
        <DeleteVideoControl title={video.title} error={failed?.intent === 'delete' ? failed.formError : null} />
      ) : null}
    </div>
  )
}
