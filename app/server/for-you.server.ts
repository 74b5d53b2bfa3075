import { sql } from 'kysely'
import { z } from 'zod'
import { shortCategoryName } from '~/lib/catalog'
import type { SparkFeed } from '~/lib/for-you'
import { isUuid } from '~/lib/ids'
import type { VideoCardItem } from '~/lib/video-types'
import { isoMicros } from './cursor.server'
import { asCaller, asServiceRole, type JwtClaims, type Tx } from './db.server'
import { catalogFor, catalogKnown, rankCatalog, readSignals, refreshCatalog } from './for-you-catalog.server'
import { DomainError } from './errors.server'
import { toItem, VIDEO_COLUMNS, type Row } from './feed/cards.server'
import { withProgress } from './progress-rows.server'

/**
 * The sparks feeds (ADR 0045): For You, ranked by `public.for_you_sparks()`
 * (bounded candidate lists from the kept per-spark scores, ADR 0052) — or, up
 * to 5,000 sparks, by the same rules in this process from its copy of those
 * scores for the current version (for-you-catalog.server.ts, ADR 0064) — and
 * arranged here, and Following, the followed
 * creators' sparks newest first. The reel viewer, /sparks and
 * GET /api/videos/shorts all read them through `listSparkFeed`, so they show
 * the same order, each clip with the line saying why it is there.
 * (The feed names and messages are in app/lib/for-you.ts, for the pages too.)
 *
 * For You pages: the first page fixes a snapshot time; every later page ranks
 * as of that time (clips published since, views and likes since, are not
 * looked at) and continues at an offset in the same arrangement — so a new
 * clip arriving, or the learner watching page 1, moves nothing between pages.
 */
export type ReasonKind = 'follow' | 'interest' | 'new' | 'discovery' | 'popular' | 'watched'

export interface FeedReason {
  kind: ReasonKind
  /** One line: "Because you follow maya.creates", "Popular in Physics", "New". */
  text: string
}

export type RankedCard = VideoCardItem & { reason: FeedReason }

export interface SparkFeedPage {
  items: RankedCard[]
  nextCursor: string | null
}

/** Clips the arrangement reads beyond the page, so its rules (creator runs, discovery) rarely run short. */
const LOOKAHEAD = 40
/** How deep For You pages go (offset); past it the feed ends. */
export const MAX_FOR_YOU_OFFSET = 1000
const MAX_LIMIT = 50

// Cursors -----------------------------------------------------------------------------

const timestamp = z
  .string()
  .datetime({ offset: true })
  .refine((value) => {
    const year = new Date(value).getUTCFullYear()
    return year >= 1970 && year <= 9999
  })
const forYouCursor = z.tuple([z.literal('fy'), timestamp, z.number().int().min(1).max(MAX_FOR_YOU_OFFSET)])
const followingCursor = z.tuple([z.literal('fo'), timestamp, z.string().uuid()])

function encode(value: unknown[]): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

function decode<T>(cursor: string | null | undefined, schema: z.ZodType<T>): T | null {
  if (!cursor || cursor.length > 200) return null
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

// The arrangement -------------------------------------------------------------------------

export interface Candidate {
  video_id: string
  creator_id: string
  category_id: string
  score: number
  watched: boolean
  discovery: boolean
  reason: Exclude<ReasonKind, 'watched'>
}

/** Every fourth slot (4th, 8th, …) goes to a clip outside the learner's usual categories. */
export const DISCOVERY_EVERY = 4
/** No creator fills more than this many slots in a row. */
export const MAX_RUN = 2

/**
 * The For You order from the scored candidates (in score order, unwatched
 * first): slot by slot, the best remaining clip that keeps the rules —
 * unwatched before watched; every fourth slot a discovery clip (when the
 * learner has usual categories); no creator three times in a row. A rule that
 * no remaining clip can keep is let go for that slot (discovery first, then
 * the creator run), never the watched one.
 */
export function arrangeForYou(candidates: readonly Candidate[]): Candidate[] {
  const remaining = [...candidates].sort(
    (a, b) => Number(a.watched) - Number(b.watched) || b.score - a.score || (a.video_id < b.video_id ? -1 : 1),
  )
  const personal = remaining.some((candidate) => candidate.discovery)
  const out: Candidate[] = []
  while (remaining.length > 0) {
    const tier = remaining[0]!.watched
    const slot = out.length
    const wantDiscovery = personal && slot % DISCOVERY_EVERY === DISCOVERY_EVERY - 1
    const run = out.slice(-MAX_RUN)
    const blocked = run.length === MAX_RUN && run.every((c) => c.creator_id === run[0]!.creator_id) ? run[0]!.creator_id : null
    const fits = (c: Candidate, discovery: boolean, creator: boolean) =>
      c.watched === tier && (!discovery || c.discovery) && (!creator || c.creator_id !== blocked)
    let index = remaining.findIndex((c) => fits(c, wantDiscovery, true))
    if (index < 0) index = remaining.findIndex((c) => fits(c, false, true))
    if (index < 0) index = 0
    out.push(remaining.splice(index, 1)[0]!)
  }
  return out
}

function reasonFor(kind: ReasonKind, card: VideoCardItem): FeedReason {
  switch (kind) {
    case 'follow':
      return { kind, text: `Because you follow ${card.creator.username}` }
    case 'interest':
      return { kind, text: `Popular in ${shortCategoryName(card.category.id)}` }
    case 'new':
      return { kind, text: 'New' }
    case 'discovery':
      return { kind, text: `Something different: ${shortCategoryName(card.category.id)}` }
    case 'watched':
      return { kind, text: 'Watched before' }
    default:
      return { kind: 'popular', text: 'Popular on Lumen' }
  }
}

// The feeds ------------------------------------------------------------------------------------

export async function listSparkFeed(
  claims: JwtClaims | null,
  options: { feed: SparkFeed; cursor?: string | null; limit: number },
): Promise<SparkFeedPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit) || 1, 1), MAX_LIMIT)
  return options.feed === 'following' ? listFollowing(claims, options.cursor, limit) : listForYou(claims, options.cursor, limit)
}

async function listForYou(claims: JwtClaims | null, cursor: string | null | undefined, limit: number): Promise<SparkFeedPage> {
  const key = decode(cursor, forYouCursor)
  const offset = key?.[2] ?? 0
  const maxRows = offset + limit + LOOKAHEAD
  // The learner's signals and the version of the kept scores in one statement; the impersonal
  // part from this process's copy for that version when it holds it (ADR 0064), else in SQL.
  let missed = false
  const rank = async (tx: Tx) => {
    const signals = await readSignals(tx, key?.[1] ?? null)
    const catalog = catalogFor(signals.version)
    if (catalog) return { snapshot: signals.at_text, rows: rankCatalog(catalog, signals, claims?.sub ?? null, maxRows) }
    missed = !catalogKnown(signals.version)
    const { rows } = await sql<Candidate>`
      select f.video_id, f.creator_id, f.category_id, f.score, f.watched, f.discovery, f.reason
        from public.for_you_sparks(${signals.at_text}::timestamptz, ${maxRows}) f
    `.execute(tx)
    return { snapshot: signals.at_text, rows: rows.map((row) => ({ ...row, score: Number(row.score) })) }
  }
  // Visitors: the popularity order (the function's impersonal part), read as the service role —
  // anon may not call security-definer functions (ADR 0045); the cards are still read as anon.
  const visitorRanking = claims ? null : await asServiceRole("visitors' For You: the popularity order, nothing personal", rank)
  const page = await asCaller(claims, async (tx) => {
    const { snapshot, rows } = visitorRanking ?? (await rank(tx))
    const arranged = arrangeForYou(rows)
    const page = arranged.slice(offset, offset + limit)
    if (page.length === 0) return { items: [], nextCursor: null }
    const cards = await cardsById(
      tx,
      page.map((c) => c.video_id),
    )
    const items: RankedCard[] = []
    for (const candidate of page) {
      const card = cards.get(candidate.video_id)
      if (card) items.push({ ...card, reason: reasonFor(candidate.watched ? 'watched' : candidate.reason, card) })
    }
    const next = offset + limit
    return {
      items: await withProgress(tx, claims?.sub ?? null, items),
      nextCursor: arranged.length > next && next <= MAX_FOR_YOU_OFFSET ? encode(['fy', snapshot, next]) : null,
    }
  })
  // The copy for the new version, for the requests after this one.
  if (missed) await refreshCatalog()
  return page
}

async function listFollowing(claims: JwtClaims | null, cursor: string | null | undefined, limit: number): Promise<SparkFeedPage> {
  if (!claims) return { items: [], nextCursor: null }
  const key = decode(cursor, followingCursor)
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<Row & { key_at: string }>`
      select ${VIDEO_COLUMNS}, p.username, p.avatar_path, ${isoMicros(sql`v.created_at`)} as key_at
        from public.follows f
        join public.videos v on v.creator_id = f.creator_id
        join public.profiles p on p.id = v.creator_id
       where f.follower_id = ${claims.sub}::uuid
         and v.type = 'spark' and v.status = 'ready' and v.is_public
         ${key ? sql`and (v.created_at, v.id) < (${key[1]}::timestamptz, ${key[2]}::uuid)` : sql``}
       order by v.created_at desc, v.id desc
       limit ${limit + 1}
    `.execute(tx)
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    const items = page.map((row) => {
      const card = toItem(row)
      return { ...card, reason: reasonFor('follow', card) }
    })
    return {
      items: await withProgress(tx, claims.sub, items),
      nextCursor: rows.length > limit && last ? encode(['fo', last.key_at, last.id]) : null,
    }
  })
}

/** The cards of these clips as the caller may read them (row-level security has the last word). */
async function cardsById(tx: Tx, ids: string[]): Promise<Map<string, VideoCardItem>> {
  const { rows } = await sql<Row>`
    select ${VIDEO_COLUMNS}, p.username, p.avatar_path
      from public.videos v
      join public.profiles p on p.id = v.creator_id
     where v.id = any (${sql.val(ids)}::uuid[]) and v.status = 'ready' and v.is_public
  `.execute(tx)
  return new Map(rows.map((row) => [row.id, toItem(row)]))
}

/** One ready spark's card that the lists would show the caller (public, or their own), or null: a clip opened by its link. */
export async function sparkCard(claims: JwtClaims | null, id: string): Promise<VideoCardItem | null> {
  if (!isUuid(id)) return null
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<Row>`
      select ${VIDEO_COLUMNS}, p.username, p.avatar_path
        from public.videos v
        join public.profiles p on p.id = v.creator_id
       where v.id = ${id}::uuid and v.type = 'spark' and v.status = 'ready'
         and (v.is_public ${claims ? sql`or v.creator_id = ${claims.sub}::uuid` : sql``})
    `.execute(tx)
    return rows[0] ? toItem(rows[0]) : null
  })
}

/** How many clips a feed has in all (the reel viewer's "3 / 12"). */
export async function countSparkFeed(claims: JwtClaims | null, feed: SparkFeed): Promise<number> {
  if (feed === 'following' && !claims) return 0
  return asCaller(claims, async (tx) => {
    const { rows } =
      feed === 'following'
        ? await sql<{ total: string }>`
            select count(*) as total
              from public.follows f
              join public.videos v on v.creator_id = f.creator_id
             where f.follower_id = ${claims!.sub}::uuid and v.type = 'spark' and v.status = 'ready' and v.is_public`.execute(tx)
        : await sql<{ total: string }>`
            select count(*) as total
              from public.videos v
             where v.type = 'spark' and v.status = 'ready' and v.is_public
               ${claims ? sql`and v.creator_id <> ${claims.sub}::uuid` : sql``}`.execute(tx)
    return Math.min(Number(rows[0]?.total ?? 0), MAX_FOR_YOU_OFFSET + MAX_LIMIT)
  })
}

// Not interested ---------------------------------------------------------------------------------

const NOT_FOUND = 'Video not found'

export interface NotInterestedResult {
  videoId: string
  /** The creator whose clips also go down, when asked. */
  creatorId: string | null
}

/**
 * "Not interested" on a clip and, with `alsoCreator`, on its creator's clips
 * (ADR 0045): they go down in the caller's For You. Saying it again replaces
 * the earlier choice. NotFound for a clip the caller cannot see.
 */
export async function markNotInterested(claims: JwtClaims, videoId: string, alsoCreator: boolean): Promise<NotInterestedResult> {
  if (!isUuid(videoId)) throw new DomainError('not_found', NOT_FOUND)
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<{ creator_id: string }>`
      select v.creator_id from public.videos v where v.id = ${videoId}::uuid and v.status = 'ready' and v.is_public
    `.execute(tx)
    const creatorId = rows[0]?.creator_id
    if (!creatorId) throw new DomainError('not_found', NOT_FOUND)
    const creator = alsoCreator ? creatorId : null
    await sql`
      insert into public.not_interested (user_id, video_id, creator_id)
      values (${claims.sub}::uuid, ${videoId}::uuid, ${creator}::uuid)
      on conflict on constraint not_interested_pkey do update set creator_id = excluded.creator_id
    `.execute(tx)
    return { videoId, creatorId: creator }
  })
}
