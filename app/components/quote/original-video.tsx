import { forwardRef } from 'react'
import { VideoPlayer } from '~/components/video-player'
import type { QuotedVideo } from '~/lib/quote-types'

/**
 * The video being quoted (docs/product.md: Create quote, "original video shown"): its
 * player — whose current time the form can take as the quote's moment — or
 * its poster while it is not playable, with its title and creator.
 */
export const OriginalVideo = forwardRef<HTMLVideoElement | null, { video: QuotedVideo }>(function OriginalVideo({ video }, ref) {
  return (
    <section aria-labelledby="original-title" className="card overflow-hidden">
      {video.playable && (video.hlsUrl || video.mp4Url) ? (
        <VideoPlayer
          ref={ref}
          videoId={video.id}
          title={video.title}
          hlsUrl={video.hlsUrl}
          mp4Url={video.mp4Url}
          posterUrl={video.thumbnailUrl}
          className="aspect-video w-full overflow-hidden bg-ink-950"
        />
      ) : video.thumbnailUrl ? (
        <img src={video.thumbnailUrl} alt="" className="aspect-video w-full bg-ink-100 object-cover" />
      ) : (
        <div aria-hidden="true" className="aspect-video w-full bg-ink-100" />
      )}
      <div className="p-4">
        <p className="text-caption">Quoting</p>
        <h2 id="original-title" className="text-heading">
          {video.title}
        </h2>
        <p className="text-caption mt-1">by {video.creator.username}</p>
      </div>
    </section>
  )
})
