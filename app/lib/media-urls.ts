/**
 * Where a video's media lives, as URLs a browser can load. Shared by the
 * video card, the video page and the reel viewer (server and client alike).
 *
 * - HLS and MP4 renditions are served by the app itself at
 *   `/media/videos/<id>/<path>` (app/routes/_media+/media.$.tsx), which checks that
 *   the caller may see the video before streaming it from Storage — a
 *   private video's media is never reachable by URL alone.
 * - Thumbnails sit in the public `thumbnails` bucket and are loaded straight
 *   from Storage: `<SUPABASE_URL>/storage/v1/object/public/thumbnails/<path>`.
 *
 * See docs/decisions/0009-media-delivery.md.
 */

export interface VideoMediaFields {
  id: string
  hls_path?: string | null
  mp4_path?: string | null
  thumbnail_path?: string | null
  external_url?: string | null
}

export interface MediaUrls {
  /** `/media/videos/<id>/hls/master.m3u8`, or null when there is no HLS rendition (yet). */
  hlsUrl: string | null
  /** `/media/videos/<id>/video.mp4`, or null when there is no MP4 rendition (yet). */
  mp4Url: string | null
  /** The public thumbnail URL, or null. */
  posterUrl: string | null
  /** For YouTube videos: the privacy-friendly embed URL; null otherwise. */
  embedUrl: string | null
}

const MEDIA_PREFIX = 'videos/'

/** `videos/<id>/hls/master.m3u8` (a path in the `media` bucket) → `/media/videos/<id>/hls/master.m3u8`. */
export function mediaPathUrl(bucketPath: string | null | undefined): string | null {
  if (!bucketPath) return null
  const path = bucketPath.replace(/^\/+/, '')
  if (!path.startsWith(MEDIA_PREFIX) && !path.startsWith('quotes/')) return null
  return `/media/${path.split('/').map(encodeURIComponent).join('/')}`
}

/** An object of a public bucket → its public URL. `supabaseUrl` may be '' for same-origin. */
export function publicObjectUrl(
  supabaseUrl: string,
  bucket: 'thumbnails' | 'avatars',
  objectPath: string | null | undefined,
): string | null {
  if (!objectPath) return null
  const base = supabaseUrl.replace(/\/+$/, '')
  const path = objectPath.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/')
  return `${base}/storage/v1/object/public/${bucket}/${path}`
}

/** A path in the public `thumbnails` bucket (or a full URL) → its public URL. */
export function thumbnailUrl(supabaseUrl: string, thumbnailPath: string | null | undefined): string | null {
  if (thumbnailPath && /^https?:\/\//i.test(thumbnailPath)) return thumbnailPath
  return publicObjectUrl(supabaseUrl, 'thumbnails', thumbnailPath)
}

/** The widths a card's image is offered at: a phone's card at 1.75–3× and a desktop's at 1–2×. */
const CARD_IMAGE_WIDTHS = [360, 540, 720, 1080] as const
const PUBLIC_OBJECT = '/storage/v1/object/public/'

export interface ResponsiveImage {
  src: string
  /** Absent when the image is not one Storage can resize (a YouTube poster, an outside URL). */
  srcSet?: string
}

/**
 * A public Storage image → the same image resized by Storage's image
 * transformations (`/storage/v1/render/image/public/…?width=`, WebP for
 * browsers that take it), at the widths a card is shown at; the browser
 * picks one by `sizes` and its pixel density. A thumbnail is a 1280×720
 * poster or whatever its creator uploaded (up to 5 MB), for a card 380 px
 * wide on a phone (ADR 0030). Any other URL is used as it is.
 */
export function responsiveImage(url: string): ResponsiveImage {
  const rendered = renderedImageBase(url)
  if (!rendered) return { src: url }
  return {
    src: `${rendered}?width=720`,
    srcSet: CARD_IMAGE_WIDTHS.map((width) => `${rendered}?width=${width} ${width}w`).join(', '),
  }
}

/**
 * A public Storage image at most `width` pixels wide (never enlarged), WebP
 * for browsers that take it — for a `<video>` poster, which has no `srcset`.
 * Any other URL is used as it is.
 */
export function resizedImage(url: string, width: number): string {
  const rendered = renderedImageBase(url)
  return rendered ? `${rendered}?width=${width}` : url
}

function renderedImageBase(url: string): string | null {
  const at = url.indexOf(PUBLIC_OBJECT)
  if (at === -1 || url.includes('?')) return null
  return `${url.slice(0, at)}/storage/v1/render/image/public/${url.slice(at + PUBLIC_OBJECT.length)}`
}

/** A path in the public `avatars` bucket → its public URL. */
export function avatarUrl(supabaseUrl: string, avatarPath: string | null | undefined): string | null {
  return publicObjectUrl(supabaseUrl, 'avatars', avatarPath)
}

/** All the URLs of one video. */
export function mediaUrls(video: VideoMediaFields, supabaseUrl: string): MediaUrls {
  const youTubeId = video.external_url ? parseYouTubeId(video.external_url) : null
  return {
    hlsUrl: mediaPathUrl(video.hls_path),
    mp4Url: mediaPathUrl(video.mp4_path),
    posterUrl: thumbnailUrl(supabaseUrl, video.thumbnail_path) ?? (youTubeId ? youTubePosterUrl(youTubeId) : null),
    embedUrl: youTubeId ? youTubeEmbedUrl(youTubeId) : null,
  }
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/
const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
])

/**
 * The 11-character id of a YouTube link, or null for anything else:
 * `youtube.com/watch?v=<id>`, `youtu.be/<id>`, `youtube.com/shorts/<id>`,
 * `youtube.com/embed/<id>` (https or http, with or without www/m).
 */
export function parseYouTubeId(raw: string): string | null {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  if (url.username || url.password || url.port) return null
  const host = url.hostname.toLowerCase()
  const segments = url.pathname.split('/').filter(Boolean)
  let id: string | null = null
  if (host === 'youtu.be' || host === 'www.youtu.be') {
    id = segments.length === 1 ? segments[0]! : null
  } else if (YOUTUBE_HOSTS.has(host)) {
    if (segments.length === 1 && segments[0] === 'watch') id = url.searchParams.get('v')
    else if (segments.length === 2 && (segments[0] === 'shorts' || segments[0] === 'embed' || segments[0] === 'live'))
      id = segments[1]!
  }
  return id && YOUTUBE_ID.test(id) ? id : null
}

export function youTubeEmbedUrl(id: string): string {
  return `https://www.youtube-nocookie.com/embed/${id}?rel=0&modestbranding=1`
}

export function youTubePosterUrl(id: string): string {
  return `https://i.ytimg.com/vi/${id}/hqdefault.jpg`
}
