import { sql } from 'kysely'
import type { Cue } from '../media/captions'
import type { Tx } from './kysely'

/**
 * Writing a caption track (ADR 0019): one place for the app (a creator's upload, run as the
 * caller, so row-level security decides) and the media worker (an automatic track, run as the
 * service role). The track is upserted by (video, language) and its cues replaced, inside the
 * caller's transaction: nobody ever reads half a track.
 */

/** Rows per insert statement: 4 parameters each stays far below Postgres's 65,535. */
const CUE_BATCH = 2_000

export interface TrackToWrite {
  videoId: string
  language: string
  label: string
  source: 'upload' | 'automatic'
  cues: readonly Cue[]
}

/** A track as pages and the API show it (the app's `CaptionTrackView`). */
export interface WrittenTrack {
  id: string
  language: string
  label: string
  source: 'upload' | 'automatic'
  cueCount: number
  updatedAt: string
}

/** The columns a track is shown with, and the view made of them. */
export const TRACK_COLUMNS = ['id', 'language', 'label', 'source', 'cue_count', 'updated_at'] as const

export function trackView(row: {
  id: string
  language: string
  label: string
  source: string
  cue_count: number
  updated_at: string | Date
}): WrittenTrack {
  return {
    id: row.id,
    language: row.language,
    label: row.label,
    source: row.source === 'automatic' ? 'automatic' : 'upload',
    cueCount: row.cue_count,
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

export async function writeTrack(tx: Tx, track: TrackToWrite): Promise<WrittenTrack> {
  const row = await tx
    .insertInto('caption_tracks')
    .values({
      video_id: track.videoId,
      language: track.language,
      label: track.label,
      source: track.source,
      cue_count: track.cues.length,
    })
    .onConflict((conflict) =>
      conflict.columns(['video_id', 'language']).doUpdateSet({
        label: track.label,
        source: track.source,
        cue_count: track.cues.length,
      }),
    )
    .returning(TRACK_COLUMNS)
    .executeTakeFirstOrThrow()
  await tx.deleteFrom('caption_cues').where('track_id', '=', row.id).execute()
  for (let start = 0; start < track.cues.length; start += CUE_BATCH) {
    const batch = track.cues.slice(start, start + CUE_BATCH)
    await sql`
      insert into public.caption_cues (track_id, video_id, seq, start_ms, end_ms, body)
      select ${row.id}::uuid, ${track.videoId}::uuid, ${start}::int + s.n - 1, s.start_ms, s.end_ms, s.body
        from unnest(${batch.map((cue) => cue.startMs)}::int[], ${batch.map((cue) => cue.endMs)}::int[],
                    ${batch.map((cue) => cue.text)}::text[]) with ordinality as s(start_ms, end_ms, body, n)
    `.execute(tx)
  }
  return trackView(row)
}
