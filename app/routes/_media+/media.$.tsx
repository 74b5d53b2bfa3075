import type { LoaderFunctionArgs } from '@remix-run/node'
import { isUuid } from '~/lib/ids'
import { serveComposedMaster } from '~/server/http/hls-master.server'
import { mediaNotFound, proxyStorageObject } from '~/server/http/media-proxy.server'
import { verifyAccessToken } from '~/server/session.server'
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
 *
 * A video's master playlist (`/media/videos/<id>/hls/master.m3u8`) comes with its caption
 * tracks as subtitle renditions, added to the stored master at serve time as the caller
 * (app/server/http/hls-master.server.ts, ADR 0026); `?subtitles=none` asks for the stored
 * master as it is (the players that show the tracks as `<track>` elements).
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
  if (!parsed) return mediaNotFound()

  const url = new URL(request.url)
  // The caller's access token from the session cookies (refreshed when about to expire), verified
  // here: Storage and the caption tracks' row-level security judge it. No query of our own, as a
  // player asks for many playlists and segments (the pages check the session against the database).
  const { supabase, headers: sessionHeaders } = createSupabaseServerClient(request, context)
  const { data } = await supabase.auth.getSession()
  const token = data.session?.access_token
  const master = /^videos\/([0-9a-f-]{36})\/hls\/master\.m3u8$/.exec(parsed.objectName)
  if (master && url.searchParams.get('subtitles') !== 'none') {
    const claims = token ? await verifyAccessToken(token) : null
    return serveComposedMaster(request, {
      videoId: master[1]!,
      objectName: parsed.objectName,
      bearer: (claims && token) || supabaseSettings().anonKey,
      claims,
      setCookies: sessionHeaders.getSetCookie(),
    })
  }

  return proxyStorageObject(request, {
    route: 'authenticated/media',
    objectName: parsed.objectName,
    bearer: token ?? supabaseSettings().anonKey,
    contentType: CONTENT_TYPES[parsed.extension]!,
    cacheControl: parsed.extension === 'm3u8' ? PLAYLIST : IMMUTABLE,
    setCookies: sessionHeaders.getSetCookie(),
  })
}
