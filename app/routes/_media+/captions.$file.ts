import type { LoaderFunctionArgs } from '@remix-run/node'
import { parseMpegTs } from '../../../media/hls-subtitles'
import { getSubtitlePlaylist, getSubtitleSegment } from '~/server/caption-playlists.server'
import { getCaptionVtt } from '~/server/captions.server'
import { getSession } from '~/server/session.server'

/**
 * `/captions/<track id>.vtt` — a caption track as WebVTT for `<track>` elements and
 * players (ADR 0019), read AS THE CALLER: a private video's captions are "not found"
 * to everyone its video is hidden from. The file is written from the stored cues with
 * their text escaped (media/captions.ts), served as text/vtt that no browser sniffs
 * into anything else, never embedded by other sites, and kept only privately.
 *
 * For HLS (ADR 0026): `/captions/<track id>.m3u8?mpegts=<90 kHz>` is the track's subtitle
 * media playlist named in the composed master playlist, and `/captions/<track id>.vtt?mpegts=…`
 * its one segment, the same WebVTT with an `X-TIMESTAMP-MAP` for the video's first timestamp.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const match = /^([0-9a-fA-F-]{36})\.(vtt|m3u8)$/.exec(params.file ?? '')
  const { claims, headers: sessionHeaders } = await getSession(request, context)
  const query = new URL(request.url).searchParams
  // `?placement=reel`: the same cues, placed above a reel's title (ADR 0022).
  const placement = query.get('placement') === 'reel' ? 'reel' : undefined
  const mpegts = parseMpegTs(query.get('mpegts')) ?? undefined
  const trackId = match?.[1]
  const playlist = match?.[2] === 'm3u8'
  let body: string | null = null
  if (trackId && playlist) body = await getSubtitlePlaylist(claims, trackId, mpegts)
  else if (trackId && query.has('mpegts')) body = await getSubtitleSegment(claims, trackId, mpegts)
  else if (trackId) body = await getCaptionVtt(claims, trackId, { placement })
  const headers = new Headers({
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  })
  for (const cookie of sessionHeaders.getSetCookie()) headers.append('Set-Cookie', cookie)
  if (body === null) {
    headers.set('Content-Type', 'text/plain; charset=utf-8')
    headers.set('Cache-Control', 'no-store')
    return new Response('Not found', { status: 404, headers })
  }
  headers.set('Content-Type', playlist ? 'application/vnd.apple.mpegurl' : 'text/vtt; charset=utf-8')
  // Private: the answer depends on who asks. Briefly: a replaced track shows within a minute.
  headers.set('Cache-Control', 'private, max-age=60')
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers })
}
