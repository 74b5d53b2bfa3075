import type { ReelItem } from '~/components/reel-viewer'
import type { VideoPageComment } from '~/lib/video-page'
import type { VideoCardItem } from '~/lib/video-types'
import { avatarUrl } from '~/lib/media-urls'
import { listPlayerTracks } from './captions.server'
import { listComments } from './comments.server'
import type { JwtClaims } from './db.server'
import { followedCreatorIds } from './follows.server'
import { likedVideoIds } from './likes.server'
import { browserSupabaseUrl } from './supabase.server'

/**
 * What the reel viewer shows of each clip (app/routes/sparks-reels.tsx): the
 * card's fields, its caption tracks placed for reels, whether the caller
 * liked it and follows its creator (null on their own clips), in three
 * queries for the whole page of clips. The actions themselves — like,
 * comment, follow — are the video page's and the creators' domain functions
 * (likes.server.ts, comments.server.ts, follows.server.ts).
 */
export async function toReelItems(claims: JwtClaims, items: VideoCardItem[]): Promise<ReelItem[]> {
  const ids = items.map((item) => item.id)
  const [tracks, liked, followed] = await Promise.all([
    listPlayerTracks(claims, ids, { placement: 'reel' }),
    likedVideoIds(claims, ids),
    followedCreatorIds(
      claims,
      items.map((item) => item.creator.id),
    ),
  ])
  return items.map((item) => ({
    id: item.id,
    title: item.title,
    description: item.description,
    thumbnailUrl: item.thumbnailUrl,
    mp4Url: item.mp4Url,
    hlsUrl: item.hlsUrl,
    creator: item.creator,
    durationSeconds: item.durationSeconds,
    width: item.width,
    height: item.height,
    likeCount: item.likeCount,
    commentCount: item.commentCount,
    hasLiked: liked.has(item.id),
    followsCreator: item.creator.id === claims.sub ? null : followed.has(item.creator.id),
    captions: tracks[item.id] ?? [],
  }))
}

/** A clip's comments for the reel's comment sheet, newest first, shaped as the video page shows them. */
export async function listReelComments(claims: JwtClaims, videoId: string): Promise<VideoPageComment[]> {
  const base = browserSupabaseUrl()
  const comments = await listComments(claims, videoId)
  return comments.map((comment) => ({
    ...comment,
    user: {
      id: comment.user.id,
      username: comment.user.username,
      role: comment.user.role as VideoPageComment['user']['role'],
      avatarUrl: avatarUrl(base, comment.user.avatarPath),
    },
  }))
}
