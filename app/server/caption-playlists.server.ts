import { sql } from 'kysely'
import { FFMPEG_MPEGTS_START, subtitleMediaPlaylist, withTimestampMap, type HlsSubtitleTrack } from '../../media/hls-subtitles'
import { isUuid } from '~/lib/ids'
import { getCaptionVtt } from './captions.server'
import { asCaller, type JwtClaims } from './db.server'

/**
 * Caption tracks inside HLS (ADR 0026), read AS THE CALLER like every other
 * caption read: a track of a video the caller may not see does not exist for them.
 * The master playlist composed with these tracks is served by /media (app/routes/_media+/media.$.tsx);
 * the subtitle playlists and their WebVTT segment by /captions (app/routes/_media+/captions.$file.ts).
 */

/** `/captions/<id>.m3u8?mpegts=…`: a track's subtitle media playlist, named in the composed master. */
export function subtitlePlaylistUrl(trackId: string, mpegts: number): string {
  return `/captions/${trackId}.m3u8?mpegts=${mpegts}`
}

/** `/captions/<id>.vtt?mpegts=…`: the track as one HLS WebVTT segment (with its X-TIMESTAMP-MAP). */
export function subtitleSegmentUrl(trackId: string, mpegts: number): string {
  return `/captions/${trackId}.vtt?mpegts=${mpegts}`
}

/** The caption tracks of a visible video for its master playlist, English first (none for a hidden one). */
export async function listHlsCaptionTracks(claims: JwtClaims | null, videoId: string): Promise<HlsSubtitleTrack[]> {
  if (!isUuid(videoId)) return []
  return asCaller(claims, (tx) =>
    tx
      .selectFrom('caption_tracks')
      .select(['id', 'language', 'label'])
      .where('video_id', '=', videoId)
      .orderBy(sql`language = 'en' or language like 'en-%'`, 'desc')
      .orderBy('label')
      .orderBy('language')
      .execute(),
  )
}

/**
 * A visible track's subtitle media playlist, or null: one segment as long as the video
 * (its stored duration; without one, until the last cue ends).
 */
export async function getSubtitlePlaylist(
  claims: JwtClaims | null,
  trackId: string,
  mpegts: number = FFMPEG_MPEGTS_START,
): Promise<string | null> {
  if (!isUuid(trackId)) return null
  const row = await asCaller(claims, (tx) =>
    tx
      .selectFrom('caption_tracks as t')
      .innerJoin('videos as v', 'v.id', 't.video_id')
      .select([
        'v.duration_seconds',
        sql<number | null>`(select max(c.end_ms) from public.caption_cues c where c.track_id = t.id)`.as('last_end_ms'),
      ])
      .where('t.id', '=', trackId)
      .executeTakeFirst(),
  )
  if (!row) return null
  const stored = row.duration_seconds === null ? 0 : Number(row.duration_seconds)
  const duration = stored > 0 ? stored : Math.max(1, (row.last_end_ms ?? 0) / 1000)
  return subtitleMediaPlaylist(subtitleSegmentUrl(trackId, mpegts), duration)
}

/** A visible track as an HLS WebVTT segment (X-TIMESTAMP-MAP for the video's first timestamp), or null. */
export async function getSubtitleSegment(
  claims: JwtClaims | null,
  trackId: string,
  mpegts: number = FFMPEG_MPEGTS_START,
): Promise<string | null> {
  const vtt = await getCaptionVtt(claims, trackId)
  return vtt === null ? null : withTimestampMap(vtt, mpegts)
}
