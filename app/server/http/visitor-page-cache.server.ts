import type { RequestHandler, Response } from 'express'
import { createNonce } from './csp.server'

/**
 * Pages that are the same for every visitor, rendered once and then sent
 * from memory (ADR 0028: public data cached where it is safe). The welcome
 * page has no data of its own: a visitor's copy depends on nothing but the
 * build, so rendering it for each of them repeats the same work (route
 * matching, the root loader, React) to produce the same bytes.
 *
 * Safe by construction:
 * - only GET/HEAD of the listed paths exactly (no query string), and only
 *   for requests with no Cookie and no Authorization header — anyone who
 *   could be signed in, or has a flash message waiting, is rendered as
 *   before;
 * - only a 200 HTML page whose policy carries a nonce, with no Set-Cookie,
 *   is kept;
 * - every response gets a fresh nonce: the kept page is split where the
 *   nonce stood (in its scripts and in the Content-Security-Policy header)
 *   and joined with a new one, so a script injected into one response
 *   cannot reuse another's;
 * - the headers the rest of the app sets per request (request id, security
 *   headers) are set before this runs and are not kept;
 * - a kept page is rendered again after `ttlMs`, so nothing stale outlives
 *   a minute even if a page gains data later.
 */
export interface VisitorPageCacheOptions {
  paths: readonly string[]
  ttlMs?: number
  now?: () => number
}

interface Kept {
  status: number
  /** The page's own headers, each value split where the nonce stood. */
  headers: Array<[name: string, parts: string[]]>
  body: Buffer[]
  expires: number
}

export function visitorPageCache({ paths, ttlMs = 60_000, now = Date.now }: VisitorPageCacheOptions): RequestHandler {
  const cacheable = new Set(paths)
  const kept = new Map<string, Kept>()
  return (req, res, next) => {
    if (
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      !cacheable.has(req.originalUrl) ||
      req.headers.cookie !== undefined ||
      req.headers.authorization !== undefined
    ) {
      return next()
    }
    const page = kept.get(req.originalUrl)
    if (page && page.expires > now()) return send(res, page, req.method === 'HEAD')
    if (req.method === 'GET') keepWhatIsSent(res, ttlMs, now, (fresh) => kept.set(req.originalUrl, fresh))
    next()
  }
}

function send(res: Response, page: Kept, head: boolean) {
  const nonce = createNonce()
  res.status(page.status)
  for (const [name, parts] of page.headers) res.setHeader(name, parts.join(nonce))
  const nonceBytes = Buffer.from(nonce)
  const body = Buffer.concat(page.body.flatMap((part, index) => (index === 0 ? [part] : [nonceBytes, part])))
  res.setHeader('Content-Length', body.length)
  res.end(head ? undefined : body)
}

/** Watches what the page handler sends and hands it to `keep` when it is a page that may be kept. */
function keepWhatIsSent(res: Response, ttlMs: number, now: () => number, keep: (page: Kept) => void) {
  const before = new Set(res.getHeaderNames())
  const chunks: Buffer[] = []
  const write = res.write.bind(res) as (...args: unknown[]) => boolean
  const end = res.end.bind(res) as (...args: unknown[]) => Response
  const collect = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string')
      chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'))
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  }
  res.write = ((...args: unknown[]) => {
    collect(args[0], args[1])
    return write(...args)
  }) as Response['write']
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') collect(args[0], args[1])
    const page = pageToKeep(res, before, Buffer.concat(chunks), now() + ttlMs)
    if (page) keep(page)
    return end(...args)
  }) as Response['end']
}

function pageToKeep(res: Response, before: Set<string>, body: Buffer, expires: number): Kept | null {
  if (res.statusCode !== 200 || res.hasHeader('set-cookie')) return null
  if (!String(res.getHeader('content-type') ?? '').startsWith('text/html')) return null
  const policy = String(res.getHeader('content-security-policy') ?? '')
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1]
  if (!nonce) return null
  const headers: Kept['headers'] = []
  for (const name of res.getHeaderNames()) {
    if (before.has(name) || name === 'content-length') continue
    const value = res.getHeader(name)
    if (value === undefined) continue
    headers.push([name, (Array.isArray(value) ? value.join(', ') : String(value)).split(nonce)])
  }
  return { status: 200, headers, body: splitBuffer(body, Buffer.from(nonce)), expires }
}

function splitBuffer(bytes: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = []
  let start = 0
  for (let at = bytes.indexOf(separator); at !== -1; at = bytes.indexOf(separator, start)) {
    parts.push(bytes.subarray(start, at))
    start = at + separator.length
  }
  parts.push(bytes.subarray(start))
  return parts
}
