import { createHash, randomBytes } from 'node:crypto'
import path from 'node:path'
import { createChunks, stringToBase64URL } from '@supabase/ssr'
import { createClient } from '@supabase/supabase-js'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { makeClip, scratchDir } from '../integration/media/clips'
import { haveBuild } from './support/processes'
import { openServerMode, publishedFiles, type ServerMode } from './support/server-mode'

/**
 * ADR 0017, scale-out: two app instances and two workers on one PostgreSQL
 * (sharing the stand-in's storage folder, as a shared volume would). A TUS
 * upload begun on one instance is finished on the other, and one whose
 * PATCHes reach both at once is written once (the upload lock is a Postgres
 * advisory lock); the /api rate limits count across instances; a session made on
 * one is valid on the other, for the API and for pages; each of several
 * videos is processed by exactly one worker, once.
 */
const MiB = 1024 * 1024

describe.skipIf(!haveBuild())('two app instances and two workers on one PostgreSQL', () => {
  let mode: ServerMode
  let scratch: Awaited<ReturnType<typeof scratchDir>>

  beforeAll(async () => {
    scratch = await scratchDir('scale-out')
    mode = await openServerMode('scale-out')
    await mode.startApp()
  })
  afterAll(async () => {
    await mode?.close()
    await scratch?.remove()
  })

  it('resumes on the second instance a TUS upload begun on the first', async () => {
    const [first, second] = mode.apps
    const bytes = randomBytes(24 * MiB)
    const options = (url: string): tus.UploadOptions => ({
      endpoint: `${url}/storage/v1/upload/resumable`,
      headers: { authorization: `Bearer ${mode.serviceRoleKey}`, apikey: mode.serviceRoleKey },
      metadata: { bucketName: 'uploads', objectName: 'scale/lecture.mp4', contentType: 'video/mp4' },
      chunkSize: 6 * MiB,
      retryDelays: [],
    })
    const begun = new tus.Upload(bytes, options(first!.url))
    await new Promise<void>((resolve, reject) => {
      begun.options.onChunkComplete = (_chunk, sent) => {
        if (sent >= 12 * MiB) void begun.abort().then(resolve, reject)
      }
      begun.options.onError = reject
      begun.options.onSuccess = () => reject(new Error('the first instance should not have received it all'))
      begun.start()
    })
    // The same upload, addressed on the other instance.
    const uploadUrl = begun.url!.replace(first!.url, second!.url)
    let resumedFrom: number | undefined
    await new Promise<void>((resolve, reject) => {
      const resumed = new tus.Upload(bytes, {
        ...options(second!.url),
        uploadUrl,
        onProgress: (sent) => void (resumedFrom ??= sent),
        onError: reject,
        onSuccess: () => resolve(),
      })
      resumed.start()
    })
    expect(resumedFrom).toBeGreaterThanOrEqual(12 * MiB)

    const { data, error } = await mode.service.storage.from('uploads').download('scale/lecture.mp4')
    expect(error).toBeNull()
    const hash = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex')
    expect(hash(Buffer.from(await data!.arrayBuffer()))).toBe(hash(bytes))
    const { rows } = await mode.pool.query(
      "select count(*)::int as n from storage.objects where bucket_id = 'uploads' and name = $1",
      ['scale/lecture.mp4'],
    )
    expect(rows[0].n).toBe(1)
  })

  it('writes an upload once, byte-identical, when its PATCHes reach both instances at once', async () => {
    const [first, second] = mode.apps
    const bytes = randomBytes(16 * MiB)
    const auth = { authorization: `Bearer ${mode.serviceRoleKey}`, apikey: mode.serviceRoleKey, 'tus-resumable': '1.0.0' }
    const b64 = (text: string) => Buffer.from(text).toString('base64')
    const created = await fetch(`${first!.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        ...auth,
        'upload-length': String(bytes.length),
        'upload-metadata': `bucketName ${b64('uploads')},objectName ${b64('scale/twice.mp4')},contentType ${b64('video/mp4')}`,
      },
    })
    expect(created.status).toBe(201)
    const onFirst = created.headers.get('location')!
    const urls = [onFirst, onFirst.replace(first!.url, second!.url)]
    const patch = (url: string, offset: number) =>
      fetch(url, {
        method: 'PATCH',
        headers: { ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: bytes.subarray(offset),
      }).then(
        (answer) => answer.status,
        () => 0, // the connection cut: the lock's holder was asked to let go
      )
    // The same bytes from offset 0, to both processes at once: one appends, the other waits or is refused.
    const statuses = await Promise.all(urls.map((url) => patch(url, 0)))
    expect(statuses.filter((status) => status === 204).length).toBeLessThanOrEqual(1)
    // Then the client does what tus-js-client does: asks where the upload stands and sends the rest.
    for (let round = 0; round < 5; round++) {
      const head = await fetch(urls[round % 2]!, { method: 'HEAD', headers: auth })
      const offset = Number(head.headers.get('upload-offset'))
      expect(offset).toBeLessThanOrEqual(bytes.length)
      if (offset === bytes.length) break
      await patch(urls[round % 2]!, offset)
    }

    const { data, error } = await mode.service.storage.from('uploads').download('scale/twice.mp4')
    expect(error).toBeNull()
    const hash = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex')
    expect(hash(Buffer.from(await data!.arrayBuffer()))).toBe(hash(bytes))
    const { rows } = await mode.pool.query(
      "select count(*)::int as n from storage.objects where bucket_id = 'uploads' and name = $1",
      ['scale/twice.mp4'],
    )
    expect(rows[0].n).toBe(1)
  })

  it('allows the same /api calls per address on two instances as on one', async () => {
    const [first, second] = mode.apps
    // Account calls: 20 per address per 5 minutes (app/server/api/limits.server.ts), whichever instance answers.
    const statuses: number[] = []
    for (let call = 0; call < 24; call++) {
      const answer = await fetch(`${(call % 2 ? second : first)!.url}/api/auth/check-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      statuses.push(answer.status)
    }
    expect(statuses.filter((status) => status !== 429)).toHaveLength(20)
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429])
  })

  it('accepts on the second instance a session made on the first', async () => {
    const [first, second] = mode.apps
    const email = `scale-${randomBytes(4).toString('hex')}@example.test`
    const password = `Pw-${randomBytes(8).toString('hex')}`
    const created = await mode.service.auth.admin.createUser({ email, password, email_confirm: true })
    expect(created.error).toBeNull()
    const client = createClient(first!.url, mode.anonKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const { data, error } = await client.auth.signInWithPassword({ email, password })
    expect(error).toBeNull()

    const user = await fetch(`${second!.url}/auth/v1/user`, {
      headers: { authorization: `Bearer ${data.session!.access_token}`, apikey: mode.anonKey },
    })
    expect(user.status).toBe(200)
    expect(((await user.json()) as { email: string }).email).toBe(email)

    const cookie = createChunks('sb-127-auth-token', `base64-${stringToBase64URL(JSON.stringify(data.session))}`)
      .map((chunk) => `${chunk.name}=${chunk.value}`)
      .join('; ')
    const page = await fetch(`${second!.url}/profile`, { headers: { cookie }, redirect: 'manual' })
    expect(page.status).toBe(200)
    const anonymous = await fetch(`${second!.url}/profile`, { redirect: 'manual' })
    expect(anonymous.status).toBe(302)
  })

  it('has each video processed by exactly one of two workers, once', async () => {
    const env = { WORKER_POLL_MS: '500' }
    const workers = [mode.startWorker(env), mode.startWorker(env)]
    const creator = await mode.makeCreator()
    const clips = await Promise.all(
      [0, 1, 2, 3].map((index) => makeClip(path.join(scratch.dir, `clip-${index}.mp4`), { width: 320, height: 180, seconds: 2 })),
    )
    const videos = await Promise.all(clips.map((clip) => mode.uploadVideo(creator, clip)))
    for (const id of videos) {
      expect((await mode.waitForVideo(id, (row) => row.status !== 'processing')).status).toBe('ready')
      expect(await mode.jobOf(id)).toMatchObject({ status: 'done', attempts: 1 })
      expect((await publishedFiles(mode, id)).missing).toEqual([])
    }
    const started = workers.flatMap((worker) => worker.logs()).filter((line) => /: started$/.test(line.msg))
    for (const id of videos) expect(started.filter((line) => line.msg.includes(`(video ${id},`))).toHaveLength(1)
    expect(await mode.reconcileFindings()).toEqual([])
  })
})
