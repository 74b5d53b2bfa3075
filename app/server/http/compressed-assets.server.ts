import { readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { RequestHandler } from 'express'
import { acceptedEncoding } from './page-compression.server'

/**
 * The build's scripts and styles compressed (brotli, or gzip for older
 * browsers), each file once, on its first request, then kept in memory —
 * the bundles are fixed for the life of the process (their names carry a
 * hash). A first visit on a phone link loads about a megabyte of JavaScript
 * uncompressed and a third of that compressed (ADR 0027). Pages
 * and media are not compressed here: pages cost CPU on every request, media
 * is compressed already. Anything else (a range, an unknown file, a client
 * that takes neither encoding) falls through to `express.static`. Only the
 * files the build holds when the server starts are compressed and kept, so
 * requests for made-up names cannot grow the cache.
 */
const COMPRESSIBLE: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
}
const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

interface Encoded {
  br: Buffer
  gzip: Buffer
}

export function compressedAssets(assetsDir: string, maxAge = 31_536_000): RequestHandler {
  const cache = new Map<string, Promise<Encoded | null>>()
  const built = new Set(builtFiles(assetsDir))
  const encode = (file: string) => {
    let entry = cache.get(file)
    if (!entry) {
      entry = readFile(path.join(assetsDir, file)).then(
        async (bytes) => ({
          br: await brotli(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          }),
          gzip: await gzipped(bytes, { level: 9 }),
        }),
        () => null,
      )
      cache.set(file, entry)
    }
    return entry
  }
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.range) return next()
    const file = builtName(req.path)
    const type = file === null ? undefined : COMPRESSIBLE[path.posix.extname(file)]
    if (file === null || !type || !built.has(file)) return next()
    const encoding = acceptedEncoding(req.headers['accept-encoding'])
    if (!encoding) return next()
    encode(file)
      .then((encoded) => {
        if (!encoded) return next()
        const body = encoded[encoding]
        res.setHeader('Content-Type', type)
        res.setHeader('Content-Encoding', encoding)
        res.setHeader('Vary', 'Accept-Encoding')
        res.setHeader('Cache-Control', `public, max-age=${maxAge}, immutable`)
        res.setHeader('Content-Length', body.length)
        res.end(req.method === 'HEAD' ? undefined : body)
      })
      .catch(next)
  }
}

/** The files under `dir`, as paths relative to it with `/` separators; none when it does not exist. */
function builtFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) =>
        path
          .relative(dir, path.join(entry.parentPath ?? entry.path, entry.name))
          .split(path.sep)
          .join('/'),
      )
  } catch {
    return []
  }
}

/** The asset a request path names (matched against the build's files), or null for a malformed escape. */
function builtName(requestPath: string): string | null {
  try {
    return path.posix.normalize(decodeURIComponent(requestPath)).replace(/^\/+/, '')
  } catch {
    return null
  }
}
