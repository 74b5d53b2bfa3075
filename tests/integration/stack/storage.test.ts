import { randomBytes, randomUUID } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { request } from 'node:http'
import path from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'
import { createSignedInUser, type TestUser } from '../../support/tokens'

/**
 * Storage's HTTP API (ADR 0006) through supabase-js, as the
 * app uses it: buckets by the service role; uploads, downloads, listing,
 * moving, signed URLs and removal by users under the migrations' storage
 * policies (`uploads/<uid>/quotes/…` is any user's, `uploads/<uid>/videos/…`
 * only a verified creator's, `avatars` is public); size and type limits;
 * hostile names. Raw HTTP only where the client has no say: byte ranges,
 * HEAD, conditional requests, paths the URL parser would normalise.
 */
announceSkippedRealSupabase()

const MiB = 1024 * 1024

describe.each(targetNames)('storage on %s', (targetName) => {
  let target: ContractTarget
  let admin: SupabaseClient
  let alice: TestUser
  let bob: TestUser

  beforeAll(async () => {
    target = await openTarget(targetName)
    admin = clientFor(target, 'service')
    ;[alice, bob] = await Promise.all([createSignedInUser(target, 'alice'), createSignedInUser(target, 'bob')])
  })

  afterAll(async () => {
    await target?.close()
  })

  /** Every file under the stand-in's storage root (the real Supabase keeps its own). */
  async function storedFiles(): Promise<string[]> {
    if (!target.running) return []
    const root = path.join(target.running.dataDir, 'storage')
    const entries = await readdir(root, { recursive: true, withFileTypes: true })
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .sort()
  }

  function quotePath(user: TestUser, file: string) {
    return `${user.id}/quotes/${file}`
  }

  async function uploadQuote(user: TestUser, file: string, bytes: Buffer) {
    const { data, error } = await user.client.storage
      .from('uploads')
      .upload(quotePath(user, file), bytes, { contentType: 'video/mp4' })
    expect(error).toBeNull()
    return data!
  }

  async function bytesOf(blob: Blob | null | undefined): Promise<Buffer> {
    return Buffer.from(await blob!.arrayBuffer())
  }

  describe('buckets', () => {
    it('the service role creates, reads, updates, empties and deletes a bucket', async () => {
      const id = `contract-${randomUUID().slice(0, 8)}`
      const created = await admin.storage.createBucket(id, {
        public: false,
        fileSizeLimit: 1024,
        allowedMimeTypes: ['text/plain'],
      })
      expect(created.error).toBeNull()
      expect(created.data).toEqual({ name: id })

      const read = await admin.storage.getBucket(id)
      expect(read.data).toMatchObject({ id, name: id, public: false, file_size_limit: 1024, allowed_mime_types: ['text/plain'] })
      expect((await admin.storage.listBuckets()).data?.map((bucket) => bucket.id)).toContain(id)

      const updated = await admin.storage.updateBucket(id, { public: true, fileSizeLimit: 2048, allowedMimeTypes: ['text/*'] })
      expect(updated.error).toBeNull()
      expect((await admin.storage.getBucket(id)).data).toMatchObject({ public: true, file_size_limit: 2048, allowed_mime_types: ['text/*'] })

      const again = await admin.storage.createBucket(id)
      expect(again.error).toMatchObject({ statusCode: '409', status: 400 })

      await admin.storage.from(id).upload('notes/a.txt', Buffer.from('hello'), { contentType: 'text/plain' })
      const notEmpty = await admin.storage.deleteBucket(id)
      expect(notEmpty.error).toMatchObject({ statusCode: '409' })

      expect((await admin.storage.emptyBucket(id)).error).toBeNull()
      expect((await admin.storage.deleteBucket(id)).error).toBeNull()
      const gone = await admin.storage.getBucket(id)
      expect(gone.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' })
    })

    it('a user can neither create nor see buckets', async () => {
      const created = await alice.client.storage.createBucket(`mine-${randomUUID().slice(0, 8)}`)
      expect(created.error).toMatchObject({ statusCode: '403', status: 400 })
      const listed = await alice.client.storage.listBuckets()
      expect(listed.data).toEqual([])
    })
  })

  describe('objects', () => {
    it('a user uploads into their own folder, downloads, lists, moves, signs and removes the object', async () => {
      const bytes = randomBytes(64 * 1024)
      const uploaded = await uploadQuote(alice, 'clip.mp4', bytes)
      expect(uploaded).toMatchObject({ path: quotePath(alice, 'clip.mp4'), fullPath: `uploads/${quotePath(alice, 'clip.mp4')}` })
      expect(uploaded.id).toMatch(/^[0-9a-f-]{36}$/)

      const bucket = alice.client.storage.from('uploads')
      const downloaded = await bucket.download(quotePath(alice, 'clip.mp4'))
      expect(downloaded.error).toBeNull()
      expect((await bytesOf(downloaded.data)).equals(bytes)).toBe(true)

      const listed = await bucket.list(`${alice.id}/quotes`)
      expect(listed.data).toEqual([
        expect.objectContaining({
          name: 'clip.mp4',
          id: uploaded.id,
          metadata: expect.objectContaining({ size: bytes.length, mimetype: 'video/mp4', cacheControl: 'max-age=3600' }),
        }),
      ])
      const folders = await bucket.list(alice.id)
      expect(folders.data).toEqual([expect.objectContaining({ name: 'quotes', id: null })])

      const info = await bucket.info(quotePath(alice, 'clip.mp4'))
      expect(info.data).toMatchObject({ id: uploaded.id, size: bytes.length, contentType: 'video/mp4' })

      const moved = await bucket.move(quotePath(alice, 'clip.mp4'), quotePath(alice, 'moved.mp4'))
      expect(moved.error).toBeNull()
      expect((await bucket.download(quotePath(alice, 'clip.mp4'))).error).toMatchObject({ statusCode: '404' })
      expect((await bytesOf((await bucket.download(quotePath(alice, 'moved.mp4'))).data)).equals(bytes)).toBe(true)

      const signed = await bucket.createSignedUrl(quotePath(alice, 'moved.mp4'), 60)
      expect(signed.error).toBeNull()
      const viaSignedUrl = await fetch(signed.data!.signedUrl)
      expect(viaSignedUrl.status).toBe(200)
      expect(Buffer.from(await viaSignedUrl.arrayBuffer()).equals(bytes)).toBe(true)

      const many = await bucket.createSignedUrls([quotePath(alice, 'moved.mp4'), quotePath(alice, 'nothing.mp4')], 60)
      expect(many.data?.[0]).toMatchObject({ error: null, path: quotePath(alice, 'moved.mp4') })
      expect(many.data?.[1]).toMatchObject({ signedUrl: null, error: expect.any(String) })

      const filesBefore = await storedFiles()
      const removed = await bucket.remove([quotePath(alice, 'moved.mp4')])
      expect(removed.data).toEqual([expect.objectContaining({ name: quotePath(alice, 'moved.mp4'), bucket_id: 'uploads' })])
      expect((await bucket.download(quotePath(alice, 'moved.mp4'))).error).toMatchObject({ statusCode: '404' })
      if (target.running) expect((await storedFiles()).length).toBe(filesBefore.length - 1)
    })

    it('a signed URL stops working when it expires', async () => {
      await uploadQuote(alice, 'short-lived.mp4', randomBytes(1024))
      const signed = await alice.client.storage.from('uploads').createSignedUrl(quotePath(alice, 'short-lived.mp4'), 1)
      await new Promise((resolve) => setTimeout(resolve, 2_100))
      const response = await fetch(signed.data!.signedUrl)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ statusCode: '400', message: 'jwt expired' })
    })

    it('uploading over an existing object needs upsert, and then replaces it', async () => {
      const first = randomBytes(2048)
      const second = randomBytes(4096)
      await uploadQuote(alice, 'replace.mp4', first)
      const bucket = alice.client.storage.from('uploads')
      const conflict = await bucket.upload(quotePath(alice, 'replace.mp4'), second, { contentType: 'video/mp4' })
      expect(conflict.error).toMatchObject({ statusCode: '409', status: 400 })

      const filesBefore = await storedFiles()
      const upserted = await bucket.upload(quotePath(alice, 'replace.mp4'), second, { contentType: 'video/mp4', upsert: true })
      expect(upserted.error).toBeNull()
      expect((await bytesOf((await bucket.download(quotePath(alice, 'replace.mp4'))).data)).equals(second)).toBe(true)
      // The replaced version's file is gone: still one file for the object.
      if (target.running) expect((await storedFiles()).length).toBe(filesBefore.length)
    })

    it('a user copies their object with its metadata, deletes one, and uploads through a signed upload URL', async () => {
      const bytes = randomBytes(3000)
      const bucket = alice.client.storage.from('uploads')
      const original = await bucket.upload(quotePath(alice, 'original.mp4'), bytes, {
        contentType: 'video/mp4',
        metadata: { lesson: 'one' },
      })
      expect(original.error).toBeNull()
      expect((await bucket.info(quotePath(alice, 'original.mp4'))).data).toMatchObject({ metadata: { lesson: 'one' } })
      const copied = await bucket.copy(quotePath(alice, 'original.mp4'), quotePath(alice, 'copy.mp4'))
      expect(copied).toMatchObject({ error: null, data: { path: `uploads/${quotePath(alice, 'copy.mp4')}` } })
      expect((await bytesOf((await bucket.download(quotePath(alice, 'copy.mp4'))).data)).equals(bytes)).toBe(true)
      expect((await bucket.info(quotePath(alice, 'copy.mp4'))).data).toMatchObject({ metadata: { lesson: 'one' } })

      const deleted = await fetch(`${target.url}/storage/v1/object/uploads/${quotePath(alice, 'original.mp4')}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${alice.accessToken}`, apikey: target.anonKey },
      })
      expect(await deleted.json()).toEqual({ message: 'Successfully deleted' })
      expect((await bucket.exists(quotePath(alice, 'original.mp4'))).data).toBe(false)

      const signedUpload = await bucket.createSignedUploadUrl(quotePath(alice, 'signed.mp4'))
      expect(signedUpload.error).toBeNull()
      const viaToken = await clientFor(target)
        .storage.from('uploads')
        .uploadToSignedUrl(quotePath(alice, 'signed.mp4'), signedUpload.data!.token, bytes, { contentType: 'video/mp4' })
      expect(viaToken.error).toBeNull()
      expect((await bytesOf((await bucket.download(quotePath(alice, 'signed.mp4'))).data)).equals(bytes)).toBe(true)
    })

    it("a user may not write into or read from another user's folder, nor upload videos unverified", async () => {
      await uploadQuote(alice, 'private.mp4', randomBytes(1024))
      const filesBefore = await storedFiles()

      const intoAlice = await bob.client.storage
        .from('uploads')
        .upload(quotePath(alice, 'intruder.mp4'), randomBytes(1024), { contentType: 'video/mp4' })
      expect(intoAlice.error).toMatchObject({
        status: 400,
        statusCode: '403',
        message: 'new row violates row-level security policy',
      })
      const video = await alice.client.storage
        .from('uploads')
        .upload(`${alice.id}/videos/lecture.mp4`, randomBytes(1024), { contentType: 'video/mp4' })
      expect(video.error).toMatchObject({ statusCode: '403' })
      expect(await storedFiles()).toEqual(filesBefore)

      // Storage reads as the caller: a row the policies hide is not found.
      const read = await bob.client.storage.from('uploads').download(quotePath(alice, 'private.mp4'))
      expect(read.error).toMatchObject({ status: 400, statusCode: '404' })
      const signed = await bob.client.storage.from('uploads').createSignedUrl(quotePath(alice, 'private.mp4'), 60)
      expect(signed.error).toMatchObject({ statusCode: '404' })
      const removed = await bob.client.storage.from('uploads').remove([quotePath(alice, 'private.mp4')])
      expect(removed.data).toEqual([])
      expect((await alice.client.storage.from('uploads').download(quotePath(alice, 'private.mp4'))).error).toBeNull()
    })

    it('anyone downloads a public-bucket object by its public URL, never a private one', async () => {
      const image = randomBytes(2048)
      const avatar = `${alice.id}/avatar.png`
      const uploaded = await alice.client.storage.from('avatars').upload(avatar, new Blob([image], { type: 'image/png' }))
      expect(uploaded.error).toBeNull()

      const publicUrl = clientFor(target).storage.from('avatars').getPublicUrl(avatar).data.publicUrl
      const response = await fetch(publicUrl)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      expect(Buffer.from(await response.arrayBuffer()).equals(image)).toBe(true)

      await uploadQuote(alice, 'not-public.mp4', randomBytes(100))
      const privateUrl = clientFor(target).storage.from('uploads').getPublicUrl(quotePath(alice, 'not-public.mp4')).data.publicUrl
      const refused = await fetch(privateUrl)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' })
    })

    it('an object over the bucket limit is refused with EntityTooLarge and leaves no row and no file', async () => {
      const filesBefore = await storedFiles()
      const tooLarge = randomBytes(5 * MiB + 1)
      const bucket = alice.client.storage.from('avatars')
      const asForm = await bucket.upload(`${alice.id}/huge-form.png`, new Blob([tooLarge], { type: 'image/png' }))
      expect(asForm.error).toMatchObject({ status: 400, statusCode: '413' })
      const asBody = await bucket.upload(`${alice.id}/huge-body.png`, tooLarge, { contentType: 'image/png' })
      expect(asBody.error).toMatchObject({ status: 400, statusCode: '413' })

      const listed = await bucket.list(alice.id, { search: 'huge' })
      expect(listed.data).toEqual([])
      expect(await storedFiles()).toEqual(filesBefore)
    })

    it('a type the bucket does not allow is refused with InvalidMimeType', async () => {
      const refused = await alice.client.storage
        .from('avatars')
        .upload(`${alice.id}/page.png`, Buffer.from('<script>alert(1)</script>'), { contentType: 'text/html' })
      expect(refused.error).toMatchObject({ status: 400, statusCode: '415' })
      expect((await alice.client.storage.from('avatars').list(alice.id, { search: 'page' })).data).toEqual([])
    })

    it('a bad token is refused with AccessDenied, and on the stand-in a bad apikey with 401', async () => {
      const forged = await fetch(`${target.url}/storage/v1/object/list/uploads`, {
        method: 'POST',
        headers: { authorization: 'Bearer not.a.jwt', 'content-type': 'application/json' },
        body: JSON.stringify({ prefix: '' }),
      })
      expect(forged.status).toBe(400)
      expect(await forged.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' })

      if (!target.running) return
      const wrongKey = await fetch(`${target.url}/storage/v1/bucket`, { headers: { apikey: 'not-a-project-key' } })
      expect(wrongKey.status).toBe(401)
    })
  })

  // The stand-in's own guarantee; Supabase checks names with its own rules.
  describe.runIf(targetName === 'stand-in')('hostile object names', () => {
    it('are refused with InvalidKey through the client, and nothing is written', async () => {
      const filesBefore = await storedFiles()
      const bucket = alice.client.storage.from('uploads')
      const names = [
        `${alice.id}/quotes/..%2f..%2f..%2fetc%2fpasswd.mp4`,
        `${alice.id}/quotes/a%5cb.mp4`,
        `${alice.id}/quotes/nul\u0000byte.mp4`,
        `${alice.id}/quotes/bell\u0007.mp4`,
        `${alice.id}/quotes/right-to-left\u202Eovi.mp4`,
        `${alice.id}/quotes/${'a'.repeat(1000)}.mp4`,
      ]
      for (const name of names) {
        const { error } = await bucket.upload(name, randomBytes(16), { contentType: 'video/mp4' })
        expect(error, name).toMatchObject({ status: 400, statusCode: '400', code: 'InvalidKey' })
      }
      expect(await storedFiles()).toEqual(filesBefore)
    })

    it('are refused with InvalidKey in raw paths the URL parser would normalise', async () => {
      const filesBefore = await storedFiles()
      const paths = [
        `/storage/v1/object/uploads/${alice.id}/quotes/../../../../../etc/passwd.mp4`,
        `/storage/v1/object/uploads/${alice.id}/quotes/%2e%2e/%2e%2e/%2e%2e/escape.mp4`,
        `/storage/v1/object/uploads/${alice.id}/quotes/back\\slash.mp4`,
        `/storage/v1/object/uploads/${alice.id}//quotes/double.mp4`,
      ]
      for (const rawPath of paths) {
        const response = await rawRequest(target.url, 'POST', rawPath, {
          authorization: `Bearer ${alice.accessToken}`,
          'content-type': 'video/mp4',
        }, randomBytes(16))
        expect(response.status, rawPath).toBe(400)
        expect(JSON.parse(response.body.toString()), rawPath).toMatchObject({ code: 'InvalidKey' })
      }
      expect(await storedFiles()).toEqual(filesBefore)
    })
  })

  describe('byte ranges and caching', () => {
    const bytes = randomBytes(1000)
    let url: string
    let auth: Record<string, string>

    beforeAll(async () => {
      await uploadQuote(alice, 'ranges.mp4', bytes)
      url = `${target.url}/storage/v1/object/authenticated/uploads/${quotePath(alice, 'ranges.mp4')}`
      auth = { authorization: `Bearer ${alice.accessToken}`, apikey: target.anonKey }
    })

    it('sends the whole object with its headers', async () => {
      const response = await fetch(url, { headers: auth })
      expect(response.status).toBe(200)
      expect(Object.fromEntries(response.headers)).toMatchObject({
        'accept-ranges': 'bytes',
        'content-type': 'video/mp4',
        'content-length': '1000',
        'cache-control': 'max-age=3600',
        etag: expect.stringMatching(/^"/),
        'last-modified': expect.any(String),
      })
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true)
    })

    it.each([
      ['bytes=0-99', 0, 99],
      ['bytes=-100', 900, 999],
      ['bytes=100-', 100, 999],
      ['bytes=990-5000', 990, 999],
    ])('answers %s with 206 and exactly those bytes', async (range, start, end) => {
      const response = await fetch(url, { headers: { ...auth, range } })
      expect(response.status).toBe(206)
      expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`)
      expect(response.headers.get('content-length')).toBe(String(end - start + 1))
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true)
    })

    it('answers a range past the end with 416', async () => {
      const response = await fetch(url, { headers: { ...auth, range: 'bytes=5000-6000' } })
      if (!target.running) {
        // Supabase renders its backend's InvalidRange as its usual 400 with the status in the body.
        expect(response.status).toBeGreaterThanOrEqual(400)
        return
      }
      expect(response.status).toBe(416)
      expect(response.headers.get('content-range')).toBe('bytes */1000')
    })

    it('answers a matching If-None-Match with 304, and HEAD with headers only', async () => {
      const etag = (await fetch(url, { method: 'HEAD', headers: auth })).headers.get('etag')!
      const cached = await fetch(url, { headers: { ...auth, 'if-none-match': etag } })
      expect(cached.status).toBe(304)
      expect(await cached.text()).toBe('')

      const head = await rawRequest(target.url, 'HEAD', new URL(url).pathname, auth)
      expect(head.status).toBe(200)
      expect(head.headers['content-length']).toBe('1000')
      expect(head.body.length).toBe(0)
    })

    it('sends ?download= as an RFC 6266 attachment', async () => {
      const response = await fetch(`${url}?download=${encodeURIComponent('Mein Übungsvideo.mp4')}`, { headers: auth })
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="Mein ?bungsvideo.mp4"; filename*=UTF-8''Mein%20%C3%9Cbungsvideo.mp4`,
      )
    })
  })
})

/** A request sent exactly as written: no URL normalisation, any method. */
function rawRequest(
  base: string,
  method: string,
  rawPath: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path: rawPath, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}
