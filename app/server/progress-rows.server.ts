import { sql } from 'kysely'
import type { WatchPosition } from '~/lib/schemas/progress'
import type { Tx } from './db.server'

/**
 * Reading `public.watch_progress` rows (ADR 0034), shared by the lists (the
 * cards' progress bars) and app/server/progress.server.ts. Always as the
 * caller: row-level security shows a learner their own rows only.
 */
export interface ProgressRow {
  video_id: string
  position_seconds: string | number
  duration_seconds: string | number | null
  finished: boolean
  updated_at: string | Date
}

export function toWatchPosition(row: ProgressRow): WatchPosition {
  return {
    positionSeconds: Number(row.position_seconds),
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    finished: row.finished,
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** The caller's positions in these videos, by video id (nothing for visitors). */
export async function positionsFor(
  tx: Tx,
  viewerId: string | null,
  videoIds: readonly string[],
): Promise<Map<string, WatchPosition>> {
  const positions = new Map<string, WatchPosition>()
  if (!viewerId || videoIds.length === 0) return positions
  const { rows } = await sql<ProgressRow>`
    select video_id, position_seconds, duration_seconds, finished, updated_at
      from public.watch_progress
     where user_id = ${viewerId}::uuid and video_id = any (${sql.val(videoIds)}::uuid[])
  `.execute(tx)
  for (const row of rows) positions.set(row.video_id, toWatchPosition(row))
  return positions
}

/** The same items, each with the caller's position when they started it. */
export async function withProgress<T extends { id: string }>(
  tx: Tx,
  viewerId: string | null,
  items: T[],
): Promise<(T & { progress?: WatchPosition })[]> {
  const positions = await positionsFor(
    tx,
    viewerId,
    items.map((item) => item.id),
  )
  return items.map((item) => {
    const progress = positions.get(item.id)
    return progress ? { ...item, progress } : item
  })
}
