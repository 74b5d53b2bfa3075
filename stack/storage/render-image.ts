import { createHash } from 'node:crypto'
import express, { type Request } from 'express'
import sharp from 'sharp'
import { z } from 'zod'
import type { ObjectRow } from './database'
import { lastModifiedOf, notModified, setUserContentHeaders } from './download'
import { ERRORS, StorageError } from './errors'
import { handle } from './http'
import { safeCacheControl } from './incoming'
import { publicObject } from './object-reads'
import type { StorageServices } from './uploader'

/**
 * Storage's image transformations, as hosted Supabase serves them (imgproxy
 * behind `/render/image/public/<bucket>/<name>`; supabase-js builds the URL
 * from `getPublicUrl(name, { transform })`): `width` and `height` 1–2500,
 * `resize` cover (default), contain or fill, `quality` 20–100 (default 80),
 * and the best format the client takes — WebP when its `Accept` names it,
 * the original's format otherwise or with `format=origin`. The image is
 * never enlarged, is turned upright by its EXIF orientation, and loses its
 * metadata (a phone photo's location stays with the original).
 *
 * A card's thumbnail is a 1280×720 poster or whatever the creator uploaded
 * (up to 5 MB); a phone shows it 380 px wide (ADR 0030).
 *
 * Each result is kept in memory (least recently used first out, 32 MB in
 * all) under the object's version, so a replaced thumbnail is never served
 * from the cache; the same transform asked for twice at once is made once,
 * and at most two are made at a time. Sources of other types, or larger
 * than Storage's 25 MB, are refused (400) before any decoding.
 */
const MAX_SOURCE_BYTES = 25 * 1024 * 1024
const MAX_SOURCE_PIXELS = 50_000_000
const CACHE_BYTES = 32 * 1024 * 1024
const RENDERS_AT_ONCE = 2
type Format = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif'
const SOURCE_TYPES: Record<string, Format> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
}

const dimension = z.coerce.number().int().min(1).max(2500)
const transformQuery = z.object({
  width: dimension.optional(),
  height: dimension.optional(),
  resize: z.enum(['cover', 'contain', 'fill']).default('cover'),
  quality: z.coerce.number().int().min(20).max(100).default(80),
  format: z.enum(['origin']).optional(),
})
type Transform = z.infer<typeof transformQuery>

interface Rendered {
  body: Buffer
  type: string
}

// libvips' own operation cache would hold decoded sources this module already keeps the results of.
sharp.cache(false)

export function renderImageRoutes(services: StorageServices): express.Router {
  const router = express.Router()
  const { pool, files } = services
  const cache = new RenderCache(CACHE_BYTES)
  const inFlight = new Map<string, Promise<Rendered>>()
  const slots = new Slots(RENDERS_AT_ONCE)

  router.get(
    /^\/render\/image\/public\/.+/,
    handle(async (req, res) => {
      const transform = parseTransform(req)
      const object = await publicObject(pool, req, '/render/image/public/')
      const bucket = object.bucket_id
      const source = sourceOf(object)
      const output: Format =
        transform.format === 'origin' || !/\bimage\/webp\b/.test(req.headers.accept ?? '') ? source.format : 'webp'
      const key = `${bucket}/${source.version}/${transform.width ?? ''}x${transform.height ?? ''}/${transform.resize}/${transform.quality}/${output}`
      const eTag = `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`

      const lastModified = lastModifiedOf(object)
      setUserContentHeaders(res)
      res.setHeader('Vary', 'Accept')
      res.setHeader('ETag', eTag)
      res.setHeader('Last-Modified', lastModified.toUTCString())
      res.setHeader('Cache-Control', safeCacheControl(object.metadata?.cacheControl))
      if (notModified(req, eTag, lastModified)) {
        res.status(304).end()
        return
      }

      let rendered = cache.get(key)
      if (!rendered) {
        let pending = inFlight.get(key)
        if (!pending) {
          pending = slots
            .run(() => render(files.pathOf(bucket, source.version), transform, output))
            .finally(() => inFlight.delete(key))
          inFlight.set(key, pending)
        }
        rendered = await pending
        cache.set(key, rendered)
      }
      res.status(200)
      res.setHeader('Content-Type', rendered.type)
      res.setHeader('Content-Length', rendered.body.length)
      res.end(rendered.body)
    }),
  )

  return router
}

function parseTransform(req: Request): Transform {
  const result = transformQuery.safeParse(req.query)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  throw ERRORS.invalidRequest(`querystring/${issue?.path.join('/') ?? ''} ${issue?.message ?? 'is invalid'}`)
}

function sourceOf(object: ObjectRow): { version: string; format: Format } {
  if (!object.version) throw ERRORS.noSuchKey()
  const format = SOURCE_TYPES[(object.metadata?.mimetype ?? '').split(';')[0]!.trim().toLowerCase()]
  if (!format) throw ERRORS.invalidRequest('Source is not an image that can be transformed')
  if ((object.metadata?.size ?? 0) > MAX_SOURCE_BYTES) throw ERRORS.invalidRequest('Source image is too large to transform')
  return { version: object.version, format }
}

async function render(file: string, transform: Transform, output: Format): Promise<Rendered> {
  try {
    const image = sharp(file, { limitInputPixels: MAX_SOURCE_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: transform.width, height: transform.height, fit: transform.resize, withoutEnlargement: true })
    const body = await image.toFormat(output, { quality: transform.quality }).toBuffer()
    return { body, type: `image/${output}` }
  } catch (error) {
    // The stored bytes are not the image their type claims (or are too large to decode): the client's problem, not a 500.
    throw new StorageError(400, 'InvalidRequest', 'Source image could not be transformed', undefined, undefined, error)
  }
}

/** Results by key, the least recently used dropped first once their bytes pass the budget. */
class RenderCache {
  private readonly entries = new Map<string, Rendered>()
  private bytes = 0
  constructor(private readonly budget: number) {}

  get(key: string): Rendered | undefined {
    const entry = this.entries.get(key)
    if (entry) {
      this.entries.delete(key)
      this.entries.set(key, entry)
    }
    return entry
  }

  set(key: string, value: Rendered) {
    if (value.body.length > this.budget / 8 || this.entries.has(key)) return
    this.entries.set(key, value)
    this.bytes += value.body.length
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budget) break
      this.entries.delete(oldest)
      this.bytes -= entry.body.length
    }
  }
}

/** At most `size` pieces of work at a time; the rest wait their turn. */
class Slots {
  private running = 0
  private readonly waiting: Array<() => void> = []
  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else this.running++
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }
}
