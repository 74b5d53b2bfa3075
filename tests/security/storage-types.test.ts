import { randomUUID } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, openTarget, type ContractTarget } from '../support/target'
import { createSignedInUser, type TestUser } from '../support/tokens'

/**
 * ADR 0012, finding 2 (stored XSS through Storage) and finding 6 (CR/LF in
 * upload fields): every way of putting bytes in a bucket — upload, copy,
 * move, TUS — applies the destination bucket's type and size rules to one
 * well-formed media type, and every download is sent so that nothing in it
 * can run on the app's origin.
 */
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>')
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a6b7c20000000049454e44ae426082', 'hex')

describe('storage type, size and header rules', () => {
  let target: ContractTarget
  let admin: SupabaseClient
  let alice: TestUser

  beforeAll(async () => {
    target = await openTarget('stand-in')
    admin = clientFor(target, 'service')
    alice = await createSignedInUser(target, 'alice')
  })
  afterAll(async () => {
    await target?.close()
  })

  const auth = (user: TestUser) => ({ apikey: target.anonKey, Authorization: `Bearer ${user.accessToken}` })

  async function storedFiles(): Promise<string[]> {
    const root = path.join(target.running!.dataDir, 'storage', 'objects')
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
    return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name)).sort()
  }

  async function objectRows(bucket: string, name: string): Promise<number> {
    const { rows } = await target.running!.database.pool.query('select 1 from storage.objects where bucket_id = $1 and name = $2', [bucket, name])
    return rows.length
  }

  /** A raw upload with a Content-Type of our choosing (supabase-js would not send a list). */
  function rawUpload(user: TestUser, bucket: string, name: string, contentType: string, body: Buffer) {
    return fetch(`${target.url}/storage/v1/object/${bucket}/${name}`, {
      method: 'POST',
      headers: { ...auth(user), 'Content-Type': contentType },
      body: new Uint8Array(body),
    })
  }

  async function expectStorageError(response: Response, statusCode: string, code: string) {
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ statusCode, error: expect.any(String), message: expect.any(String), code })
  }

  describe('a Content-Type must be exactly one media type', () => {
    it.each([
      'video/mp4, image/svg+xml',
      'video/mp4,image/svg+xml',
      'video/*',
      'video/mp4;',
      'video/mp4; x',
      'video/mp4 image/svg+xml',
      'video/',
      '/mp4',
      'video/mp4;a="b',
    ])('refuses %j with 415 and stores nothing', async (contentType) => {
      const before = await storedFiles()
      const name = `${alice.id}/quotes/${randomUUID()}.mp4`
      await expectStorageError(await rawUpload(alice, 'uploads', name, contentType, SVG), '415', 'InvalidMimeType')
      expect(await objectRows('uploads', name)).toBe(0)
      expect(await storedFiles()).toEqual(before)
    })

    it('accepts one type with well-formed parameters, stored normalised', async () => {
      const name = `${alice.id}/quotes/${randomUUID()}.mp4`
      const response = await rawUpload(alice, 'uploads', name, ' Video/MP4 ; codecs="avc1.42E01E" ', Buffer.from('x'))
      expect(response.status).toBe(200)
      const info = await admin.storage.from('uploads').info(name)
      expect(info.data?.contentType).toBe('video/mp4;codecs="avc1.42E01E"')
    })

    it('refuses a list in TUS contentType metadata at creation (415)', async () => {
      const metadata = (entries: Record<string, string>) =>
        Object.entries(entries)
          .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
          .join(',')
      for (const contentType of ['video/mp4, image/svg+xml', 'video/mp4\r\nX-Evil: 1', 'image/svg+xml']) {
        const response = await fetch(`${target.url}/storage/v1/upload/resumable`, {
          method: 'POST',
          headers: {
            ...auth(alice),
            'Tus-Resumable': '1.0.0',
            'Upload-Length': String(SVG.length),
            'Upload-Metadata': metadata({ bucketName: 'uploads', objectName: `${alice.id}/quotes/${randomUUID()}.mp4`, contentType }),
          },
        })
        expect(response.status, contentType).toBe(415)
      }
    })
  })

  it('portfolios refuse image/svg+xml and take raster images', async () => {
    const svg = await alice.client.storage.from('portfolios').upload(`${alice.id}/work.svg`, SVG, { contentType: 'image/svg+xml' })
    expect(svg.error).toMatchObject({ statusCode: '415' })
    const png = await alice.client.storage.from('portfolios').upload(`${alice.id}/work.png`, PNG, { contentType: 'image/png' })
    expect(png.error).toBeNull()
  })

  describe('copy applies the destination bucket\'s rules to the type it will carry', () => {
    it('cannot relabel an upload as image/svg+xml in the public avatars bucket', async () => {
      const source = `${alice.id}/fake.png`
      expect((await alice.client.storage.from('avatars').upload(source, SVG, { contentType: 'image/png' })).error).toBeNull()
      const destination = `${alice.id}/evil.svg`
      const response = await fetch(`${target.url}/storage/v1/object/copy`, {
        method: 'POST',
        headers: { ...auth(alice), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          bucketId: 'avatars',
          sourceKey: source,
          destinationKey: destination,
          copyMetadata: false,
          metadata: { mimetype: 'image/svg+xml' },
        }),
      })
      await expectStorageError(response, '415', 'InvalidMimeType')
      expect(await objectRows('avatars', destination)).toBe(0)
    })

    it('cannot copy a video from uploads into avatars', async () => {
      const source = `${alice.id}/quotes/${randomUUID()}.mp4`
      expect((await alice.client.storage.from('uploads').upload(source, SVG, { contentType: 'video/mp4' })).error).toBeNull()
      const copied = await alice.client.storage.from('uploads').copy(source, `${alice.id}/copied.png`, { destinationBucket: 'avatars' })
      expect(copied.error).toMatchObject({ statusCode: '415' })
    })

    it('refuses a copy larger than the destination bucket allows (413)', async () => {
      const bucket = `tiny-${randomUUID().slice(0, 8)}`
      expect((await admin.storage.createBucket(bucket, { public: false, fileSizeLimit: 8, allowedMimeTypes: ['image/png'] })).error).toBeNull()
      await admin.storage.from(bucket).upload('small.png', PNG.subarray(0, 8), { contentType: 'image/png' })
      const big = `${randomUUID()}.png`
      await admin.storage.from('avatars').upload(big, PNG, { contentType: 'image/png' })
      const copied = await admin.storage.from('avatars').copy(big, 'big.png', { destinationBucket: bucket })
      expect(copied.error).toMatchObject({ statusCode: '413' })
    })
  })

  it('move applies the destination bucket\'s type rules: uploads → avatars is refused', async () => {
    const source = `${alice.id}/quotes/${randomUUID()}.mp4`
    expect((await alice.client.storage.from('uploads').upload(source, SVG, { contentType: 'video/mp4' })).error).toBeNull()
    const moved = await alice.client.storage.from('uploads').move(source, `${alice.id}/moved.png`, { destinationBucket: 'avatars' })
    expect(moved.error).toMatchObject({ statusCode: '415' })
    expect(await objectRows('uploads', source)).toBe(1)
    expect(await objectRows('avatars', `${alice.id}/moved.png`)).toBe(0)
  })

  describe('downloads of user content', () => {
    async function stored(bucket: string, name: string, bytes: Buffer, contentType: string) {
      const { error } = await admin.storage.from(bucket).upload(name, bytes, { contentType, upsert: true })
      expect(error).toBeNull()
      return fetch(`${target.url}/storage/v1/object/${bucket}/${name}`, { headers: { apikey: target.serviceRoleKey, Authorization: `Bearer ${target.serviceRoleKey}` } })
    }

    it.each([
      ['image/png', 'inline'],
      ['image/jpeg', 'inline'],
      ['video/mp4', 'inline'],
      ['application/vnd.apple.mpegurl', 'inline'],
      ['video/mp2t', 'inline'],
      ['image/svg+xml', 'attachment'],
      ['application/pdf', 'attachment'],
      ['text/plain', 'attachment'],
      ['text/html', 'attachment'],
      ['application/xhtml+xml', 'attachment'],
      ['application/octet-stream', 'attachment'],
    ])('%s: nosniff, a sandboxing CSP, %s', async (contentType, disposition) => {
      const bucket = `any-${randomUUID().slice(0, 8)}`
      await admin.storage.createBucket(bucket, { public: true })
      const response = await stored(bucket, 'file', SVG, contentType)
      expect(response.status).toBe(200)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/)
      if (disposition === 'inline') expect(response.headers.get('content-disposition')).toBeNull()
      else expect(response.headers.get('content-disposition')).toMatch(/^attachment/)
      expect(response.headers.get('content-type')).not.toMatch(/html/)
      // Public URLs too.
      const pub = await fetch(`${target.url}/storage/v1/object/public/${bucket}/file`)
      expect(pub.headers.get('content-security-policy')).toMatch(/sandbox/)
      expect(pub.headers.get('x-content-type-options')).toBe('nosniff')
    })
  })

  describe('CR/LF in upload fields (finding 6)', () => {
    it.each([
      ['cacheControl', '3600\r\nX-Injected: 1'],
      ['cacheControl', '3600\nSet-Cookie: a=b'],
      ['contentType', 'video/mp4\r\nX-Injected: 1'],
    ])('a multipart %s holding %j is a 400 and stores nothing', async (field, value) => {
      const before = await storedFiles()
      const name = `${alice.id}/quotes/${randomUUID()}.mp4`
      const form = new FormData()
      form.append(field, value)
      form.append('', new Blob([Buffer.from('x')], { type: 'video/mp4' }), 'a.mp4')
      const response = await fetch(`${target.url}/storage/v1/object/uploads/${name}`, { method: 'POST', headers: auth(alice), body: form })
      expect(response.status).toBe(400)
      const body = (await response.json()) as { statusCode: string; message: string }
      expect(['400', '415']).toContain(body.statusCode)
      expect(body.message).toMatch(/control characters|mime type/)
      expect(await objectRows('uploads', name)).toBe(0)
      expect(await storedFiles()).toEqual(before)
    })

    it('a stored object whose metadata holds CR/LF (an older writer) still downloads, with safe headers', async () => {
      const name = `${alice.id}/quotes/${randomUUID()}.mp4`
      expect((await alice.client.storage.from('uploads').upload(name, Buffer.from('bytes'), { contentType: 'video/mp4' })).error).toBeNull()
      await target.running!.database.pool.query(
        `update storage.objects set metadata = metadata || jsonb_build_object('cacheControl', E'max-age=1\\r\\nX-Evil: 1', 'mimetype', E'video/mp4\\r\\nX-Evil: 2')
         where bucket_id = 'uploads' and name = $1`,
        [name],
      )
      const response = await fetch(`${target.url}/storage/v1/object/uploads/${name}`, { headers: auth(alice) })
      expect(response.status).toBe(200)
      expect(response.headers.get('x-evil')).toBeNull()
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(response.headers.get('content-type')).toBe('application/octet-stream')
      expect(await response.text()).toBe('bytes')
    })
  })
})
