import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { LikeState } from '~/lib/video-types'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError } from './errors.server'
import { visibleVideo } from './permissions.server'

/**
 * Likes of videos and quotes (docs/product.md: States; Rules and messages), as the caller:
 * row-level security lets a user like only what they can see, and only as
 * themselves; the counters are kept by the database's triggers.
 */

const notFound = () => new DomainError('not_found', VIDEO_MESSAGES.notFound)

/**
 * Likes or unlikes the video as the caller. `want` is the state asked for
 * (a form says which, so a double submit cannot undo itself); without it the
 * like flips. Returns the count after the change, as the database keeps it.
 */
export async function likeVideo(claims: JwtClaims, id: string, want?: boolean): Promise<LikeState> {
  if (!isUuid(id)) throw notFound()
  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, id))) throw notFound()
    return setLike(tx, 'video', id, claims.sub, want)
  })
}

/** Where each kind of like lives: its table, the liked row's key column, and the counted table. */
const LIKES = {
  video: { table: 'video_likes', key: 'video_id', counted: 'videos' },
  quote: { table: 'quote_likes', key: 'quote_id', counted: 'quotes' },
} as const

/**
 * Sets the caller's like on a video or quote to `want` (or flips it), inside
 * the caller's transaction so RLS decides, and returns the count the
 * database's trigger keeps. The insert names no user: it defaults to auth.uid().
 */
async function setLike(tx: Tx, kind: keyof typeof LIKES, id: string, userId: string, want?: boolean): Promise<LikeState> {
  const { table, key, counted } = LIKES[kind]
  const existing = await sql`select 1 from ${sql.table(table)} where ${sql.ref(key)} = ${id} and user_id = ${userId}`.execute(tx)
  const liked = existing.rows.length > 0
  const target = want ?? !liked
  if (target && !liked) {
    await sql`insert into ${sql.table(table)} (${sql.ref(key)}) values (${id}) on conflict do nothing`.execute(tx)
  } else if (!target && liked) {
    await sql`delete from ${sql.table(table)} where ${sql.ref(key)} = ${id} and user_id = ${userId}`.execute(tx)
  }
  const { rows } = await sql<{ like_count: number }>`select like_count from ${sql.table(counted)} where id = ${id}`.execute(tx)
  return { likes: rows[0]?.like_count ?? 0, hasLiked: target }
}

/** Likes or unlikes a quote as the caller (`want` as for videos). */
export async function likeQuote(claims: JwtClaims | null, quoteId: string, want?: boolean): Promise<LikeState> {
  if (!claims) throw new DomainError('unauthenticated', VIDEO_MESSAGES.loginToLikeQuote)
  if (!isUuid(quoteId)) throw new DomainError('not_found', VIDEO_MESSAGES.quoteNotFound)
  return asCaller(claims, async (tx) => {
    const quote = await tx.selectFrom('quotes').select('id').where('id', '=', quoteId).executeTakeFirst()
    if (!quote) throw new DomainError('not_found', VIDEO_MESSAGES.quoteNotFound)
    return setLike(tx, 'quote', quoteId, claims.sub, want)
  })
}

/** Which of `videoIds` the caller has liked (the lists' `hasLiked`), in one query. */
export async function likedVideoIds(claims: JwtClaims | null, videoIds: string[]): Promise<Set<string>> {
  const ids = videoIds.filter(isUuid)
  if (!claims || ids.length === 0) return new Set()
  const rows = await asCaller(claims, (tx) =>
    tx.selectFrom('video_likes').select('video_id').where('user_id', '=', claims.sub).where('video_id', 'in', ids).execute(),
  )
  return new Set(rows.map((row) => row.video_id))
}
