import { sql, type RawBuilder } from 'kysely'
import { z } from 'zod'
import { CATEGORY_IDS, categoryName, type CategoryId } from '~/lib/catalog'
import { isUuid } from '~/lib/ids'
import { avatarUrl, mediaUrls } from '~/lib/media-urls'
import type { VideoCardItem, VideoType } from '~/lib/video-types'
import { decodeTimeKey, encodeTimeKey, isoMicros } from './cursor.server'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { withProgress } from './progress-rows.server'
import { browserSupabaseUrl } from './supabase.server'

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

export interface ListVideosOptions {
  type: VideoType
  /** A category id; anything not in the fixed list means no filter. */
  category?: string | null
  /** Words to look for in titles, descriptions and captions (prefix matching); blank means no filter. */
  search?: string | null
  /** Only videos with at least one caption track (ADR 0019's "has captions" filter). */
  captions?: boolean | null
  cursor?: string | null
  limit: number
}

export const MAX_PAGE_SIZE = 50
/** Feed cards per page: four rows of three on a desktop. */
export const FEED_PAGE_SIZE = 12

/** Longest search text considered; the rest is ignored. */
export const SEARCH_MAX_CHARS = 200

/** A position in the list: the sort key of an item. */
interface SortKey {
  rank?: number
  createdAt: string
  id: string
}

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

export function isPermissionError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '42501'
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

// Search text ------------------------------------------------------------------------

/**
 * The user's search text made safe to hand to Postgres's parser: NUL and other
 * control characters removed, whitespace collapsed, cut to SEARCH_MAX_CHARS.
 * Null when nothing searchable (no letter or digit) is left: no filter then.
 * (Text with letters that Postgres's parser still drops entirely, such as only
 * markup, finds nothing rather than everything.)
 * The words themselves are split by Postgres (the same 'simple' parser that
 * built `videos.search`), and each becomes a quoted prefix term — so no text,
 * however hostile, can inject tsquery syntax (`&`, `|`, `!`, `:*`, quotes).
 */
export function cleanSearch(input: string | null | undefined): string | null {
  if (!input) return null
  const cleaned = input
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}\p{Cs}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, SEARCH_MAX_CHARS)
  return /[\p{L}\p{N}]/u.test(cleaned) ? cleaned : null
}

/** `quick fox` → `'fox':* & 'quick':*`, built by Postgres from its own lexemes; null when none. */
async function prefixQuery(tx: Tx, text: string): Promise<string | null> {
  const { rows } = await sql<{ query: string | null }>`
    select to_tsquery('simple', string_agg(
             '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & '
           ))::text as query
      from unnest(tsvector_to_array(to_tsvector('simple', ${text}))) as lexeme
  `.execute(tx)
  const query = rows[0]?.query
  return query ? query : null
}

// Cursors ---------------------------------------------------------------------------

/**
 * A timestamp Postgres will accept: zod's format check alone lets through
 * offsets like `+99:99` and year 0, which Postgres refuses (a 500, before).
 */
const timestamp = z
  .string()
  .datetime({ offset: true })
  .refine((value) => {
    const time = Date.parse(value)
    return Number.isFinite(time) && new Date(time).getUTCFullYear() >= 1970 && new Date(time).getUTCFullYear() <= 9999
  })
const keysetCursor = z.tuple([z.literal('k'), timestamp, z.string().uuid()])
const rankedCursor = z.tuple([z.literal('r'), z.number().finite().nonnegative().max(1e6), timestamp, z.string().uuid()])

export function encodeCursor(key: SortKey): string {
  const tuple = key.rank === undefined ? ['k', key.createdAt, key.id] : ['r', key.rank, key.createdAt, key.id]
  return Buffer.from(JSON.stringify(tuple)).toString('base64url')
}

/** The key a cursor names, or null for none, a malformed one, or one of the other kind (ranked vs newest-first). */
export function decodeCursor(cursor: string | null | undefined, ranked: boolean): SortKey | null {
  if (!cursor || cursor.length > 200) return null
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (ranked) {
    const parsed = rankedCursor.safeParse(value)
    return parsed.success ? { rank: parsed.data[1], createdAt: parsed.data[2], id: parsed.data[3] } : null
  }
  const parsed = keysetCursor.safeParse(value)
  return parsed.success ? { createdAt: parsed.data[1], id: parsed.data[2] } : null
}

// Queries ----------------------------------------------------------------------------

interface Filter {
  type: VideoType
  category: CategoryId | null
  /** A tsquery (text form) when searching. */
  tsquery: string | null
  /** The cleaned search text (public.search_videos builds the same prefix query from it). */
  text: string | null
  /** The cleaned search text, for the captions search (it builds the same prefix query). */
  words: string | null
  /** Only videos with captions. */
  captions: boolean
  /** A search whose words Postgres's parser drops entirely (e.g. only markup): it finds nothing. */
  matchesNothing: boolean
  /**
   * The caller's id, for their own private videos. Passed as a value (not
   * `auth.uid()`) so the planner can see it is selective and use
   * videos_creator_idx; row-level security still checks every row.
   */
  viewerId: string | null
}

export interface Row {
  id: string
  title: string
  description: string
  type: VideoType
  category_id: string
  is_public: boolean
  thumbnail_path: string | null
  hls_path: string | null
  mp4_path: string | null
  duration_seconds: number | null
  width: number | null
  height: number | null
  like_count: number
  comment_count: number
  view_count: number
  created_at: string
  creator_id: string
  username: string
  avatar_path: string | null
  rank?: number
  said_text?: string | null
  said_start_ms?: number | null
}

async function resolveFilter(
  tx: Tx,
  claims: JwtClaims | null,
  options: Omit<ListVideosOptions, 'cursor' | 'limit'>,
): Promise<Filter> {
  const category = (CATEGORY_IDS as readonly string[]).includes(options.category ?? '') ? (options.category as CategoryId) : null
  const text = cleanSearch(options.search)
  const tsquery = text ? await prefixQuery(tx, text) : null
  return {
    type: options.type === 'spark' ? 'spark' : 'video',
    category,
    tsquery,
    text,
    // Visitors search what is said through their own function (public ready videos only).
    words: tsquery ? text : null,
    captions: options.captions === true,
    matchesNothing: Boolean(text) && !tsquery,
    viewerId: claims?.sub ?? null,
  }
}

export const VIDEO_COLUMNS = sql`v.id, v.title, v.description, v.type, v.category_id, v.is_public, v.thumbnail_path,
  v.hls_path, v.mp4_path, v.duration_seconds, v.width, v.height, v.like_count, v.comment_count, v.view_count, v.created_at, v.creator_id`

/** Title and description rank plus, when something said matched, the best cue's rank (both `real`). */
function rankOf(filter: Filter): RawBuilder<unknown> {
  return sql`(ts_rank(v.search, ${filter.tsquery}::tsquery) + coalesce(said.rank, 0::real))`
}

/**
 * The videos whose captions match the search (one row each: the best cue):
 * `search_captions` for signed-in callers, `search_public_captions` (public ready videos, the
 * anon policies' rule) for visitors (ADR 0026 §4); without a search an empty stand-in.
 */
function captionHits(filter: Filter): RawBuilder<unknown> {
  if (!filter.words) {
    return sql`(select null::uuid as video_id, null::text as body, null::integer as start_ms, null::real as rank where false)`
  }
  return filter.viewerId
    ? sql`public.search_captions(${filter.words}, ${filter.type})`
    : sql`public.search_public_captions(${filter.words}, ${filter.type})`
}

/** The caption hits joined as `said`, for the rank and the quoted cue. */
function saidJoin(filter: Filter): RawBuilder<unknown> {
  return sql`left join ${captionHits(filter)} said on said.video_id = v.id`
}
/**
 * A search matches the title or description, or something said. The title and description
 * matches come from `public.search_videos` (security definer, so the GIN index on
 * `videos.search` serves it; under row-level security `@@` would be tested on every row);
 * the rows themselves are still read as the caller (ADR 0023). The two sources are one set of
 * ids that the rows are looked up from: `in (a) or said.video_id is not null` made Postgres
 * read every visible video to test the `or` (90–175 ms at 100,000 videos, docs/performance.md).
 */
function searchCondition(filter: Filter): RawBuilder<unknown> {
  return sql`v.id in (select m.id from public.search_videos(${filter.text}, ${filter.type}, null) m
                      union all
                      select h.video_id from ${captionHits(filter)} h)`
}

/** `(rank, created_at, id) op key` — the order's own comparison, so pages never overlap or skip. */
function keyCondition(filter: Filter, key: SortKey | null, op: '<' | '<=' | '>'): RawBuilder<unknown> {
  if (!key) return sql``
  const operator = sql.raw(op)
  if (filter.tsquery && key.rank !== undefined) {
    return sql`and (${rankOf(filter)}, v.created_at, v.id) ${operator} (${key.rank}::real, ${key.createdAt}::timestamptz, ${key.id}::uuid)`
  }
  return sql`and (v.created_at, v.id) ${operator} (${key.createdAt}::timestamptz, ${key.id}::uuid)`
}

/** Public videos and the caller's own (RLS adds nothing here but admins' reach, which the lists leave out). */
function visibleTo(filter: Filter): RawBuilder<unknown> {
  return filter.viewerId ? sql`(v.is_public or v.creator_id = ${filter.viewerId}::uuid)` : sql`v.is_public`
}

/** The category and "has captions" filters. */
function categoryCondition(filter: Filter): RawBuilder<unknown> {
  const category = filter.category ? sql`and v.category_id = ${filter.category}` : sql``
  const captions = filter.captions ? sql`and exists (select 1 from public.caption_tracks t where t.video_id = v.id)` : sql``
  return sql`${category} ${captions}`
}

/**
 * One page in list order (`<`, `<=`: from the key on) or the items just
 * before the key (`>`: read backwards, returned in list order).
 */
async function selectPage(
  tx: Tx,
  filter: Filter,
  { key, op, limit }: { key: SortKey | null; op: '<' | '<=' | '>'; limit: number },
): Promise<Row[]> {
  if (limit === 0) return []
  const direction = sql.raw(op === '>' ? 'asc' : 'desc')
  let rows: Row[]
  if (filter.tsquery) {
    const { rows: found } = await sql<Row>`
      select ${VIDEO_COLUMNS}, p.username, p.avatar_path, ${rankOf(filter)} as rank,
             said.body as said_text, said.start_ms as said_start_ms
        from public.videos v
        join public.profiles p on p.id = v.creator_id
        ${saidJoin(filter)}
       where ${searchCondition(filter)}
         and v.status = 'ready' and v.type = ${filter.type}
         and ${visibleTo(filter)}
         ${categoryCondition(filter)}
         ${keyCondition(filter, key, op)}
       order by rank ${direction}, v.created_at ${direction}, v.id ${direction}
       limit ${limit}
    `.execute(tx)
    rows = found
  } else {
    // Two index-backed branches: the public list (partial feed indexes) and the
    // caller's own private videos (videos_creator_idx); an OR of the two would
    // defeat both indexes.
    const branch = (visibility: RawBuilder<unknown>) => sql`(
      select ${VIDEO_COLUMNS}
        from public.videos v
       where v.status = 'ready' and v.type = ${filter.type} and ${visibility}
         ${categoryCondition(filter)}
         ${keyCondition(filter, key, op)}
       order by v.created_at ${direction}, v.id ${direction}
       limit ${limit}
    )`
    const own = filter.viewerId
      ? sql`union all ${branch(sql`not v.is_public and v.creator_id = ${filter.viewerId}::uuid`)}`
      : sql``
    const { rows: found } = await sql<Row>`
      select v.*, p.username, p.avatar_path
        from (
          ${branch(sql`v.is_public`)}
          ${own}
        ) v
        join public.profiles p on p.id = v.creator_id
       order by v.created_at ${direction}, v.id ${direction}
       limit ${limit}
    `.execute(tx)
    rows = found
  }
  return op === '>' ? rows.reverse() : rows
}

/** The sort key of one listed item, or null when it is not in the list. */
async function selectStartKey(tx: Tx, filter: Filter, id: string): Promise<SortKey | null> {
  const { rows } = await sql<{ created_at: string; id: string; rank: number | null }>`
    select v.created_at, v.id, ${filter.tsquery ? rankOf(filter) : sql`null::real`} as rank
      from public.videos v
      ${filter.tsquery ? saidJoin(filter) : sql``}
     where v.id = ${id}
       and v.status = 'ready' and v.type = ${filter.type}
       and ${visibleTo(filter)}
       ${filter.tsquery ? sql`and ${searchCondition(filter)}` : sql``}
       ${categoryCondition(filter)}
  `.execute(tx)
  const row = rows[0]
  if (!row) return null
  return { createdAt: row.created_at, id: row.id, ...(row.rank === null ? {} : { rank: row.rank }) }
}

/** How many items the list has (or, given a key, how many come before it). */
async function countMatching(tx: Tx, filter: Filter, before?: SortKey): Promise<number> {
  const conditions = sql`
    v.status = 'ready' and v.type = ${filter.type}
    ${filter.tsquery ? sql`and ${searchCondition(filter)}` : sql``}
    ${categoryCondition(filter)}
    ${keyCondition(filter, before ?? null, '>')}`
  const from = sql`public.videos v ${filter.tsquery ? saidJoin(filter) : sql``}`
  const own = filter.viewerId
    ? sql`(select count(*) from ${from} where not v.is_public and v.creator_id = ${filter.viewerId}::uuid and ${conditions})`
    : sql`0`
  const { rows } = await sql<{ total: number }>`
    select (select count(*) from ${from} where v.is_public and ${conditions}) + ${own} as total
  `.execute(tx)
  return Number(rows[0]?.total ?? 0)
}

// Shaping ------------------------------------------------------------------------

function sortKeyOf(row: Row): SortKey {
  return { createdAt: row.created_at, id: row.id, ...(row.rank === undefined ? {} : { rank: row.rank }) }
}

function clampLimit(limit: number): number {
  return Number.isFinite(limit) ? Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_SIZE) : 12
}

/** A listed row as a card (also History and Continue watching, app/server/progress.server.ts). */
export function toItem(row: Row): VideoCardItem {
  const base = browserSupabaseUrl()
  const urls = mediaUrls(row, base)
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    category: { id: row.category_id, name: categoryName(row.category_id) },
    isPublic: row.is_public,
    thumbnailUrl: urls.posterUrl,
    mp4Url: urls.mp4Url,
    hlsUrl: urls.hlsUrl,
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    width: row.width ?? null,
    height: row.height ?? null,
    creator: { id: row.creator_id, username: row.username, avatarUrl: avatarUrl(base, row.avatar_path) },
    likeCount: Number(row.like_count),
    commentCount: Number(row.comment_count ?? 0),
    viewCount: Number(row.view_count),
    createdAt: row.created_at,
    ...(row.said_text && row.said_start_ms !== null && row.said_start_ms !== undefined
      ? { said: { text: row.said_text, startSeconds: Math.floor(Number(row.said_start_ms) / 1000) } }
      : {}),
  }
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

// Per-person lists ----------------------------------------------------------------------

/**
 * A creator's page, Videos tab (GET /videos/creator/{id}): their ready public
 * videos and sparks, newest first, keyset-paged on `videos_creator_idx`. The
 * creator themself sees their private ones too (badged on the card).
 */
export async function listCreatorVideos(
  claims: JwtClaims | null,
  creatorId: string,
  options: { cursor?: string | null; limit: number },
): Promise<VideoPage> {
  if (!isUuid(creatorId)) return { items: [], nextCursor: null }
  const limit = clampLimit(options.limit)
  const key = decodeTimeKey(options.cursor)
  const own = claims?.sub === creatorId
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<Row & { key_at: string }>`
      select ${VIDEO_COLUMNS}, p.username, p.avatar_path, ${isoMicros(sql`v.created_at`)} as key_at
        from public.videos v
        join public.profiles p on p.id = v.creator_id
       where v.creator_id = ${creatorId}::uuid and v.status = 'ready'
         ${own ? sql`` : sql`and v.is_public`}
         ${key ? sql`and (v.created_at, v.id) < (${key.at}::timestamptz, ${key.id}::uuid)` : sql``}
       order by v.created_at desc, v.id desc
       limit ${limit + 1}
    `.execute(tx)
    const items = rows.slice(0, limit)
    const last = items.at(-1)
    return {
      items: await withProgress(tx, claims?.sub ?? null, items.map(toItem)),
      nextCursor: rows.length > limit && last ? encodeTimeKey({ at: last.key_at, id: last.id }) : null,
    }
  })
}

/**
 * Profile, Liked Videos (GET /users/{id}/liked-videos): the videos and sparks
 * the caller liked that they can still watch, latest like first, keyset-paged
 * on `video_likes_user_id_idx` (the cursor is the like's time and the video).
 */
export async function listLikedVideos(claims: JwtClaims, options: { cursor?: string | null; limit: number }): Promise<VideoPage> {
  const limit = clampLimit(options.limit)
  const key = decodeTimeKey(options.cursor)
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<Row & { liked_at: string }>`
      select ${VIDEO_COLUMNS}, p.username, p.avatar_path, ${isoMicros(sql`l.created_at`)} as liked_at
        from public.video_likes l
        join public.videos v on v.id = l.video_id
        join public.profiles p on p.id = v.creator_id
       where l.user_id = ${claims.sub}::uuid and v.status = 'ready'
         and (v.is_public or v.creator_id = ${claims.sub}::uuid)
         ${key ? sql`and (l.created_at, l.video_id) < (${key.at}::timestamptz, ${key.id}::uuid)` : sql``}
       order by l.created_at desc, l.video_id desc
       limit ${limit + 1}
    `.execute(tx)
    const items = rows.slice(0, limit)
    const last = items.at(-1)
    return {
      items: await withProgress(tx, claims.sub, items.map(toItem)),
      nextCursor: rows.length > limit && last ? encodeTimeKey({ at: last.liked_at, id: last.id }) : null,
    }
  })
}

/**
 * /explore: the newest ready public videos (or sparks) in any of `categories`,
 * or, with no categories or nothing there yet, the most watched ones
 * (`popular` says which it is).
 */
export async function listExploreVideos(
  claims: JwtClaims | null,
  options: { type: VideoType; categories: readonly string[]; limit: number },
): Promise<{ items: VideoCardItem[]; popular: boolean }> {
  const limit = clampLimit(options.limit)
  const categories = options.categories.filter((id) => (CATEGORY_IDS as readonly string[]).includes(id))
  return asCaller(claims, async (tx) => {
    if (categories.length > 0) {
      const { rows } = await sql<Row>`
        select ${VIDEO_COLUMNS}, p.username, p.avatar_path
          from public.videos v
          join public.profiles p on p.id = v.creator_id
         where v.status = 'ready' and v.is_public and v.type = ${options.type}
           and v.category_id = any (${sql.val(categories)}::text[])
         order by v.created_at desc, v.id desc
         limit ${limit}
      `.execute(tx)
      if (rows.length > 0) return { items: await withProgress(tx, claims?.sub ?? null, rows.map(toItem)), popular: false }
    }
    const { rows } = await sql<Row>`
      select ${VIDEO_COLUMNS}, p.username, p.avatar_path
        from public.videos v
        join public.profiles p on p.id = v.creator_id
       where v.status = 'ready' and v.is_public and v.type = ${options.type}
       order by v.view_count desc, v.like_count desc, v.created_at desc, v.id desc
       limit ${limit}
    `.execute(tx)
    return { items: await withProgress(tx, claims?.sub ?? null, rows.map(toItem)), popular: true }
  })
}
