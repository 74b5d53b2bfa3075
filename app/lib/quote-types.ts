import type { LikeState } from '~/lib/video-types'
import type { VideoPagePerson } from '~/lib/video-page'

/**
 * The shapes the quote pages render (create-quote, My Quotes, the
 * side-by-side view), made by app/server/quotes.server.ts: plain data with
 * browser URLs, importable anywhere.
 */

/** A video response as a player needs it. */
export interface QuoteResponseMedia {
  status: 'processing' | 'ready' | 'failed'
  hlsUrl: string | null
  mp4Url: string | null
  posterUrl: string | null
}

/** The quoted video, as the create page and My Quotes show it. */
export interface QuotedVideo {
  id: string
  title: string
  thumbnailUrl: string | null
  hlsUrl: string | null
  mp4Url: string | null
  durationSeconds: number | null
  playable: boolean
  creator: { id: string; username: string }
}

/** One of a user's quotes, with its original (My Quotes, GET /quotes/user/:id). */
export interface UserQuote extends LikeState {
  id: string
  type: 'text' | 'video'
  body: string
  moment: number | null
  createdAt: string
  canDelete: boolean
  creator: VideoPagePerson
  originalVideo: QuotedVideo
  response: QuoteResponseMedia | null
}
