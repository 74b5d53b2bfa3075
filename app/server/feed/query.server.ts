import { sql, type RawBuilder } from 'kysely'
import { CATEGORY_IDS, type CategoryId } from '~/lib/catalog'
import type { VideoType } from '~/lib/video-types'
import { decodeTimeKey, encodeTimeKey, isoMicros } from '../cursor.server'
import type { JwtClaims, Tx } from '../db.server'
import { VIDEO_COLUMNS, type Row } from './cards.server'
import { cleanSearch, prefixQuery } from './search.server'

/**
 * The SQL of the feed and sparks lists: which rows a list holds (its filter),
 * one page of them in list order, where an item stands, and how many there are.
 * See lists.server.ts for what the lists are.
 */

/** What a list is filtered by, as the callers give it. */
export interface ListFilterOptions {
  type: VideoType
  /** A category id; anything not in the fixed list means no filter. */
  category?: string | null
  /** Words to look for in titles, descriptions and captions (prefix matching); blank means no filter. */
  search?: string | null
  /** Only videos with at least one caption track (ADR 0019's "has captions" filter). */
  captions?: boolean | null
}

/** A position in the list: the sort key of an item (`at` at microsecond precision). */
export interface SortKey {
  rank?: number
  at: string
  id: string
}

/** A listed row with its sort key's time at full precision. */
export type ListedRow = Row & { key_at: string }

/**
 * The key a cursor names (the one codec of app/server/cursor.server.ts), or null
 * for none, a malformed one, or one of the other kind (ranked vs newest-first).
 */
export function decodeCursor(cursor: string | null | undefined, ranked: boolean): SortKey | null {
  const key = decodeTimeKey(cursor)
  if (!key || (key.rank !== undefined) !== ranked) return null
  return key
}

export function encodeCursor(key: SortKey): string {
  return encodeTimeKey(key)
}

export function sortKeyOf(row: ListedRow): SortKey {
  return { at: row.key_at, id: row.id, ...(row.rank === undefined ? {} : { rank: row.rank }) }
}

export interface Filter {
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

export async function resolveFilter(
  tx: Tx,
  claims: JwtClaims | null,
  options: ListFilterOptions,
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
    return sql`and (${rankOf(filter)}, v.created_at, v.id) ${operator} (${key.rank}::real, ${key.at}::timestamptz, ${key.id}::uuid)`
  }
  return sql`and (v.created_at, v.id) ${operator} (${key.at}::timestamptz, ${key.id}::uuid)`
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
export async function selectPage(
  tx: Tx,
  filter: Filter,
  { key, op, limit }: { key: SortKey | null; op: '<' | '<=' | '>'; limit: number },
): Promise<ListedRow[]> {
  if (limit === 0) return []
  const direction = sql.raw(op === '>' ? 'asc' : 'desc')
  let rows: ListedRow[]
  if (filter.tsquery) {
    const { rows: found } = await sql<ListedRow>`
      select ${VIDEO_COLUMNS}, p.username, p.avatar_path, ${rankOf(filter)} as rank, ${isoMicros(sql`v.created_at`)} as key_at,
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
    const { rows: found } = await sql<ListedRow>`
      select v.*, p.username, p.avatar_path, ${isoMicros(sql`v.created_at`)} as key_at
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
export async function selectStartKey(tx: Tx, filter: Filter, id: string): Promise<SortKey | null> {
  const { rows } = await sql<{ key_at: string; id: string; rank: number | null }>`
    select ${isoMicros(sql`v.created_at`)} as key_at, v.id, ${filter.tsquery ? rankOf(filter) : sql`null::real`} as rank
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
  return { at: row.key_at, id: row.id, ...(row.rank === null ? {} : { rank: row.rank }) }
}

/** How many items the list has (or, given a key, how many come before it). */
export async function countMatching(tx: Tx, filter: Filter, before?: SortKey): Promise<number> {
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

