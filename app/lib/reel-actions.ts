import type { VideoActionData } from './video-page'

/**
 * What POST /sparks-reels answers a script (the reel viewer's Like and
 * Comment): the video page's answers, for the clip `targetId`.
 */
export type ReelActionData = VideoActionData

/** The link a clip's Share copies: the reel viewer, opened at that clip. */
export function reelShareLink(origin: string, videoId: string): string {
  return `${origin.replace(/\/+$/, '')}/sparks-reels?start=${encodeURIComponent(videoId)}`
}
