import { pipeline } from 'node:stream/promises'
import { create as contentDisposition } from 'content-disposition'
import type { Request, Response } from 'express'
import parseRange from 'range-parser'
import type { ObjectRow } from './database'
import type { ObjectFiles } from './disk'
import { ERRORS } from './errors'
import { safeCacheControl } from './incoming'
import { parseMimeType } from './uploader'

/**
 * Sends an object's bytes as Storage's renderer does (`src/storage/renderer`):
 * `Accept-Ranges`, `Content-Type` (HTML served as text/plain, so a stored
 * page never runs on this origin), `ETag`, `Last-Modified`, `Cache-Control`
 * from the object (or `Expires` for a signed URL), one byte range as 206
 * with `Content-Range`, 416 for a range outside the file, 304 for a
 * matching `If-None-Match` / `If-Modified-Since`, and `?download=` as an
 * RFC 6266 attachment. The file is streamed, never read whole.
 *
 * User content shares the app's origin, so beyond Storage (ADR 0012,
 * finding 2) every object is sent with `X-Content-Type-Options: nosniff` and
 * a CSP that sandboxes it (no script, no same-origin, nothing loaded), and
 * anything but a raster image, video, audio or HLS playlist is an
 * attachment — an SVG or a PDF never renders as a page of this origin.
 */
export interface SendOptions {
  /** `?download=` (empty: keep the object's own file name). */
  download?: string
  /** For signed URLs: the token's expiry replaces the object's Cache-Control. */
  expires?: Date
}

export async function sendObject(req: Request, res: Response, files: ObjectFiles, object: ObjectRow, options: SendOptions) {
  if (!object.version) throw ERRORS.noSuchKey()
  const stats = await files.stat(object.bucket_id, object.version)
  const size = stats.size
  const metadata = object.metadata
  const eTag = metadata?.eTag ?? `"${object.version}"`
  const lastModified = lastModifiedOf(object)

  setUserContentHeaders(res)
  res.setHeader('Accept-Ranges', 'bytes')
  res.setHeader('ETag', eTag)
  res.setHeader('Last-Modified', lastModified.toUTCString())
  if (options.expires) res.setHeader('Expires', options.expires.toUTCString())
  else res.setHeader('Cache-Control', safeCacheControl(metadata?.cacheControl))

  if (notModified(req, eTag, lastModified)) {
    res.status(304).end()
    return
  }

  const contentType = servedContentType(metadata?.mimetype)
  res.setHeader('Content-Type', contentType)
  if (options.download !== undefined || !INLINE.test(contentType)) {
    const fileName = options.download || object.name.split('/').pop() || 'download'
    res.setHeader('Content-Disposition', contentDisposition(fileName, { type: 'attachment' }))
  }

  const range = requestedRange(req, size, eTag)
  if (range === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${size}`)
    res.removeHeader('Content-Disposition')
    throw ERRORS.invalidRange()
  }
  if (range) {
    res.status(206)
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    res.setHeader('Content-Length', range.end - range.start + 1)
  } else {
    res.status(200)
    res.setHeader('Content-Length', size)
  }
  if (req.method === 'HEAD' || size === 0) {
    res.end()
    return
  }
  await pipeline(files.read(object.bucket_id, object.version, range ?? undefined), res).catch((error) => {
    // The client went away mid-download: nothing to answer.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return
    throw error
  })
}

/** The object's Last-Modified, to the second (as HTTP dates are). */
export function lastModifiedOf(object: ObjectRow): Date {
  const lastModified = new Date(object.metadata?.lastModified ?? object.updated_at)
  lastModified.setMilliseconds(0)
  return lastModified
}

/** What every object of user content is sent with, whatever the route: never sniffed, nothing in it runs. */
export function setUserContentHeaders(res: Response) {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Content-Security-Policy', USER_CONTENT_CSP)
}

/** `If-None-Match` (weak or strong, or `*`) against the ETag, else `If-Modified-Since` against the date. */
export function notModified(req: Request, eTag: string, lastModified: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match']
  if (ifNoneMatch) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === eTag)
  }
  const ifModifiedSince = req.headers['if-modified-since']
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince)
    return !Number.isNaN(since) && lastModified.getTime() <= since
  }
  return false
}

/** One satisfiable range, 'unsatisfiable', or null for the whole file (no Range, a malformed or multi-part one, a stale If-Range). */
function requestedRange(req: Request, size: number, eTag: string) {
  const header = req.headers.range
  if (!header) return null
  const ifRange = req.headers['if-range']
  if (ifRange && ifRange !== eTag) return null
  const ranges = parseRange(size, header, { combine: true })
  if (ranges === -1) return 'unsatisfiable' as const
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null
  return ranges[0]!
}

/** Served to user content: nothing runs, nothing loads, no same-origin rights even when opened directly. */
export const USER_CONTENT_CSP = "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox"

/** Types a browser shows inline without running anything: raster images, video, audio, HLS. Never SVG. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif)|video\/[^;]+|audio\/[^;]+|application\/(vnd\.apple\.mpegurl|x-mpegurl))(;|$)/

/** The stored type if it is one well-formed media type (old rows may hold anything), HTML as text. */
function servedContentType(mimetype: string | undefined): string {
  let value: string
  try {
    value = parseMimeType(mimetype ?? '').value
  } catch {
    return 'application/octet-stream'
  }
  return value.startsWith('text/html') || value.startsWith('application/xhtml') ? 'text/plain' : value
}
