import { randomBytes, randomUUID } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'
import { createSignedInUser, type TestUser } from '../../support/tokens'

/**
 * Storage's image transformations (`/render/image/public/…`, ADR 0030), the
 * URLs supabase-js builds with `getPublicUrl(name, { transform })`: the size
 * asked for, never enlarged; WebP for a browser that takes it; the headers
 * user content gets; conditional requests; a replaced image never served
 * from the cache; and every bad request refused with Storage's error body.
 */
announceSkippedRealSupabase()

const WEBP_BROWSER = { Accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8' }

/** A 1280×720 JPEG of one colour, with an EXIF orientation of 6 (shot turned) and a comment that must not leak. */
function poster(colour: { r: number; g: number; b: number }) {
  return sharp({ create: { width: 1280, height: 720, channels: 3, background: colour } })
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { ImageDescription: 'taken at home, 51.5N 0.1W' } })
    .jpeg({ quality: 90 })
    .toBuffer()
}

async function imageOf(response: Response) {
  const bytes = Buffer.from(await response.arrayBuffer())
  const metadata = await sharp(bytes).metadata()
  const { dominant } = await sharp(bytes).stats()
  return { bytes, metadata, dominant }
}

describe.each(targetNames)('storage image transformations on %s', (targetName) => {
  let target: ContractTarget
  let admin: SupabaseClient
  let alice: TestUser
  let bucket: string
  let name: string

  const transformed = (options: Record<string, number | string>, object = name) =>
    clientFor(target)
      .storage.from(bucket)
      .getPublicUrl(object, { transform: options as { width?: number } }).data.publicUrl

  beforeAll(async () => {
    target = await openTarget(targetName)
    admin = clientFor(target, 'service')
    alice = await createSignedInUser(target, 'renderer')
    // A public bucket of its own, that takes any type (the app's `avatars` takes only images).
    bucket = `render-${randomUUID().slice(0, 8)}`
    expect((await admin.storage.createBucket(bucket, { public: true })).error).toBeNull()
    name = `${alice.id}/poster.jpg`
    const uploaded = await admin.storage
      .from(bucket)
      .upload(name, await poster({ r: 200, g: 30, b: 30 }), { contentType: 'image/jpeg', cacheControl: '3600' })
    expect(uploaded.error).toBeNull()
  })

  afterAll(async () => {
    await target?.close()
  })

  it('sends the image at the width asked, as WebP to a browser that takes it, upright and without its metadata', async () => {
    const url = transformed({ width: 360 })
    expect(url).toContain(`/storage/v1/render/image/public/${bucket}/`)
    const response = await fetch(url, { headers: WEBP_BROWSER })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/webp')
    expect(response.headers.get('vary')).toMatch(/Accept/)
    expect(response.headers.get('cache-control')).toBe('max-age=3600')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toContain('sandbox')
    const { bytes, metadata, dominant } = await imageOf(response)
    // Orientation 6 turns the 1280×720 shot to 720×1280; 360 wide keeps that ratio.
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 360, 640])
    expect(metadata.exif).toBeUndefined()
    expect(metadata.orientation).toBeUndefined()
    expect(dominant.r).toBeGreaterThan(150)
    expect(bytes.length).toBeLessThan(10_000)
  })

  it("keeps the source's format for a browser without WebP, or when asked with format=origin", async () => {
    const plain = await fetch(transformed({ width: 200 }), { headers: { Accept: 'image/*' } })
    expect(plain.headers.get('content-type')).toBe('image/jpeg')
    expect((await imageOf(plain)).metadata).toMatchObject({ format: 'jpeg', width: 200 })

    const origin = await fetch(transformed({ width: 200, format: 'origin' }), { headers: WEBP_BROWSER })
    expect(origin.headers.get('content-type')).toBe('image/jpeg')
  })

  it('fills both dimensions with resize=cover, fits inside them with contain, and never enlarges', async () => {
    const cover = await imageOf(await fetch(transformed({ width: 300, height: 300 }), { headers: WEBP_BROWSER }))
    expect([cover.metadata.width, cover.metadata.height]).toEqual([300, 300])
    const contain = await imageOf(
      await fetch(transformed({ width: 300, height: 300, resize: 'contain' }), { headers: WEBP_BROWSER }),
    )
    expect([contain.metadata.width, contain.metadata.height]).toEqual([300, 300])
    const large = await imageOf(await fetch(transformed({ width: 2500 }), { headers: WEBP_BROWSER }))
    expect([large.metadata.width, large.metadata.height]).toEqual([720, 1280])
  })

  it('answers 304 to a matching If-None-Match, and sends a replaced image, never the old one from its cache', async () => {
    const url = transformed({ width: 120 })
    const first = await fetch(url, { headers: WEBP_BROWSER })
    const eTag = first.headers.get('etag')
    expect(eTag).toMatch(/^".+"$/)
    expect((await imageOf(first)).dominant.r).toBeGreaterThan(150)
    const again = await fetch(url, { headers: { ...WEBP_BROWSER, 'If-None-Match': eTag! } })
    expect(again.status).toBe(304)
    const lastModified = first.headers.get('last-modified')
    expect(lastModified).toBeTruthy()
    const since = await fetch(url, { headers: { ...WEBP_BROWSER, 'If-Modified-Since': lastModified! } })
    expect(since.status).toBe(304)

    const replaced = await admin.storage
      .from(bucket)
      .update(name, await poster({ r: 20, g: 40, b: 220 }), { contentType: 'image/jpeg', cacheControl: '3600' })
    expect(replaced.error).toBeNull()
    const fresh = await fetch(url, { headers: { ...WEBP_BROWSER, 'If-None-Match': eTag! } })
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('etag')).not.toBe(eTag)
    const { dominant } = await imageOf(fresh)
    expect(dominant.b).toBeGreaterThan(150)
    expect(dominant.r).toBeLessThan(100)
  })

  it("refuses out-of-range options, objects that are not images, private buckets and missing objects with Storage's errors", async () => {
    // Raw query strings: supabase-js leaves out a width of 0 and sends only the options it knows.
    const plainUrl = transformed({ width: 1 }).split('?')[0]
    for (const query of ['width=0', 'width=2501', 'height=-4', 'width=wide', 'quality=10', 'resize=crop', 'format=png']) {
      const response = await fetch(`${plainUrl}?${query}`)
      expect(response.status, query).toBe(400)
      expect(await response.json()).toMatchObject({ statusCode: '400', error: 'InvalidRequest' })
    }

    const text = `${alice.id}/notes.txt`
    expect((await admin.storage.from(bucket).upload(text, 'hello', { contentType: 'text/plain' })).error).toBeNull()
    const notImage = await fetch(transformed({ width: 100 }, text))
    expect(notImage.status).toBe(400)
    expect(await notImage.json()).toMatchObject({ message: 'Source is not an image that can be transformed' })

    const missing = await fetch(transformed({ width: 100 }, `${alice.id}/nothing.jpg`))
    expect(await missing.json()).toMatchObject({ statusCode: '404' })

    const privateUrl = clientFor(target)
      .storage.from('uploads')
      .getPublicUrl(`${alice.id}/quotes/x.jpg`, { transform: { width: 100 } }).data.publicUrl
    const refused = await fetch(privateUrl)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' })
  })

  it('answers 400 for bytes that only claim to be an image, and goes on serving', async () => {
    const fake = `${alice.id}/fake.jpg`
    const uploaded = await admin.storage.from(bucket).upload(fake, randomBytes(4096), { contentType: 'image/jpeg' })
    expect(uploaded.error).toBeNull()
    const response = await fetch(transformed({ width: 100 }, fake), { headers: WEBP_BROWSER })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ message: 'Source image could not be transformed' })

    const after = await fetch(transformed({ width: 64 }), { headers: WEBP_BROWSER })
    expect(after.status).toBe(200)
  })
})
