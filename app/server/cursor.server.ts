import { sql, type RawBuilder } from 'kysely'
import { z } from 'zod'

/**
 * The one keyset cursor codec of every list (the feed and sparks lists, with a
 * search rank when searching; creators, following, liked videos, a creator's
 * videos, History, notifications): an opaque base64url of the last item's sort key. The
 * time is taken from Postgres at full (microsecond) precision, so rows made
 * in the same millisecond — a seed, one transaction — are neither skipped
 * nor repeated at a page break.
 */
const timestamp = z
  .string()
  .datetime({ offset: true })
  // zod's format check alone lets through offsets like `+99:99` and year 0, which
  // Postgres refuses (a 500, before).
  .refine((value) => {
    const time = Date.parse(value)
    return Number.isFinite(time) && new Date(time).getUTCFullYear() >= 1970 && new Date(time).getUTCFullYear() <= 9999
  })

/** `column` as ISO-8601 text in UTC with microseconds, for a cursor. */
export function isoMicros(column: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
}

export interface TimeKey {
  at: string
  id: string
  rank?: number
}

export function encodeTimeKey(key: TimeKey): string {
  return Buffer.from(JSON.stringify(key.rank === undefined ? [key.at, key.id] : [key.at, key.id, key.rank])).toString('base64url')
}

const keySchema = z.union([
  z.tuple([timestamp, z.string().uuid()]),
  z.tuple([timestamp, z.string().uuid(), z.number().finite().nonnegative().max(1e6)]),
])

/** The key a cursor names, or null for none or a malformed one. */
export function decodeTimeKey(cursor: string | null | undefined): TimeKey | null {
  if (!cursor || cursor.length > 200) return null
  try {
    const parsed = keySchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')))
    if (!parsed.success) return null
    const [at, id, rank] = parsed.data
    return rank === undefined ? { at, id } : { at, id, rank }
  } catch {
    return null
  }
}

/**
 * The sort key of Discover Creators (see `public.search_creators()`): the
 * search rank (0 without a search), verified-with-public-videos, followers,
 * the latest public upload (null for none), username and id.
 */
export interface CreatorKey {
  rank: number
  featured: boolean
  followers: number
  latest: string | null
  username: string
  id: string
}

const creatorKeySchema = z.tuple([
  z.number().finite().nonnegative().max(1e6),
  z.boolean(),
  z.number().int().nonnegative().max(2_147_483_647),
  timestamp.nullable(),
  z.string().min(1).max(100),
  z.string().uuid(),
])

export function encodeCreatorKey(key: CreatorKey): string {
  return Buffer.from(JSON.stringify([key.rank, key.featured, key.followers, key.latest, key.username, key.id])).toString(
    'base64url',
  )
}

/** The creator key a cursor names, or null for none or a malformed one. */
export function decodeCreatorKey(cursor: string | null | undefined): CreatorKey | null {
  if (!cursor || cursor.length > 600) return null
  try {
    const parsed = creatorKeySchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')))
    if (!parsed.success) return null
    const [rank, featured, followers, latest, username, id] = parsed.data
    return { rank, featured, followers, latest, username, id }
  } catch {
    return null
  }
}
