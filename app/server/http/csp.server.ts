import { randomBytes } from 'node:crypto'

/** A fresh nonce for one HTML response's scripts. */
export function createNonce(): string {
  return randomBytes(16).toString('base64')
}

/**
 * The app's Content-Security-Policy: only our own scripts, each carrying the
 * response's nonce ('strict-dynamic' lets them load the route modules they
 * import); no plugins, no framing of our pages, forms post only to us. Media
 * and images come from our origin and Storage (`storageOrigin`, the same in
 * embedded mode), YouTube embeds and posters from YouTube's privacy-friendly
 * hosts; hls.js plays from blob: URLs and runs its worker from one, and gives
 * the `<track>` elements it makes for a master's subtitle renditions the empty
 * `data:,WEBVTT` (their cues come from our /captions, ADR 0026). Style
 * attributes stay allowed (a progress bar's width), scripts never inline
 * without the nonce.
 */
export function contentSecurityPolicy(nonce: string, storageOrigin: string): string {
  const storage = storageOrigin ? ` ${storageOrigin}` : ''
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${storage} https://i.ytimg.com`,
    `media-src 'self' blob: data:${storage}`,
    `connect-src 'self'${storage}`,
    "font-src 'self'",
    "worker-src 'self' blob:",
    'frame-src https://www.youtube-nocookie.com',
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}
