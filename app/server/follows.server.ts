import { sql } from 'kysely'
import type { FollowingPage, FollowState, PersonRole } from '~/lib/creator-types'
import { isUuid } from '~/lib/ids'
import { avatarUrl } from '~/lib/media-urls'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { asCaller, type JwtClaims } from './db.server'
import { decodeTimeKey, encodeTimeKey, isoMicros } from './cursor.server'
import { DomainError } from './errors.server'
import { browserSupabaseUrl } from './supabase.server'

/**
 * Follows (docs/product.md: Creator profile; POST /users/follow/{id}, GET
 * /users/following/status/{id}, GET /users/{id}/following), as the caller:
 * row-level security lets a signed-in user follow creators and admins only
 * as themselves, a check constraint refuses following oneself, and the
 * counts are counted rows.
 */

/**
 * Follows (`want` true) or unfollows the creator as the caller; without
 * `want` the follow flips. Answers the state and the creator's follower count
 * after the change.
 */
export async function setFollow(claims: JwtClaims | null, creatorId: string, want?: boolean): Promise<FollowState> {
  if (!claims) throw new DomainError('unauthenticated', CREATOR_MESSAGES.loginToFollow)
  if (!isUuid(creatorId)) throw new DomainError('not_found', CREATOR_MESSAGES.notFound)
  if (creatorId === claims.sub) throw new DomainError('invalid', CREATOR_MESSAGES.cannotFollowSelf)
  return asCaller(claims, async (tx) => {
    const creator = await tx.selectFrom('profiles').select(['id', 'role']).where('id', '=', creatorId).executeTakeFirst()
    if (!creator) throw new DomainError('not_found', CREATOR_MESSAGES.notFound)
    if (creator.role === 'user') throw new DomainError('invalid', CREATOR_MESSAGES.notFollowable)
    const existing = await tx
      .selectFrom('follows')
      .select('creator_id')
      .where('follower_id', '=', claims.sub)
      .where('creator_id', '=', creatorId)
      .executeTakeFirst()
    const target = want ?? !existing
    if (target && !existing) {
      // follower_id defaults to auth.uid(); the policy checks it anyway.
      await tx
        .insertInto('follows')
        .values({ creator_id: creatorId })
        .onConflict((oc) => oc.doNothing())
        .execute()
    } else if (!target && existing) {
      await tx.deleteFrom('follows').where('follower_id', '=', claims.sub).where('creator_id', '=', creatorId).execute()
    }
    const count = await sql<{
      n: number
    }>`select count(*)::int as n from public.follows where creator_id = ${creatorId}::uuid`.execute(tx)
    return { isFollowing: target, followers: Number(count.rows[0]?.n ?? 0) }
  })
}

/** Whether the caller follows the creator (false for visitors). */
export async function isFollowing(claims: JwtClaims | null, creatorId: string): Promise<boolean> {
  if (!claims || !isUuid(creatorId)) return false
  return asCaller(claims, async (tx) => {
    const row = await tx
      .selectFrom('follows')
      .select('creator_id')
      .where('follower_id', '=', claims.sub)
      .where('creator_id', '=', creatorId)
      .executeTakeFirst()
    return Boolean(row)
  })
}

/** Which of `creatorIds` the caller follows (a reel page's Follow buttons), in one query. */
export async function followedCreatorIds(claims: JwtClaims | null, creatorIds: string[]): Promise<Set<string>> {
  const ids = [...new Set(creatorIds.filter(isUuid))]
  if (!claims || ids.length === 0) return new Set()
  const rows = await asCaller(claims, (tx) =>
    tx
      .selectFrom('follows')
      .select('creator_id')
      .where('follower_id', '=', claims.sub)
      .where('creator_id', 'in', ids)
      .execute(),
  )
  return new Set(rows.map((row) => row.creator_id))
}

/** Profile, Following: who the caller follows, latest first, paged by (followed at, creator id). */
export async function listFollowing(
  claims: JwtClaims | null,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<FollowingPage> {
  if (!claims) throw new DomainError('unauthenticated', CREATOR_MESSAGES.followingFailed)
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 20), 1), 50)
  const after = decodeTimeKey(options.cursor)
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<{
      id: string
      username: string
      role: string
      bio: string
      avatar_path: string | null
      followed_at: string
    }>`
      select p.id, p.username, p.role, p.bio, p.avatar_path, ${isoMicros(sql`f.created_at`)} as followed_at
        from public.follows f
        join public.profiles p on p.id = f.creator_id
       where f.follower_id = ${claims.sub}::uuid
         ${after ? sql`and (f.created_at, f.creator_id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
       order by f.created_at desc, f.creator_id desc
       limit ${limit + 1}
    `.execute(tx)
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    const base = browserSupabaseUrl()
    return {
      items: page.map((row) => ({
        id: row.id,
        username: row.username,
        role: row.role as PersonRole,
        bio: row.bio,
        avatarUrl: avatarUrl(base, row.avatar_path),
      })),
      nextCursor: rows.length > limit && last ? encodeTimeKey({ at: last.followed_at, id: last.id }) : null,
    }
  })
}
