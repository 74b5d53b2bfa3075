import type { LoaderFunctionArgs } from '@remix-run/node'
import { getCaptionVtt } from '~/server/captions.server'
import { getSession } from '~/server/session.server'

/**
 * `/captions/<track id>.vtt` — a caption track as WebVTT for `<track>` elements and
 * players (issue 18), read AS THE CALLER: a private video's captions are "not found"
 * to everyone its video is hidden from. The file is written from the stored cues with
 * their text escaped (media/captions.ts), served as text/vtt that no browser sniffs
 * into anything else, never embedded by other sites, and kept only privately.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const trackId = /^([0-9a-fA-F-]{36})\.vtt$/.exec(params.file ?? '')?.[1]
  const { claims, headers: sessionHeaders } = await getSession(request, context)
  // `?placement=reel`: the same cues, placed above a reel's title (ADR 0022).
  const placement = new URL(request.url).searchParams.get('placement') === 'reel' ? 'reel' : undefined
  const vtt = trackId ? await getCaptionVtt(claims, trackId, { placement }) : null
  const headers = new Headers({
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  })
  for (const cookie of sessionHeaders.getSetCookie()) headers.append('Set-Cookie', cookie)
  if (vtt === null) {
    headers.set('Content-Type', 'text/plain; charset=utf-8')
    headers.set('Cache-Control', 'no-store')
    return new Response('Not found', { status: 404, headers })
  }
  headers.set('Content-Type', 'text/vtt; charset=utf-8')
  // Private: the answer depends on who asks. Briefly: a replaced track shows within a minute.
  headers.set('Cache-Control', 'private, max-age=60')
  return new Response(request.method === 'HEAD' ? null : vtt, { status: 200, headers })
}
