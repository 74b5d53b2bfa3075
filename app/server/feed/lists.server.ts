import { isUuid } from '~/lib/ids'
import type { VideoCardItem } from '~/lib/video-types'
import { asCaller, type JwtClaims } from '../db.server'
import { isPermissionError } from '../errors.server'
import { withProgress } from '../progress-rows.server'
import { toItem } from './cards.server'
import {
  countMatching,
  decodeCursor,
  encodeCursor,
  resolveFilter,
  selectPage,
  selectStartKey,
  sortKeyOf,
  type ListFilterOptions,
} from './query.server'

/**
 * The feed and sparks lists (docs/product.md: Feed, Sparks; GET /videos?type=&category=&search=).
 *
 * What is listed: ready videos of one type that are public, plus the caller's
 * own private ones (badged on the card). Queries run as the caller, so
 * row-level security has the last word; a video that is processing, failed or
 * private to someone else is never listed. Admins, who may read every row,
 * meet other people's private videos in moderation, not in their feed.
 *
 * Order and pages: newest first, paged by keyset — the cursor is the last
 * item's (created_at, id), and the next page is `(created_at, id) < cursor`
 * on the `videos_feed_idx` / `videos_feed_category_idx` partial indexes, so
 * page 500 costs what page 1 costs (no OFFSET). With a search, items are
 * ranked by `ts_rank` (title weighs more than description), ties newest
 * first, and pages continue by (rank, created_at, id) — disjoint and complete
 * like the others. Ranking has to score every match, so a search's cost grows
 * with its number of matches (the same on every page), not with the page
 * number. Under row-level security Postgres will not use the GIN index on
 * `videos.search` for a caller's query (`@@` is not leakproof, so it may not
 * run before the policy's checks); the title and description matches come
 * from `public.search_videos` (security definer, the lists' visibility rule,
 * ADR 0023), and the rows are then read as the caller.
 *
 * A search also looks inside what is said (ADR 0019): `public.search_captions`
 * (security definer, so its GIN index on the cues serves it; it applies the
 * videos policies itself) gives each video whose captions match its best cue
 * and that cue's rank, which is added to the title-and-description rank — a
 * title hit still outranks a line said in passing. The card then shows the
 * line and opens the video at its moment (ADR 0022).
 */
export type { VideoCardItem, VideoType } from '~/lib/video-types'

export interface VideoPage {
  items: VideoCardItem[]
  /** Opaque; pass back as `cursor` for the next page. Null on the last page. */
  nextCursor: string | null
}

export interface ListVideosOptions extends ListFilterOptions {
  cursor?: string | null
  limit: number
}

export const MAX_PAGE_SIZE = 50
/** Feed cards per page: four rows of three on a desktop. */
export const FEED_PAGE_SIZE = 12

export async function listVideos(claims: JwtClaims | null, options: ListVideosOptions): Promise<VideoPage> {
  const limit = clampLimit(options.limit)
  return asCaller(claims, async (tx) => {
    const filter = await resolveFilter(tx, claims, options)
    if (filter.matchesNothing) return { items: [], nextCursor: null }
    const cursor = decodeCursor(options.cursor, Boolean(filter.tsquery))
    const rows = await selectPage(tx, filter, { key: cursor, op: '<', limit: limit + 1 })
    const more = rows.length > limit
    const items = rows.slice(0, limit)
    const last = items.at(-1)
    return {
      items: await withProgress(tx, filter.viewerId, items.map(toItem)),
      nextCursor: more && last ? encodeCursor(sortKeyOf(last)) : null,
    }
  })
}

/**
 * The feed as the screens load it (docs/product.md, States: "Feed falls back to a plain
 * public list on a 401 or 403"). When the caller's own query is refused by the
 * database (a permission error: their grants or policies say no), the public
 * list is read as a visitor instead and `fallback` is true; the page says
 * 'Showing public videos (feed unavailable).' Any other failure is thrown.
 */
export async function loadFeed(claims: JwtClaims | null, options: ListVideosOptions): Promise<VideoPage & { fallback: boolean }> {
  try {
    return { ...(await listVideos(claims, options)), fallback: false }
  } catch (error) {
    if (!claims || !isPermissionError(error)) throw error
    console.warn('[feed] the personal feed was refused; showing the public list:', (error as Error).message)
    return { ...(await listVideos(null, options)), fallback: true }
  }
}

/**
 * A window of the list that starts at one item (the reel viewer's `?start=`):
 * up to `before` items that come before it, the item itself and the items
 * after it, with the 1-based position of the window's first item and the
 * total. Null when the item is not in the list (not ready, not visible, the
 * other type, or filtered out).
 */
export async function listVideosFrom(
  claims: JwtClaims | null,
  options: Omit<ListVideosOptions, 'cursor'> & { startId: string; before: number },
): Promise<(VideoPage & { position: number; total: number }) | null> {
  const limit = clampLimit(options.limit)
  if (!isUuid(options.startId)) return null
  return asCaller(claims, async (tx) => {
    const filter = await resolveFilter(tx, claims, options)
    if (filter.matchesNothing) return null
    const start = await selectStartKey(tx, filter, options.startId)
    if (!start) return null
    // One connection per transaction: the queries run one after another.
    const earlier = await selectPage(tx, filter, {
      key: start,
      op: '>',
      limit: Math.max(0, Math.min(options.before, MAX_PAGE_SIZE)),
    })
    const rows = await selectPage(tx, filter, { key: start, op: '<=', limit: limit + 1 })
    const total = await countMatching(tx, filter)
    const precedingCount = await countMatching(tx, filter, start)
    const more = rows.length > limit
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return {
      items: [...earlier, ...page].map(toItem),
      nextCursor: more && last ? encodeCursor(sortKeyOf(last)) : null,
      position: precedingCount - earlier.length + 1,
      total,
    }
  })
}

/** How many items the list has in all (the reel viewer's "3 / 12"). */
export async function countVideos(
  claims: JwtClaims | null,
  options: Omit<ListVideosOptions, 'cursor' | 'limit'>,
): Promise<number> {
  return asCaller(claims, async (tx) => {
    const filter = await resolveFilter(tx, claims, options)
    return filter.matchesNothing ? 0 : countMatching(tx, filter)
  })
}

export function clampLimit(limit: number): number {
  return Number.isFinite(limit) ? Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_SIZE) : 12
}

/** Pages deeper than this are not walked (page × limit items are read to reach one). */
export const MAX_PAGE_NUMBER = 100

/**
 * A numbered page of the list (GET /api/videos?page=&limit=): the keyset
 * pages walked from the first, so numbered pages never overlap or skip.
 */
export async function listVideosPage(
  claims: JwtClaims | null,
  options: Omit<ListVideosOptions, 'cursor'> & { page: number },
): Promise<VideoCardItem[]> {
  const page = Math.min(Math.max(Math.trunc(options.page) || 1, 1), MAX_PAGE_NUMBER)
  let cursor: string | null = null
  for (let number = 1; ; number++) {
    const result: VideoPage = await listVideos(claims, { ...options, cursor })
    if (number === page) return result.items
    if (!result.nextCursor) return []
    cursor = result.nextCursor
  }
}

