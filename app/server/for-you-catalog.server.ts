import { sql } from 'kysely'
import { componentLogger } from '../../ops/log'
import { asServiceRole, type Tx } from './db.server'
import type { Candidate } from './for-you.server'

/**
 * For You's impersonal part, kept per version (docs/decisions/0064-for-you-catalog-cache.md).
 *
 * `public.for_you_sparks()` (ADR 0052) reads its candidate lists from spark_scores — the same
 * rows for every learner — and scores them with the learner's signals. This process keeps a
 * copy of spark_scores (up to CATALOG_MAX rows) under the token of `spark_scores_version`,
 * which changes in the same transaction as any write to spark_scores; a request reads the
 * learner's signals and the token in one statement (`public.for_you_signals`), and when it
 * holds the copy for that token ranks it here with the function's rules, exactly — the same
 * lists, the same score in the same float arithmetic, the same cut. With another token (or
 * a larger catalogue) the request ranks in SQL as before, and the copy for the new token is
 * read once, as the service role, for the requests after it.
 */

/** Largest catalogue kept (rows of spark_scores); a larger one is ranked in SQL on every request. */
export const CATALOG_MAX = 5_000

/** ADR 0052's list sizes (for_you_sparks' constants). */
const BEST_SIZE = 1100
const NEWEST_SIZE = 200
const DISCOVERY_SIZE = 300
const FOLLOWED_POOL = 100
const NEW_FOR_US = 48 * 3600 * 1_000_000
const FRESHNESS_SECONDS = 172800

export interface CatalogRow {
  video_id: string
  creator_id: string
  category_id: string
  /** Publication time, microseconds since 1970. */
  created_us: number
  /** ADR 0052's base, a float4 value. */
  base: number
}

/** What `public.for_you_signals` answers for a caller (the personal part). */
export interface Signals {
  at_text: string
  at_us: number
  version: string
  personal: boolean
  field: string | null
  usual: string[]
  taste_categories: string[]
  taste_shares: number[]
  followed: string[]
  dismissed_videos: string[]
  dismissed_creators: string[]
  watched: string[]
}

const byId = (a: CatalogRow, b: CatalogRow) => (a.video_id < b.video_id ? -1 : a.video_id > b.video_id ? 1 : 0)
const bestFirst = (a: CatalogRow, b: CatalogRow) => b.base - a.base || byId(a, b)
const newestFirst = (a: CatalogRow, b: CatalogRow) => b.created_us - a.created_us || byId(a, b)

function groupBy(rows: CatalogRow[], key: (row: CatalogRow) => string): Map<string, CatalogRow[]> {
  const groups = new Map<string, CatalogRow[]>()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group) group.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}

/** spark_scores as of one version, in the orders of its indexes. */
export class SparkCatalog {
  readonly best: CatalogRow[]
  readonly newest: CatalogRow[]
  readonly creatorBest: Map<string, CatalogRow[]>
  readonly creatorNewest: Map<string, CatalogRow[]>
  readonly categoryBest: Map<string, CatalogRow[]>
  readonly categoryNewest: Map<string, CatalogRow[]>

  constructor(rows: CatalogRow[]) {
    this.best = [...rows].sort(bestFirst)
    this.newest = [...rows].sort(newestFirst)
    this.creatorBest = groupBy(this.best, (row) => row.creator_id)
    this.creatorNewest = groupBy(this.newest, (row) => row.creator_id)
    this.categoryBest = groupBy(this.best, (row) => row.category_id)
    this.categoryNewest = groupBy(this.newest, (row) => row.category_id)
  }
}

/** The first `limit` rows of `rows` (in its order) that pass `keep`. */
function take(rows: readonly CatalogRow[] | undefined, limit: number, keep: (row: CatalogRow) => boolean): CatalogRow[] {
  const out: CatalogRow[] = []
  if (!rows) return out
  for (const row of rows) {
    if (out.length >= limit) break
    if (keep(row)) out.push(row)
  }
  return out
}

const intDiv = (a: number, b: number) => Math.trunc(a / b)

/**
 * `public.for_you_sparks(at, maxRows)` for the caller `uid` (null: a visitor) with these
 * signals, on this catalogue: the same candidate lists, scores, flags and reasons, the same
 * rows (in another order: the arrangement sorts them).
 */
export function rankCatalog(catalog: SparkCatalog, signals: Signals, uid: string | null, maxRows: number): Candidate[] {
  const at = signals.at_us
  const n = Math.min(Math.max(Math.trunc(maxRows) || 24, 1), 2000)
  const personal = signals.personal
  const watched = new Set(signals.watched)
  const usual = new Set(signals.usual)
  const followedSet = new Set(signals.followed)
  const eligible = (row: CatalogRow) => row.created_us <= at && row.creator_id !== uid

  // The catalogue's rows are shared objects: one spark is one row, so a set of rows is a set of sparks.
  const candidates = new Set<CatalogRow>()
  const add = (rows: CatalogRow[]) => {
    for (const row of rows) candidates.add(row)
  }
  const best = take(catalog.best, BEST_SIZE, (row) => eligible(row) && !watched.has(row.video_id))
  add(best)
  if (uid !== null && best.length < BEST_SIZE)
    add(take(catalog.best, BEST_SIZE, (row) => eligible(row) && watched.has(row.video_id)))
  if (personal) {
    const pool = signals.followed.slice(0, FOLLOWED_POOL)
    const perCreatorBest = Math.min(40, Math.max(5, intDiv(400, Math.max(pool.length, 1))))
    const perCreatorNewest = Math.min(10, Math.max(2, intDiv(100, Math.max(pool.length, 1))))
    const perCategoryBest = Math.min(100, Math.max(20, intDiv(600, Math.max(signals.usual.length, 1))))
    const perCategoryNewest = Math.min(25, Math.max(5, intDiv(150, Math.max(signals.usual.length, 1))))
    add(take(catalog.newest, NEWEST_SIZE, eligible))
    for (const creator of pool) {
      add(take(catalog.creatorBest.get(creator), perCreatorBest, eligible))
      add(take(catalog.creatorNewest.get(creator), perCreatorNewest, eligible))
    }
    for (const category of signals.usual) {
      add(take(catalog.categoryBest.get(category), perCategoryBest, eligible))
      add(take(catalog.categoryNewest.get(category), perCategoryNewest, eligible))
    }
    add(
      take(
        catalog.best,
        DISCOVERY_SIZE,
        (row) => eligible(row) && !usual.has(row.category_id) && !followedSet.has(row.creator_id) && !watched.has(row.video_id),
      ),
    )
  }

  const shares = new Map(signals.taste_categories.map((category, i) => [category, signals.taste_shares[i]!]))
  const dismissedVideos = new Set(signals.dismissed_videos)
  const dismissedCreators = new Set(signals.dismissed_creators)
  const rows = [...candidates.values()]
  const scores = new Float64Array(rows.length)
  const seen = new Uint8Array(rows.length)
  const discovery = new Uint8Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const c = rows[i]!
    // The function's expression in its types: base and share are float4, every term is summed in float8
    // (numeric constants become float8, the preferred type), and the sum is cut to float4.
    let score = c.base
    if (personal) {
      const age = Math.max((at - c.created_us) / 1_000_000, 0)
      score +=
        Math.exp(-age / FRESHNESS_SECONDS) +
        (followedSet.has(c.creator_id) ? 3.0 : 0) +
        2.5 * (shares.get(c.category_id) ?? 0) +
        (c.category_id === signals.field ? 1.0 : 0)
    }
    score -= dismissedVideos.has(c.video_id) ? 10.0 : 0
    score -= dismissedCreators.has(c.creator_id) ? 4.0 : 0
    scores[i] = Math.fround(score)
    seen[i] = watched.has(c.video_id) ? 1 : 0
    discovery[i] = personal && !followedSet.has(c.creator_id) && !usual.has(c.category_id) ? 1 : 0
  }
  // Unwatched first, then by score, then by id: the function's two cuts (every candidate; the discovery ones).
  const before = (a: number, b: number) =>
    seen[a]! - seen[b]! || scores[b]! - scores[a]! || (rows[a]!.video_id < rows[b]!.video_id ? -1 : 1)
  const top = firstBy(rows.length, n, before, () => true)
  const chosen = new Set(top)
  for (const i of firstBy(rows.length, intDiv(n, 4) + 1, before, (i) => discovery[i] === 1)) if (!chosen.has(i)) top.push(i)
  return top.map((i) => {
    const c = rows[i]!
    const followed = followedSet.has(c.creator_id)
    return {
      video_id: c.video_id,
      creator_id: c.creator_id,
      category_id: c.category_id,
      score: scores[i]!,
      watched: seen[i] === 1,
      discovery: discovery[i] === 1,
      reason:
        personal && followed
          ? 'follow'
          : personal && usual.has(c.category_id)
            ? 'interest'
            : c.created_us > at - NEW_FOR_US
              ? 'new'
              : personal
                ? 'discovery'
                : 'popular',
    }
  })
}

/** The first `k` of indexes 0…count−1 that pass `keep`, in `before`'s order (kept sorted by insertion: k is small). */
function firstBy(count: number, k: number, before: (a: number, b: number) => number, keep: (i: number) => boolean): number[] {
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    if (!keep(i)) continue
    if (out.length === k && before(i, out[k - 1]!) >= 0) continue
    let lo = 0
    let hi = out.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (before(out[mid]!, i) < 0) lo = mid + 1
      else hi = mid
    }
    out.splice(lo, 0, i)
    if (out.length > k) out.pop()
  }
  return out
}

// The process's copy -------------------------------------------------------------------------------

type Kept = { version: string; catalog: SparkCatalog | null }

let kept: Kept | null = null
let loading: Promise<void> | null = null
const log = componentLogger('for-you-catalog')

/** The copy for this version, if this process holds it (null: rank in SQL). */
export function catalogFor(version: string): SparkCatalog | null {
  return kept?.version === version ? kept.catalog : null
}

/** Whether this process has read spark_scores at this version (kept, or found too large). */
export function catalogKnown(version: string): boolean {
  return kept?.version === version
}

/** The caller's signals and the version, in the caller's transaction. */
export async function readSignals(tx: Tx, snapshot: string | null): Promise<Signals> {
  const { rows } = await sql<Omit<Signals, 'at_us' | 'taste_shares'> & { at_us: string; taste_shares: number[] }>`
    select * from public.for_you_signals(${snapshot}::timestamptz)
  `.execute(tx)
  const row = rows[0]!
  return {
    ...row,
    at_us: Number(row.at_us),
    taste_shares: row.taste_shares.map((share) => Math.fround(Number(share))),
  }
}

/**
 * Reads spark_scores with its version, as the service role (learners may not read the scores:
 * they reflect strikes), and keeps it — unless another read is under way. A catalogue over
 * CATALOG_MAX rows is remembered as too large for that version.
 */
export function refreshCatalog(): Promise<void> {
  loading ??= (async () => {
    try {
      const next = await asServiceRole('For You: the catalogue of kept spark scores, the same for every learner', async (tx) => {
        const { rows } = await sql<{ version: string; rows: CatalogRow[] | null }>`
          select v.token as version,
                 case when (select count(*) from (select from public.spark_scores limit ${CATALOG_MAX + 1}) n) <= ${CATALOG_MAX} then (
                   select coalesce(json_agg(json_build_object(
                            'video_id', s.video_id, 'creator_id', s.creator_id, 'category_id', s.category_id,
                            'created_us', (extract(epoch from s.created_at) * 1000000)::bigint, 'base', s.base)), '[]')
                     from public.spark_scores s)
                 end as rows
            from public.spark_scores_version v
        `.execute(tx)
        return rows[0]
      })
      if (!next) return
      kept = {
        version: next.version,
        catalog: next.rows ? new SparkCatalog(next.rows.map((row) => ({ ...row, base: Math.fround(row.base) }))) : null,
      }
    } catch (error) {
      log.warn({ error: (error as Error).message }, 'could not read the For You catalogue: ranking in SQL')
    } finally {
      loading = null
    }
  })()
  return loading
}

/** Forgets the copy (tests). */
export function forgetCatalog(): void {
  kept = null
}
