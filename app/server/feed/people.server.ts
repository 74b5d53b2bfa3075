import { sql } from 'kysely'
import { CATEGORY_IDS } from '~/lib/catalog'
import { isUuid } from '~/lib/ids'
import type { VideoCardItem, VideoType } from '~/lib/video-types'
import { decodeTimeKey, encodeTimeKey, isoMicros } from '../cursor.server'
import { asCaller, type JwtClaims } from '../db.server'
import { withProgress } from '../progress-rows.server'
import { toItem, VIDEO_COLUMNS, type Row } from './cards.server'
import { clampLimit, type VideoPage } from './lists.server'

/** The lists of one person's videos (a creator's, the caller's liked ones) and /explore's rows. */

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
