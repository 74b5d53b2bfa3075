import { sql } from 'kysely'
import { TRACK_COLUMNS, trackView, writeTrack } from '../../db/caption-tracks'
import { CaptionFileError, parseCaptionFile, toWebVtt, type Cue } from '../../media/captions'
import {
  captionTrackUrl,
  pageCaptionTrack,
  type CaptionTrackView,
  type CueView,
  type PageCaptionTrack,
} from '~/lib/caption-types'
import { isUuid } from '~/lib/ids'
import { CAPTION_FORM_MESSAGES, captionTrackSchema, languageName } from '~/lib/schemas/captions'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError, isPermissionError } from './errors.server'
import { allowed, visibleVideo } from './permissions.server'

/**
 * Caption tracks (ADR 0019), as the caller: row-level security shows a video's
 * tracks exactly when the video is visible, and lets only its creator or an admin
 * add, replace or delete one (`public.can_edit_captions`, asked here too for the
 * page's controls). A track's cues are rows; the WebVTT is written from them.
 */

const videoNotFound = () => new DomainError('not_found', VIDEO_MESSAGES.notFound)
const trackNotFound = () => new DomainError('not_found', CAPTION_FORM_MESSAGES.trackNotFound)

export interface VideoCaptions {
  tracks: CaptionTrackView[]
  canEdit: boolean
}

/** The tracks of a visible video, by label (empty for a hidden one), and whether the caller may change them. */
export async function listCaptionTracks(claims: JwtClaims | null, videoId: string): Promise<VideoCaptions> {
  if (!isUuid(videoId)) return { tracks: [], canEdit: false }
  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, videoId))) return { tracks: [], canEdit: false }
    const rows = await tx
      .selectFrom('caption_tracks')
      .select(TRACK_COLUMNS)
      .where('video_id', '=', videoId)
      .orderBy('label')
      .execute()
    const canEdit = claims ? await allowed(tx, sql<boolean>`public.can_edit_captions(${videoId}::uuid)`) : false
    return {
      tracks: rows.map(trackView),
      canEdit,
    }
  })
}

/** A visible track's cues in time order, or null when the track is unknown or its video hidden. */
export async function getCaptionCues(claims: JwtClaims | null, trackId: string): Promise<CueView[] | null> {
  if (!isUuid(trackId)) return null
  return asCaller(claims, async (tx) => {
    const track = await tx.selectFrom('caption_tracks').select(['id']).where('id', '=', trackId).executeTakeFirst()
    if (!track) return null
    return readCues(tx, trackId)
  })
}

/** A visible track as a WebVTT file, or null; `reel` places every cue above a reel's title (ADR 0022). */
export async function getCaptionVtt(
  claims: JwtClaims | null,
  trackId: string,
  options: { placement?: 'reel' } = {},
): Promise<string | null> {
  const cues = await getCaptionCues(claims, trackId)
  return cues && toWebVtt(cues, options.placement === 'reel' ? { settings: REEL_CUE_SETTINGS } : {})
}

/**
 * Reels: the cue's top at 58 % of the height, 70 % wide and centred — below the
 * previous/next buttons (centred at 50 %, on the right), above the creator, title and
 * description at the bottom, clear of the buttons on the right.
 */
export const REEL_CUE_SETTINGS = 'line:58% position:50% size:70% align:center'

export interface SaveCaptionTrackInput {
  videoId: string
  language: unknown
  label: unknown
  file: { bytes: Uint8Array; name: string } | null
}

/**
 * Adds a track, or replaces the one in the same language: the file is parsed first, then the
 * track and all its cues are written in one transaction, so a refused file changes nothing.
 */
export async function saveCaptionTrack(claims: JwtClaims | null, input: SaveCaptionTrackInput): Promise<CaptionTrackView> {
  if (!claims) throw new DomainError('unauthenticated', CAPTION_FORM_MESSAGES.loginToEdit)
  if (!isUuid(input.videoId)) throw videoNotFound()
  const parsed = captionTrackSchema.safeParse({ language: input.language, label: input.label || undefined })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new DomainError('invalid', issue?.message ?? CAPTION_FORM_MESSAGES.languageInvalid, {
      [String(issue?.path[0] ?? 'language')]: issue?.message,
    })
  }
  if (!input.file || input.file.bytes.byteLength === 0) {
    throw new DomainError('invalid', CAPTION_FORM_MESSAGES.fileRequired, { file: CAPTION_FORM_MESSAGES.fileRequired })
  }
  let cues: Cue[]
  try {
    cues = await parseCaptionFile(input.file.bytes, input.file.name)
  } catch (error) {
    if (error instanceof CaptionFileError) throw new DomainError('invalid', error.message, { file: error.message })
    throw error
  }
  const { language } = parsed.data
  const label = parsed.data.label || languageName(language)

  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, input.videoId))) throw videoNotFound()
    if (!(await allowed(tx, sql<boolean>`public.can_edit_captions(${input.videoId}::uuid)`))) {
      throw new DomainError('forbidden', CAPTION_FORM_MESSAGES.notYourVideo)
    }
    try {
      return await writeTrack(tx, { videoId: input.videoId, language, label, source: 'upload', cues })
    } catch (error) {
      if (isPermissionError(error)) throw new DomainError('forbidden', CAPTION_FORM_MESSAGES.notYourVideo)
      if ((error as { code?: string }).code === '23514' && /at most 20/.test(String((error as Error).message))) {
        throw new DomainError('conflict', CAPTION_FORM_MESSAGES.tooManyTracks)
      }
      throw error
    }
  })
}

/** Deletes a track and its cues; 404 when it is not visible, 403 when the caller may not. */
export async function deleteCaptionTrack(claims: JwtClaims | null, trackId: string): Promise<{ videoId: string }> {
  if (!claims) throw new DomainError('unauthenticated', CAPTION_FORM_MESSAGES.loginToEdit)
  if (!isUuid(trackId)) throw trackNotFound()
  return asCaller(claims, async (tx) => {
    const track = await tx.selectFrom('caption_tracks').select(['video_id']).where('id', '=', trackId).executeTakeFirst()
    if (!track) throw trackNotFound()
    const deleted = await tx.deleteFrom('caption_tracks').where('id', '=', trackId).returning(['video_id']).executeTakeFirst()
    if (!deleted) throw new DomainError('forbidden', CAPTION_FORM_MESSAGES.notYourVideo)
    return { videoId: deleted.video_id }
  })
}

async function readCues(tx: Tx, trackId: string): Promise<CueView[]> {
  const rows = await tx
    .selectFrom('caption_cues')
    .select(['start_ms', 'end_ms', 'body'])
    .where('track_id', '=', trackId)
    .orderBy('seq')
    .execute()
  return rows.map((row) => ({ startMs: row.start_ms, endMs: row.end_ms, text: row.body }))
}

export interface VideoPageCaptions {
  tracks: PageCaptionTrack[]
  /** The transcript shown beside the player: the English track when there is one, else the first. */
  transcript: { trackId: string; label: string; cues: CueView[] } | null
  canEdit: boolean
  /** The viewer asked for captions on by default (their profile). */
  captionsOn: boolean
}

/** What the video page needs of a video's captions: the player's tracks and one transcript. */
export async function getVideoPageCaptions(claims: JwtClaims | null, videoId: string): Promise<VideoPageCaptions> {
  const { tracks, canEdit } = await listCaptionTracks(claims, videoId)
  const chosen = tracks.find((track) => track.language === 'en' || track.language.startsWith('en-')) ?? tracks[0]
  const cues = chosen ? await getCaptionCues(claims, chosen.id) : null
  const captionsOn = tracks.length > 0 ? await captionsOnByDefault(claims) : false
  return {
    tracks: tracks.map(pageCaptionTrack),
    transcript: chosen && cues ? { trackId: chosen.id, label: chosen.label, cues } : null,
    canEdit,
    captionsOn,
  }
}

/** Whether the caller asked for captions on by default (profile setting; private, read through its function). */
export async function captionsOnByDefault(claims: JwtClaims | null): Promise<boolean> {
  if (!claims) return false
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<{ on: boolean }>`select public.profile_captions_on() as on`.execute(tx)
    return rows[0]?.on === true
  })
}

export interface PlayerTrack {
  src: string
  language: string
  label: string
}

/**
 * The caption tracks of several visible videos at once (the reel viewer's window), by video
 * id, English first. `placement: 'reel'` asks for WebVTT whose cues sit above the reel's
 * title and clear of its buttons (see app/routes/_media+/captions.$file.ts).
 */
export async function listPlayerTracks(
  claims: JwtClaims | null,
  videoIds: readonly string[],
  options: { placement?: 'reel' } = {},
): Promise<Record<string, PlayerTrack[]>> {
  const ids = videoIds.filter(isUuid)
  if (ids.length === 0) return {}
  const rows = await asCaller(claims, (tx) =>
    tx
      .selectFrom('caption_tracks')
      .select(['id', 'video_id', 'language', 'label'])
      .where('video_id', 'in', ids)
      .orderBy('video_id')
      .orderBy(sql`language = 'en' or language like 'en-%'`, 'desc')
      .orderBy('label')
      .execute(),
  )
  const byVideo: Record<string, PlayerTrack[]> = {}
  for (const row of rows) {
    const src = options.placement ? `${captionTrackUrl(row.id)}?placement=${options.placement}` : captionTrackUrl(row.id)
    ;(byVideo[row.video_id] ??= []).push({ src, language: row.language, label: row.label })
  }
  return byVideo
}
