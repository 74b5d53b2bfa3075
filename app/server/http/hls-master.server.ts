import {
  composeMasterPlaylist,
  FFMPEG_MPEGTS_START,
  firstSegmentUri,
  firstVariantUri,
  firstVideoPts,
} from '../../../media/hls-subtitles'
import { listHlsCaptionTracks, subtitlePlaylistUrl } from '../caption-playlists.server'
import type { JwtClaims } from '../db.server'
import { mediaNotFound, proxyStorageObject } from './media-proxy.server'

/**
 * A video's HLS master playlist with its caption tracks (ADR 0026). The stored
 * master (written by the worker, maybe rewritten when more renditions land) is never
 * changed: it is read from Storage AS THE CALLER, the video's tracks are read as the caller
 * too, and the `#EXT-X-MEDIA:TYPE=SUBTITLES` lines are added to the answer. A video the
 * caller may not see stays "not found" (Storage says so first).
 */

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl'
/** As the stored playlists: the answer depends on who asks, and a changed track shows within a minute. */
const PLAYLIST_CACHE = 'private, max-age=60'
/** Enough of a segment's head to hold the PAT, the PMT and the first video PES header. */
const SEGMENT_HEAD_BYTES = 188 * 64

export interface ComposedMasterOptions {
  videoId: string
  /** `videos/<id>/hls/master.m3u8` */
  objectName: string
  bearer: string
  claims: JwtClaims | null
  setCookies: string[]
}

export async function serveComposedMaster(request: Request, options: ComposedMasterOptions): Promise<Response> {
  const read = (objectName: string, range?: string) =>
    proxyStorageObject(new Request(request.url, { headers: range ? { Range: range } : {}, signal: request.signal }), {
      route: 'authenticated/media',
      objectName,
      bearer: options.bearer,
      contentType: PLAYLIST_TYPE,
      cacheControl: PLAYLIST_CACHE,
    })
  // Side by side: each waits its turn for a database connection (in embedded mode the one PGlite
  // connection, where a playlist read one after the other waited twice as long under load). The
  // tracks are read as the caller, so they are nothing for a video the caller may not see, and are
  // used only when Storage served the master (until then a failure waits to be thrown below).
  const tracksRead = listHlsCaptionTracks(options.claims, options.videoId)
  tracksRead.catch(() => {})
  const stored = await read(options.objectName)
  if (stored.status !== 200) {
    await stored.body?.cancel()
    return stored.status === 404 ? mediaNotFound(options.setCookies) : withCookies(stored, options.setCookies)
  }
  const master = await stored.text()
  const tracks = await tracksRead
  let body = master
  if (tracks.length > 0) {
    const mpegts = await videoStartPts(options.videoId, options.objectName, master, read)
    body = composeMasterPlaylist(master, tracks, (track) => subtitlePlaylistUrl(track.id, mpegts))
  }
  const headers = new Headers({
    'Content-Type': PLAYLIST_TYPE,
    'Cache-Control': PLAYLIST_CACHE,
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
  })
  for (const cookie of options.setCookies) headers.append('Set-Cookie', cookie)
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers })
}

function withCookies(response: Response, setCookies: string[]): Response {
  for (const cookie of setCookies) response.headers.append('Set-Cookie', cookie)
  return response
}

/**
 * The first video timestamp of the video's first segment (90 kHz), what the subtitle
 * segments' X-TIMESTAMP-MAP must name for cues to line up with the picture: read once per
 * video (segments are written once) from the head of the first variant's first segment,
 * as the caller; ffmpeg's default start when it cannot be read.
 */
const startPts = new Map<string, number>()
const START_PTS_KEPT = 1_000

async function videoStartPts(
  videoId: string,
  masterName: string,
  master: string,
  read: (objectName: string, range?: string) => Promise<Response>,
): Promise<number> {
  const known = startPts.get(videoId)
  if (known !== undefined) return known
  let pts: number | null = null
  try {
    const variant = firstVariantUri(master)
    const variantName = variant && resolveObjectName(masterName, variant)
    if (variantName) {
      const playlist = await read(variantName)
      const segment = playlist.status === 200 ? firstSegmentUri(await playlist.text()) : null
      if (playlist.status !== 200) await playlist.body?.cancel()
      const segmentName = segment && resolveObjectName(variantName, segment)
      if (segmentName && segmentName.endsWith('.ts')) {
        const head = await read(segmentName, `bytes=0-${SEGMENT_HEAD_BYTES - 1}`)
        if (head.status === 200 || head.status === 206) pts = firstVideoPts(new Uint8Array(await head.arrayBuffer()))
        else await head.body?.cancel()
      }
    }
  } catch {
    pts = null
  }
  if (pts === null) return FFMPEG_MPEGTS_START
  if (startPts.size >= START_PTS_KEPT) startPts.delete(startPts.keys().next().value!)
  startPts.set(videoId, pts)
  return pts
}

/** A playlist's relative URI as an object name beside it (`videos/<id>/hls/` + `v0/index.m3u8`); null when it leaves the video's folder. */
export function resolveObjectName(base: string, uri: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:|^\//i.test(uri) || uri.includes('?') || uri.includes('#')) return null
  const folder = base.split('/').slice(0, -1)
  const root = folder.slice(0, 2).join('/') // videos/<id>
  for (const part of uri.split('/')) {
    if (part === '..') folder.pop()
    else if (part && part !== '.') folder.push(part)
  }
  const name = folder.join('/')
  return name.startsWith(`${root}/`) ? name : null
}
