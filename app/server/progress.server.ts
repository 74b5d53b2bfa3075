import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import {
  CONTINUE_WATCHING_SIZE,
  PROGRESS_MESSAGES,
  RESUME_MIN_SECONDS,
  positionSchema,
  type WatchPosition,
} from '~/lib/schemas/progress'
import type { VideoCardItem } from '~/lib/video-types'
import { decodeTimeKey, encodeTimeKey, isoMicros } from './cursor.server'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError, isPermissionError } from './errors.server'
import { toItem, VIDEO_COLUMNS, type Row } from './feed/cards.server'
import { toWatchPosition, type ProgressRow } from './progress-rows.server'

/**
 * Resume where you left off (ADR 0034): each learner's last position in each
 * video, private to them (row-level security: only the learner reads and
 * removes their rows; only `public.save_watch_position()` writes them).
 *
 * The player saves it with the progress reports it already sends to count
 * views (`reportWatch` in app/server/views.server.ts, every few seconds while
 * playing and on pause, end and page hide, as one batched call), the API with
 * PUT /videos/{id}/progress. Visitors have none.
 */

/** A video in the learner's History (or Continue watching): its card, with the position. */
export type HistoryItem = VideoCardItem & { progress: WatchPosition }

export interface HistoryPage {
  items: HistoryItem[]
  nextCursor: string | null
}

/** Saves the caller's position (`{ position, duration? }` in seconds). Throws invalid or not_found. */
export async function saveWatchPosition(claims: JwtClaims, videoId: string, input: unknown): Promise<WatchPosition> {
  const parsed = positionSchema.safeParse(input)
  if (!parsed.success)
    throw new DomainError('invalid', PROGRESS_MESSAGES.badPosition, { position: PROGRESS_MESSAGES.badPosition })
  if (!isUuid(videoId)) throw new DomainError('not_found', PROGRESS_MESSAGES.videoNotFound)
  try {
    return await asCaller(claims, (tx) => savePositionIn(tx, videoId, parsed.data.position, parsed.data.duration))
  } catch (error) {
    if (isPermissionError(error)) throw new DomainError('not_found', PROGRESS_MESSAGES.videoNotFound)
    throw error
  }
}

/** The save itself, inside a caller's transaction (the progress reports batch it with the view's report). */
export async function savePositionIn(tx: Tx, videoId: string, position: number, duration?: number): Promise<WatchPosition> {
  const { rows } = await sql<ProgressRow>`
    select video_id, position_seconds, duration_seconds, finished, updated_at
      from public.save_watch_position(${videoId}::uuid, ${position}, ${duration ?? null})
  `.execute(tx)
  return toWatchPosition(rows[0]!)
}

/** The caller's position in a video, or null (a visitor, never watched, or removed from History). */
export async function getWatchPosition(claims: JwtClaims | null, videoId: string): Promise<WatchPosition | null> {
  if (!claims || !isUuid(videoId)) return null
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<ProgressRow>`
      select video_id, position_seconds, duration_seconds, finished, updated_at
        from public.watch_progress
       where user_id = ${claims.sub}::uuid and video_id = ${videoId}::uuid
    `.execute(tx)
    return rows[0] ? toWatchPosition(rows[0]) : null
  })
}

/**
 * History (profile tab, GET /api/users/{id}/history): the videos the caller
 * watched that they can still watch, latest first, keyset-paged on
 * `watch_progress_user_updated_idx`.
 */
export async function listHistory(claims: JwtClaims, options: { cursor?: string | null; limit: number }): Promise<HistoryPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit) || 12, 1), 50)
  const key = decodeTimeKey(options.cursor)
  return asCaller(claims, async (tx) => {
    const rows = await selectHistory(tx, claims.sub, {
      where: key ? sql`and (w.updated_at, w.video_id) < (${key.at}::timestamptz, ${key.id}::uuid)` : sql``,
      limit: limit + 1,
    })
    const items = rows.slice(0, limit)
    const last = items.at(-1)
    return {
      items: items.map(toHistoryItem),
      nextCursor: rows.length > limit && last ? encodeTimeKey({ at: last.key_at, id: last.id }) : null,
    }
  })
}

/** The feed's Continue watching row: long-form videos started (past the first seconds) and not finished, latest first. */
export async function listContinueWatching(claims: JwtClaims, limit = CONTINUE_WATCHING_SIZE): Promise<HistoryItem[]> {
  return asCaller(claims, async (tx) => {
    const rows = await selectHistory(tx, claims.sub, {
      where: sql`and not w.finished and w.position_seconds >= ${RESUME_MIN_SECONDS} and v.type = 'video'`,
      limit,
    })
    return rows.map(toHistoryItem)
  })
}

/** Removes one video from the caller's History. Removing one that is not there is not an error. */
export async function removeFromHistory(claims: JwtClaims, videoId: string): Promise<string> {
  if (!isUuid(videoId)) throw new DomainError('not_found', PROGRESS_MESSAGES.videoNotFound)
  await asCaller(claims, (tx) =>
    sql`delete from public.watch_progress where user_id = ${claims.sub}::uuid and video_id = ${videoId}::uuid`.execute(tx),
  )
  return PROGRESS_MESSAGES.removed
}

/** Clears the caller's whole History (every saved position). */
export async function clearHistory(claims: JwtClaims): Promise<string> {
  await asCaller(claims, (tx) => sql`delete from public.watch_progress where user_id = ${claims.sub}::uuid`.execute(tx))
  return PROGRESS_MESSAGES.cleared
}

type HistoryRow = Row & ProgressRow & { key_at: string }

async function selectHistory(tx: Tx, userId: string, options: { where: ReturnType<typeof sql>; limit: number }) {
  const { rows } = await sql<HistoryRow>`
    select ${VIDEO_COLUMNS}, p.username, p.avatar_path,
           w.video_id, w.position_seconds, w.duration_seconds as progress_duration, w.finished, w.updated_at,
           ${isoMicros(sql`w.updated_at`)} as key_at
      from public.watch_progress w
      join public.videos v on v.id = w.video_id
      join public.profiles p on p.id = v.creator_id
     where w.user_id = ${userId}::uuid and v.status = 'ready'
       and (v.is_public or v.creator_id = ${userId}::uuid)
       ${options.where}
     order by w.updated_at desc, w.video_id desc
     limit ${options.limit}
  `.execute(tx)
  return rows
}

function toHistoryItem(row: HistoryRow & { progress_duration?: string | number | null }): HistoryItem {
  return {
    ...toItem(row),
    progress: toWatchPosition({ ...row, duration_seconds: row.progress_duration ?? null }),
  }
}
