import type { LoaderFunctionArgs } from '@remix-run/node'
import { isUuid } from '~/lib/ids'
import { createSupabaseServerClient, supabaseSettings } from '~/server/supabase.server'

/**
 * The one place video and quote media is served from:
 * `/media/videos/<video id>/<path>` and `/media/quotes/<quote id>/<path>`
 * (objects of the private bucket `media`, written by the media worker).
 *
 * The request goes on to Storage's `/object/authenticated/media/…` AS THE
 * CALLER — their access token from the session cookies, or the anon key for
 * a visitor — so Storage's select policy on `storage.objects`
 * (`public.can_read_media`, which asks the videos and quotes policies)
 * decides whether they may see it: a private video's media is "not found"
 * for everyone but its creator and admins, and nothing here can get that
 * wrong. Byte ranges, `If-None-Match` and `If-Range` are passed through, the
 * answer (200, 206, 304, 416) and its headers passed back; the body is
 * streamed, never buffered. See docs/decisions/0009-media-delivery.md.
 */

const KINDS = new Set(['videos', 'quotes'])
/** One path segment of a rendition: letters, digits, `_`, `-`, `.` — never starting with a dot. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/
const MAX_DEPTH = 4

const CONTENT_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
  jpg: 'image/jpeg',
}

/**
 * Renditions never change in place: a video's objects are named by its id
 * and written once by the worker (re-processing would write a new video).
 * So segments and MP4s may be kept a year; playlists briefly, in case a
 * future live or re-published rendition rewrites them. Always `private`:
 * the answer depends on who asks, and a shared cache must never keep a
 * private video's bytes.
 */
const IMMUTABLE = 'private, max-age=31536000, immutable'
const PLAYLIST = 'private, max-age=60'

const PASSED_REQUEST_HEADERS = ['range', 'if-none-match', 'if-modified-since', 'if-range']
const PASSED_RESPONSE_HEADERS = ['content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']

/** `videos/<uuid>/hls/360p/segment_000.ts` → its parts, or null for anything else (traversal included). */
export function parseMediaPath(pathname: string): { objectName: string; extension: string } | null {
  const raw = pathname.replace(/^\/media\//, '')
  if (raw === pathname) return null
  const parts: string[] = []
  for (const encoded of raw.split('/')) {
    let part: string
    try {
      part = decodeURIComponent(encoded)
    } catch {
      return null
    }
    parts.push(part)
  }
  const [kind, id, ...rest] = parts
  if (!kind || !KINDS.has(kind) || !id || !isUuid(id)) return null
  if (rest.length < 1 || rest.length > MAX_DEPTH) return null
  if (!rest.every((part) => SEGMENT.test(part) && !part.includes('..'))) return null
  const extension = rest.at(-1)!.split('.').pop()!.toLowerCase()
  if (!CONTENT_TYPES[extension] || !rest.at(-1)!.includes('.')) return null
  return { objectName: [kind, id.toLowerCase(), ...rest].join('/'), extension }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const parsed = parseMediaPath(new URL(request.url).pathname)
  if (!parsed) return notFound()

  const { supabase, headers: sessionHeaders } = createSupabaseServerClient(request, context)
  const { data } = await supabase.auth.getSession()
  const settings = supabaseSettings()
  const bearer = data.session?.access_token ?? settings.anonKey

  const upstreamHeaders = new Headers({
    Authorization: `Bearer ${bearer}`,
    apikey: settings.anonKey,
    'Accept-Encoding': 'identity',
  })
  for (const name of PASSED_REQUEST_HEADERS) {
    const value = request.headers.get(name)
    if (value) upstreamHeaders.set(name, value)
  }
  const objectUrl = `${settings.url.replace(/\/+$/, '')}/storage/v1/object/authenticated/media/${parsed.objectName
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`

  let upstream: Response
  try {
    upstream = await fetch(objectUrl, {
      method: request.method === 'HEAD' ? 'HEAD' : 'GET',
      headers: upstreamHeaders,
      signal: request.signal,
    })
  } catch (error) {
    if (request.signal.aborted) return new Response(null, { status: 499 })
    console.warn(`[media] storage unreachable for ${parsed.objectName}: ${error instanceof Error ? error.message : String(error)}`)
    return new Response('Media temporarily unavailable', { status: 502, headers: { 'Cache-Control': 'no-store' } })
  }

  const headers = new Headers()
  for (const cookie of sessionHeaders.getSetCookie()) headers.append('Set-Cookie', cookie)
  for (const name of PASSED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name)
    if (value) headers.set(name, value)
  }
  headers.set('Cache-Control', parsed.extension === 'm3u8' ? PLAYLIST : IMMUTABLE)
  // Other sites may not embed our media (a private video's bytes through someone's cookies).
  headers.set('Cross-Origin-Resource-Policy', 'same-origin')

  if (upstream.status === 200 || upstream.status === 206 || upstream.status === 304) {
    if (upstream.status !== 304) headers.set('Content-Type', CONTENT_TYPES[parsed.extension]!)
    return new Response(upstream.status === 304 || request.method === 'HEAD' ? null : upstream.body, {
      status: upstream.status,
      headers,
    })
  }
  await upstream.body?.cancel()
  if (upstream.status === 416) {
    headers.set('Cache-Control', 'no-store')
    return new Response(null, { status: 416, headers })
  }
  if (upstream.status >= 500) {
    return new Response('Media temporarily unavailable', { status: 502, headers: { 'Cache-Control': 'no-store' } })
  }
  // Hidden, missing, or a token Storage refused: all the same "not found" to the caller.
  return notFound(sessionHeaders)
}

function notFound(sessionHeaders?: Headers) {
  const headers = new Headers({ 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8' })
  for (const cookie of sessionHeaders?.getSetCookie() ?? []) headers.append('Set-Cookie', cookie)
  return new Response('Not found', { status: 404, headers })
}
