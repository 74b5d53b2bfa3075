import type { ReelItem, ReelWindow } from '~/components/reel-viewer'
import type { SparkFeed } from '~/lib/for-you'
import { countVideos, listVideos, listVideosFrom } from './feed/lists.server'
import { countSparkFeed, listSparkFeed, sparkCard, type RankedCard } from './for-you.server'
import type { VideoPageComment } from '~/lib/video-page'
import type { VideoCardItem } from '~/lib/video-types'
import { avatarUrl } from '~/lib/media-urls'
import { listPlayerTracks } from './captions.server'
import { sparkQuestions } from './checkpoints.server'
import { listComments } from './comments.server'
import type { JwtClaims } from './db.server'
import { followedCreatorIds } from './follows.server'
import { likedVideoIds } from './likes.server'
import { lessonLinksOf } from './spark-lessons.server'
import { browserSupabaseUrl } from './supabase.server'

/**
 * What the reel viewer shows of each clip (app/routes/_watch+/sparks-reels.tsx): the
 * card's fields, its caption tracks placed for reels, whether the caller
 * liked it and follows its creator (null on their own clips), in three
 * queries for the whole page of clips. The actions themselves — like,
 * comment, follow — are the video page's and the creators' domain functions
 * (likes.server.ts, comments.server.ts, follows.server.ts).
 */
export async function toReelItems(claims: JwtClaims, items: VideoCardItem[]): Promise<ReelItem[]> {
  const ids = items.map((item) => item.id)
  const [tracks, liked, followed, questions, lessons] = await Promise.all([
    listPlayerTracks(claims, ids, { placement: 'reel' }),
    likedVideoIds(claims, ids),
    followedCreatorIds(
      claims,
      items.map((item) => item.creator.id),
    ),
    sparkQuestions(claims, ids),
    lessonLinksOf(claims, ids),
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
    checkpoint: questions[item.id] ?? null,
    lesson: lessons.get(item.id) ?? null,
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

/** A ranked page's clips as the reel viewer's items, each with the line saying why it is there. */
export async function withReasons(claims: JwtClaims, cards: RankedCard[]): Promise<ReelItem[]> {
  const items = await toReelItems(claims, cards)
  return items.map((item, index) => ({ ...item, reason: cards[index]!.reason.text }))
}

/**
 * The reel viewer's first window: the ranked feed (For You or Following) when no filter is set, with a
 * clip opened by its link put first when the page lacks it; else the filtered list around `start`, or
 * from its newest clip.
 */
export async function openReelWindow(
  claims: JwtClaims,
  options: {
    filters: { search: string; category: string; captions: boolean }
    feed: SparkFeed
    ranked: boolean
    start: string | null
    pageSize: number
    before: number
  },
): Promise<ReelWindow> {
  const { filters, feed, ranked, start, pageSize, before } = options
  let window: ReelWindow | null = null
  if (ranked) {
    const page = await listSparkFeed(claims, { feed, limit: pageSize })
    let items = await withReasons(claims, page.items)
    // A clip opened from a card or a shared link comes first when the feed's first page does not have it.
    if (start && !items.some((item) => item.id === start)) {
      const card = await sparkCard(claims, start)
      if (card) items = [...(await toReelItems(claims, [card])), ...items]
    }
    const total = page.nextCursor ? await countSparkFeed(claims, feed) : items.length
    window = {
      items,
      nextCursor: page.nextCursor,
      firstPosition: 1,
      total: Math.max(total, items.length),
      startIndex: Math.max(
        0,
        items.findIndex((item) => item.id === start),
      ),
    }
  }
  if (start && !window) {
    const found = await listVideosFrom(claims, {
      type: 'spark',
      ...filters,
      startId: start,
      before: before,
      limit: pageSize,
    })
    if (found) {
      window = {
        items: await toReelItems(claims, found.items),
        nextCursor: found.nextCursor,
        firstPosition: found.position,
        total: found.total,
        startIndex: Math.max(
          0,
          found.items.findIndex((item) => item.id === start),
        ),
      }
    }
  }
  if (!window) {
    const page = await listVideos(claims, { type: 'spark', ...filters, limit: pageSize })
    const total = page.nextCursor ? await countVideos(claims, { type: 'spark', ...filters }) : page.items.length
    window = {
      items: await toReelItems(claims, page.items),
      nextCursor: page.nextCursor,
      firstPosition: 1,
      total,
      startIndex: 0,
    }
  }
  return window
}
