import { supabaseSettings } from '../supabase.server'

/**
 * Streams one Storage object to the caller, passing byte ranges and
 * validators through (Range, If-None-Match, If-Modified-Since, If-Range) and
 * the answer (200, 206, 304, 416) and its headers back; the body is
 * streamed, never buffered. `bearer` decides who Storage serves: the
 * caller's access token, or the anon key for a visitor — Storage's select
 * policy (`public.can_read_media`) has the last word. Used by /media/* (the
 * pages' players) and /api/videos/:id/stream and /thumbnail.
 * See docs/decisions/0009-media-delivery.md.
 */
const PASSED_REQUEST_HEADERS = ['range', 'if-none-match', 'if-modified-since', 'if-range']
const PASSED_RESPONSE_HEADERS = ['content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']

export interface StorageProxyOptions {
  /** `authenticated/media` (as `bearer`) or `public/thumbnails`. */
  route: 'authenticated/media' | 'public/thumbnails'
  objectName: string
  bearer: string
  contentType: string
  cacheControl: string
  /** Set-Cookie lines to pass on (the pages' refreshed session). */
  setCookies?: string[]
}

export async function proxyStorageObject(request: Request, options: StorageProxyOptions): Promise<Response> {
  const settings = supabaseSettings()
  const upstreamHeaders = new Headers({
    Authorization: `Bearer ${options.bearer}`,
    apikey: settings.anonKey,
    'Accept-Encoding': 'identity',
  })
  for (const name of PASSED_REQUEST_HEADERS) {
    const value = request.headers.get(name)
    if (value) upstreamHeaders.set(name, value)
  }
  const objectUrl = `${settings.url.replace(/\/+$/, '')}/storage/v1/object/${options.route}/${options.objectName
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
    console.warn(
      `[media] storage unreachable for ${options.objectName}: ${error instanceof Error ? error.message : String(error)}`,
    )
    return unavailable()
  }

  const headers = new Headers()
  for (const cookie of options.setCookies ?? []) headers.append('Set-Cookie', cookie)
  for (const name of PASSED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name)
    if (value) headers.set(name, value)
  }
  headers.set('Cache-Control', options.cacheControl)
  // Other sites may not embed our media (a private video's bytes through someone's cookies).
  headers.set('Cross-Origin-Resource-Policy', 'same-origin')

  if (upstream.status === 200 || upstream.status === 206 || upstream.status === 304) {
    if (upstream.status !== 304) headers.set('Content-Type', options.contentType)
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
  if (upstream.status >= 500) return unavailable()
  // Hidden, missing, or a token Storage refused: all the same "not found" to the caller.
  return mediaNotFound(options.setCookies)
}

export function mediaNotFound(setCookies: string[] = [], message = 'Not found') {
  const headers = new Headers({ 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8' })
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie)
  return new Response(message, { status: 404, headers })
}

function unavailable() {
  return new Response('Media temporarily unavailable', { status: 502, headers: { 'Cache-Control': 'no-store' } })
}
