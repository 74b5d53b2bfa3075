import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib'
import type { RequestHandler, Response } from 'express'

/**
 * Pages and their data compressed on the way out (brotli, or gzip for older
 * browsers): a feed page is 20–40 KB of HTML that compresses to about a
 * quarter, and on a phone link every kilobyte before the first card's image
 * delays what the visitor sees first (ADR 0030).
 *
 * Only the responses a page is made of: HTML documents, Remix's data
 * (`.data`, `text/x-script`) and its route manifest (`/__manifest`, the
 * same for everyone). Never a response that carries a credential —
 * `/auth/token` and the JSON API answer `application/json` and are sent as
 * they are, so a page that reflects input (a search) is never compressed
 * alongside a secret (BREACH; ADR 0030). Media is compressed already and is
 * streamed through untouched; the build's scripts and styles are compressed
 * once each (ADR 0027).
 *
 * A page is collected whole and compressed in one call (brotli quality 4,
 * ~0.2 ms for a feed page here). A compressing stream per response — the
 * `compression` package — cost 3–4 ms of CPU per page in the SSR bench: it
 * sets up an encoder and a thread-pool round trip for each of the many small
 * pieces React writes.
 */
const PAGE_TYPES = /^(?:text\/html|text\/x-script)\b/i
/** Remix's lazy route discovery: which routes exist, as JSON; no one's data. */
const ROUTE_MANIFEST = '/__manifest'
const MIN_BYTES = 1024
/** Above this a page is compressed off the main thread; below, the hop would cost more than the work. */
const SYNC_MAX_BYTES = 256 * 1024
const BROTLI_QUALITY = 4

type Encoding = 'br' | 'gzip'
type Callback = (error?: Error | null) => void

export function pageCompression(): RequestHandler {
  return (req, res, next) => {
    const encoding = acceptedEncoding(req.headers['accept-encoding'])
    if (!encoding || req.method === 'HEAD') return next()
    const write = res.write.bind(res) as (...args: unknown[]) => boolean
    const end = res.end.bind(res) as (...args: unknown[]) => Response
    const chunks: Buffer[] = []
    let collecting: boolean | undefined

    /** Decided once, at the first byte: by then the page's headers are set. */
    const collect = () => {
      if (collecting === undefined) {
        collecting =
          !res.headersSent &&
          (PAGE_TYPES.test(String(res.getHeader('Content-Type') ?? '')) || req.path === ROUTE_MANIFEST) &&
          !res.hasHeader('Content-Encoding')
        if (!collecting) {
          res.write = write as Response['write']
          res.end = end as Response['end']
        }
      }
      return collecting
    }

    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (!collect()) return write(chunk, ...rest)
      chunks.push(toBuffer(chunk, rest[0]))
      const callback = rest.find((arg) => typeof arg === 'function') as Callback | undefined
      if (callback) process.nextTick(callback)
      return true
    }) as Response['write']

    res.end = ((...args: unknown[]) => {
      const callback = args.find((arg) => typeof arg === 'function') as Callback | undefined
      const chunk = typeof args[0] === 'function' ? undefined : args[0]
      if (!collect()) return end(...args)
      if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, args[1]))
      const body = Buffer.concat(chunks)
      if (body.length < MIN_BYTES || res.statusCode === 204 || res.statusCode === 304) {
        if (body.length) res.setHeader('Content-Length', body.length)
        return end(body, callback)
      }
      const send = (compressed: Buffer) => {
        res.setHeader('Content-Encoding', encoding)
        res.setHeader('Content-Length', compressed.length)
        addVary(res)
        end(compressed, callback)
      }
      if (body.length <= SYNC_MAX_BYTES) send(compressSync(body, encoding))
      else
        compressAsync(body, encoding, (error, compressed) => {
          if (error) res.destroy(error)
          else send(compressed)
        })
      return res
    }) as Response['end']

    next()
  }
}

/** brotli when the client takes it, then gzip; null for neither (or `q=0` for both). */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  const offered = new Map<string, number>()
  for (const part of String(header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined)
    offered.set(name, q === undefined ? 1 : Number(q))
  }
  const takes = (name: Encoding) => (offered.get(name) ?? offered.get('*') ?? 0) > 0
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : null
}

function brotliOptions(size: number) {
  return {
    params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: size },
  }
}

function compressSync(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, brotliOptions(body.length)) : gzipSync(body, { level: 6 })
}

function compressAsync(body: Buffer, encoding: Encoding, done: (error: Error | null, compressed: Buffer) => void) {
  if (encoding === 'br') brotliCompress(body, brotliOptions(body.length), done)
  else gzip(body, { level: 6 }, done)
}

function addVary(res: Response) {
  const vary = String(res.getHeader('Vary') ?? '')
  if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
  // A copy: the writer may reuse its buffer once `write` returns.
  return Buffer.from(chunk as Uint8Array)
}
