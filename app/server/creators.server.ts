import { sql } from 'kysely'
import type { CreatorCard, CreatorListPage, CreatorPageData, PersonRole } from '~/lib/creator-types'
import { isUuid } from '~/lib/ids'
import { API_MESSAGES } from '~/lib/schemas/api'
import { avatarUrl } from '~/lib/media-urls'
import { CREATOR_MESSAGES, CREATORS_PAGE_SIZE } from '~/lib/schemas/creators'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { decodeCreatorKey, encodeCreatorKey } from './cursor.server'
import { DomainError } from './errors.server'
import { cleanSearch } from './feed/search.server'
import { browserSupabaseUrl } from './supabase.server'

/**
 * Creators (docs/product.md: Discover Creators, Creator profile; GET /users/creators,
 * GET /users/{id}, GET /users/{id}/stats), read as the caller. Only the
 * public card of a profile is readable by API roles (column grants); the
 * list and its search come from `public.search_creators()` /
 * `public.count_creators()`, which use the creators' name-and-bio index
 * (see docs/decisions/0013-public-card-and-creator-search.md). Counts are
 * counted rows, never stored counters, so they are exact.
 */

interface CreatorRow {
  id: string
  username: string
  role: string
  is_verified: boolean
  bio: string
  avatar_path: string | null
  created_at: string
  rank: number
}

/** A row of `public.search_creators()` with its sort key, for the cursor. */
interface ListedCreatorRow extends CreatorRow {
  featured: boolean
  followers: number
  /** The latest public upload at full precision, for cursors; null for none. */
  latest_key: string | null
}

/** Public videos and sparks of each creator, and whether the caller follows them. */
async function decorate(tx: Tx, claims: JwtClaims | null, rows: CreatorRow[]): Promise<CreatorCard[]> {
  if (rows.length === 0) return []
  const ids = rows.map((row) => row.id)
  const counts = await sql<{ id: string; videos: number; followed: boolean }>`
    select c.id,
           (select count(*) from public.videos v
             where v.creator_id = c.id and v.is_public and v.status = 'ready')::int as videos,
           ${claims ? sql`exists (select 1 from public.follows f where f.follower_id = ${claims.sub}::uuid and f.creator_id = c.id)` : sql`false`} as followed
      from unnest(${sql.val(ids)}::uuid[]) as c (id)
  `.execute(tx)
  const byId = new Map(counts.rows.map((row) => [row.id, row]))
  const base = browserSupabaseUrl()
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    role: row.role as PersonRole,
    isVerified: row.is_verified,
    bio: row.bio,
    avatarUrl: avatarUrl(base, row.avatar_path),
    videoCount: Number(byId.get(row.id)?.videos ?? 0),
    isFollowed: Boolean(byId.get(row.id)?.followed),
    isSelf: claims?.sub === row.id,
  }))
}

export interface ListCreatorsInput {
  search?: string | null
  cursor?: string | null
  limit?: number
}

/**
 * Discover Creators: a page of creator cards and how many there are for the
 * caller. Postgres orders them (best match first with a search; then verified
 * creators with public videos, most followed, latest public upload, name) and
 * lists pending creators to admins only; see
 * docs/decisions/0040-creator-discovery-order.md.
 */
export async function listCreators(claims: JwtClaims | null, input: ListCreatorsInput = {}): Promise<CreatorListPage> {
  const search = cleanSearch(input.search)
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? CREATORS_PAGE_SIZE), 1), 50)
  const after = decodeCreatorKey(input.cursor)
  return asCaller(claims, async (tx) => {
    // One connection per transaction: the queries run one after another.
    const page = await sql<ListedCreatorRow>`
      select s.*, to_char(s.latest_upload at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as latest_key
        from public.search_creators(
          ${search}, ${limit + 1},
          ${after ? (search ? after.rank : 0) : null}::real,
          ${after?.featured ?? null}::boolean,
          ${after?.followers ?? null}::integer,
          ${after?.latest ?? null}::timestamptz,
          ${after?.username ?? null}::text,
          ${after?.id ?? null}::uuid) as s
    `.execute(tx)
    const total = await sql<{ total: string }>`select public.count_creators(${search}) as total`.execute(tx)
    const rows = page.rows.slice(0, limit)
    const last = rows.at(-1)
    return {
      items: await decorate(tx, claims, rows),
      total: Number(total.rows[0]?.total ?? 0),
      nextCursor:
        page.rows.length > limit && last
          ? encodeCreatorKey({
              rank: search ? Number(last.rank) : 0,
              featured: last.featured,
              followers: Number(last.followers),
              latest: last.latest_key,
              username: last.username,
              id: last.id,
            })
          : null,
    }
  })
}

/**
 * A creator's page header: the public card with followers, following and
 * videos counts. Anyone with a page (creators and admins); an unknown or
 * malformed id, or a learner's, is 404 'Creator Not Found'.
 */
export async function getCreator(claims: JwtClaims | null, creatorId: string): Promise<CreatorPageData> {
  const notFound = new DomainError('not_found', CREATOR_MESSAGES.notFound)
  if (!isUuid(creatorId)) throw notFound
  return asCaller(claims, async (tx) => {
    const row = await tx
      .selectFrom('profiles')
      .select(['id', 'username', 'role', 'is_verified', 'bio', 'avatar_path', 'created_at'])
      .select(sql<number>`0`.as('rank'))
      .where('id', '=', creatorId)
      .where('role', 'in', ['creator', 'admin'])
      .executeTakeFirst()
    if (!row) throw notFound
    const [card] = await decorate(tx, claims, [row as CreatorRow])
    const counts = await sql<{ followers: number; following: number }>`
      select (select count(*) from public.follows where creator_id = ${creatorId}::uuid)::int as followers,
             (select count(*) from public.follows where follower_id = ${creatorId}::uuid)::int as following
    `.execute(tx)
    return {
      ...card!,
      followers: Number(counts.rows[0]?.followers ?? 0),
      following: Number(counts.rows[0]?.following ?? 0),
      joinedAt: new Date(row.created_at).toISOString(),
    }
  })
}

/**
 * Anyone's counts (GET /api/users/:id/stats): followers, whom they follow,
 * and their public ready videos — 0 for a learner, who has no videos. Every
 * profile and follow is readable by everyone (Postgres' policies); an
 * unknown or malformed id is 404.
 */
export async function userStats(
  claims: JwtClaims | null,
  userId: string,
): Promise<{ followers: number; following: number; videos: number }> {
  const notFound = new DomainError('not_found', API_MESSAGES.userNotFound)
  if (!isUuid(userId)) throw notFound
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<{ followers: number; following: number; videos: number }>`
      select (select count(*) from public.follows where creator_id = p.id)::int as followers,
             (select count(*) from public.follows where follower_id = p.id)::int as following,
             (select count(*) from public.videos v where v.creator_id = p.id and v.is_public and v.status = 'ready')::int as videos
        from public.profiles p
       where p.id = ${userId}::uuid
    `.execute(tx)
    const row = rows[0]
    if (!row) throw notFound
    return { followers: Number(row.followers), following: Number(row.following), videos: Number(row.videos) }
  })
}

/**
 * /explore: verified creators the caller does not follow yet (never
 * themselves; pending creators are nobody's suggestion), those
 * teaching in `categories` first, then the most followed.
 */
export async function suggestCreators(
  claims: JwtClaims | null,
  options: { categories: readonly string[]; limit: number },
): Promise<CreatorCard[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit), 1), 24)
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<CreatorRow>`
      select p.id, p.username, p.role, p.is_verified, p.bio, p.avatar_path, p.created_at, 0::real as rank
        from public.profiles p
       where p.role = 'creator'
         and p.is_verified
         ${
           claims
             ? sql`and p.id <> ${claims.sub}::uuid
           and not exists (select 1 from public.follows f where f.follower_id = ${claims.sub}::uuid and f.creator_id = p.id)`
             : sql``
         }
       order by exists (select 1 from public.creator_categories cc
                         where cc.creator_id = p.id and cc.status = 'approved'
                           and cc.category_id = any (${sql.val([...options.categories])}::text[])) desc,
                (select count(*) from public.follows f where f.creator_id = p.id) desc,
                p.created_at desc, p.id desc
       limit ${limit}
    `.execute(tx)
    return decorate(tx, claims, rows)
  })
}
