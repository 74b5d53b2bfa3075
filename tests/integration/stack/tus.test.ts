import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Upload } from '@tus/server'
import { UploadLocker } from '../../../stack/storage/upload-locker'
import { ResumableStore } from '../../../stack/storage/upload-store'
import { announceSkippedRealSupabase, openTarget, targetNames, type ContractTarget } from '../../support/target'
import { createSignedInUser, expiredCopyOf, type TestUser } from '../../support/tokens'

/**
 * Resumable uploads (ADR 0006) with tus-js-client in Node,
 * configured as Supabase documents it: 6 MiB chunks, data sent with the
 * creation request, the documented retry delays. One 100 MiB upload (the
 * `uploads` bucket's limit) proves throughput and integrity; the fault
 * cases use 20 MiB. Test files are random bytes made in a temp folder.
 */
announceSkippedRealSupabase()

const MiB = 1024 * 1024
const UPLOADS_LIMIT = 100 * MiB

/** tus-js-client's file-backed URL store for Node: exported at runtime, missing from its typings. */
const { FileUrlStorage } = tus as unknown as {
  FileUrlStorage: new (file: string) => NonNullable<tus.UploadOptions['urlStorage']>
}

let workDir: string
let bigFile: { path: string; sha256: string }
let mediumFile: { path: string; sha256: string }

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'lumen-tus-'))
  ;[bigFile, mediumFile] = await Promise.all([randomFile('big.mp4', UPLOADS_LIMIT), randomFile('medium.mp4', 20 * MiB)])
})

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true })
})

async function randomFile(name: string, size: number) {
  const file = path.join(workDir, name)
  const hash = createHash('sha256')
  async function* chunks() {
    for (let left = size; left > 0; left -= MiB) {
      const chunk = randomBytes(Math.min(MiB, left))
      hash.update(chunk)
      yield chunk
    }
  }
  await pipeline(chunks(), createWriteStream(file))
  return { path: file, sha256: hash.digest('hex') }
}

describe.each(targetNames)('resumable uploads on %s', (targetName) => {
  let target: ContractTarget
  let alice: TestUser

  beforeAll(async () => {
    target = await openTarget(targetName)
    alice = await createSignedInUser(target, 'alice')
  })

  afterAll(async () => {
    await target?.close()
  })

  it('uploads 100 MiB in 6 MiB chunks, then downloads it byte-identical, whole and by range', async () => {
    const objectName = `${alice.id}/quotes/big-${randomUUID()}.mp4`
    const upload = new tus.Upload(createReadStream(bigFile.path), supabaseOptions(target, alice, objectName))
    const result = await run(upload)
    expect(result.lastResponse.getHeader('Tus-Complete')).toBe('1')

    const [, version] = /^uploads\/.+\/([0-9a-f-]{36})$/.exec(decodeLocation(target, upload.url!)) ?? []
    expect(decodeLocation(target, upload.url!)).toBe(`uploads/${objectName}/${version}`)
    const info = await alice.client.storage.from('uploads').info(objectName)
    expect(info.data).toMatchObject({ size: UPLOADS_LIMIT, contentType: 'video/mp4', version })

    const url = `${target.url}/storage/v1/object/authenticated/uploads/${objectName}`
    const headers = { authorization: `Bearer ${alice.accessToken}` }
    const whole = await fetch(url, { headers })
    expect(whole.headers.get('content-length')).toBe(String(UPLOADS_LIMIT))
    expect(await sha256Of(whole)).toBe(bigFile.sha256)

    const tail = await fetch(url, { headers: { ...headers, range: 'bytes=-1048576' } })
    expect(tail.status).toBe(206)
    expect(tail.headers.get('content-range')).toBe(`bytes ${UPLOADS_LIMIT - MiB}-${UPLOADS_LIMIT - 1}/${UPLOADS_LIMIT}`)
    const expectedTail = await sha256Of(new Response(createReadStream(bigFile.path, { start: UPLOADS_LIMIT - MiB }) as never))
    expect(await sha256Of(tail)).toBe(expectedTail)

    await expectStoredOnce(target, objectName)
  })

  it('an aborted upload stays invisible, then resumes from its offset and completes', async () => {
    const objectName = `${alice.id}/quotes/resumed-${randomUUID()}.mp4`
    const urlStorage = new FileUrlStorage(path.join(workDir, `urls-${randomUUID()}.json`))
    const bucket = alice.client.storage.from('uploads')

    const first = new tus.Upload(createReadStream(mediumFile.path), { ...supabaseOptions(target, alice, objectName), urlStorage })
    await new Promise<void>((resolve, reject) => {
      first.options.onProgress = (sent) => {
        if (sent >= 8 * MiB) first.abort().then(resolve, reject)
      }
      first.options.onError = reject
      first.start()
    })

    expect((await bucket.list(`${alice.id}/quotes`, { search: 'resumed-' })).data).toEqual([])
    expect((await bucket.download(objectName)).error).toMatchObject({ statusCode: '404' })
    expect((await bucket.info(objectName)).error).toMatchObject({ statusCode: '404' })

    const methods: string[] = []
    let firstProgress: number | undefined
    const second = new tus.Upload(createReadStream(mediumFile.path), {
      ...supabaseOptions(target, alice, objectName),
      urlStorage,
      onBeforeRequest: (req) => void methods.push(req.getMethod()),
      onProgress: (sent) => void (firstProgress ??= sent),
    })
    const previous = await second.findPreviousUploads()
    expect(previous).toHaveLength(1)
    second.resumeFromPreviousUpload(previous[0]!)
    await run(second)

    expect(methods[0]).toBe('HEAD')
    expect(methods).not.toContain('POST')
    expect(firstProgress).toBeGreaterThanOrEqual(6 * MiB)
    expect(second.url).toBe(first.url)
    await expectIdentical(target, alice, objectName, mediumFile.sha256)
    await expectStoredOnce(target, objectName)
  })

  it('a PATCH with an expired token is refused, and a refreshed token continues the same upload', async ({ skip }) => {
    if (!target.running) skip('only the stand-in lets a test sign an expired token')
    const objectName = `${alice.id}/quotes/token-${randomUUID()}.mp4`
    let token = alice.accessToken
    const options = {
      ...supabaseOptions(target, alice, objectName),
      onBeforeRequest: (req: tus.HttpRequest) => req.setHeader('Authorization', `Bearer ${token}`),
    }
    const expired = await expiredCopyOf(alice.accessToken, target.running!.jwtSecret)
    const first = new tus.Upload(createReadStream(mediumFile.path), {
      ...options,
      onChunkComplete: () => void (token = expired),
    })
    const refusal = await run(first).then(
      () => undefined,
      (error: tus.DetailedError) => error,
    )
    expect(refusal?.originalResponse?.getStatus()).toBe(400)
    expect(JSON.parse(refusal!.originalResponse!.getBody())).toMatchObject({ statusCode: '403', message: 'jwt expired' })

    const { data } = await alice.client.auth.refreshSession()
    token = data.session!.access_token
    const resumed = new tus.Upload(createReadStream(mediumFile.path), { ...options, uploadUrl: first.url })
    await run(resumed)
    expect(resumed.url).toBe(first.url)
    await expectIdentical(target, alice, objectName, mediumFile.sha256)
    await expectStoredOnce(target, objectName)
  })

  it('an upload of unknown length and an empty one complete', async () => {
    const deferredName = `${alice.id}/quotes/deferred-${randomUUID()}.mp4`
    const bytes = randomBytes(7 * MiB + 123)
    await run(
      new tus.Upload(Readable.from([bytes.subarray(0, 4 * MiB), bytes.subarray(4 * MiB)]), {
        ...supabaseOptions(target, alice, deferredName),
        uploadLengthDeferred: true,
      }),
    )
    const deferred = await alice.client.storage.from('uploads').download(deferredName)
    expect(Buffer.from(await deferred.data!.arrayBuffer()).equals(bytes)).toBe(true)

    const emptyName = `${alice.id}/quotes/empty-${randomUUID()}.mp4`
    await run(new tus.Upload(Buffer.alloc(0), supabaseOptions(target, alice, emptyName)))
    expect((await alice.client.storage.from('uploads').info(emptyName)).data).toMatchObject({ size: 0 })
  })

  it('a terminated upload leaves nothing behind', async () => {
    const before = await resumableFiles(target)
    const objectName = `${alice.id}/quotes/terminated-${randomUUID()}.mp4`
    const upload = new tus.Upload(createReadStream(mediumFile.path), supabaseOptions(target, alice, objectName))
    await new Promise<void>((resolve, reject) => {
      upload.options.onChunkComplete = () => void upload.abort(true).then(resolve, reject)
      upload.options.onError = reject
      upload.start()
    })
    expect(await resumableFiles(target)).toEqual(before)
    const head = await fetch(upload.url!, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${alice.accessToken}`, 'tus-resumable': '1.0.0' },
    })
    expect([404, 410]).toContain(head.status)
  })

  it('a folder the policies refuse is refused at creation with 403, leaving nothing', async () => {
    const before = await resumableFiles(target)
    const objectName = `${alice.id}/videos/not-verified-${randomUUID()}.mp4`
    const error = await failure(new tus.Upload(randomBytes(MiB), supabaseOptions(target, alice, objectName)))
    expect(error.originalResponse?.getStatus()).toBe(403)
    expect(error.originalResponse?.getBody()).toBe('new row violates row-level security policy')
    expect(await resumableFiles(target)).toEqual(before)
    expect((await alice.client.storage.from('uploads').info(objectName)).error).toMatchObject({ statusCode: '404' })
  })

  it('an upload declared one byte over the bucket limit is refused at creation with 413', async () => {
    const options = await fetch(`${target.url}/storage/v1/upload/resumable`, { method: 'OPTIONS' })
    expect(options.headers.get('tus-extension')?.split(',')).toEqual(
      expect.arrayContaining(['creation', 'creation-with-upload', 'creation-defer-length', 'termination', 'expiration']),
    )

    const before = await resumableFiles(target)
    const objectName = `${alice.id}/quotes/too-big-${randomUUID()}.mp4`
    const upload = new tus.Upload(createReadStream(bigFile.path), {
      ...supabaseOptions(target, alice, objectName),
      uploadSize: UPLOADS_LIMIT + 1,
    })
    const error = await failure(upload)
    expect(error.originalResponse?.getStatus()).toBe(413)
    expect(await resumableFiles(target)).toEqual(before)
  })

  it('an upload of deferred length is refused with 413 by the PATCH that would pass the bucket limit', async () => {
    // avatars: 5 MiB. Chunks of 2 MiB: the third PATCH would take the upload to 6 MiB.
    const objectName = `${alice.id}/deferred-${randomUUID()}.png`
    const error = await failure(
      new tus.Upload(randomBytes(6 * MiB), {
        ...supabaseOptions(target, alice, objectName),
        metadata: { bucketName: 'avatars', objectName, contentType: 'image/png' },
        uploadLengthDeferred: true,
        chunkSize: 2 * MiB,
      }),
    )
    expect(error.originalResponse?.getStatus()).toBe(413)
    expect((await alice.client.storage.from('avatars').info(objectName)).error).toMatchObject({ statusCode: '404' })
  })

  it('a type the bucket does not allow is refused at creation with 415', async () => {
    const objectName = `${alice.id}/quotes/notes-${randomUUID()}.mp4`
    const upload = new tus.Upload(Buffer.from('not a video'), {
      ...supabaseOptions(target, alice, objectName),
      metadata: { bucketName: 'uploads', objectName, contentType: 'text/plain' },
    })
    const error = await failure(upload)
    expect(error.originalResponse?.getStatus()).toBe(415)
  })

  describe.runIf(targetName === 'stand-in')('on the stand-in', () => {
    it('hostile object names in Upload-Metadata are refused with 400 and nothing is written', async () => {
      const before = await storageFiles(target)
      const names = [
        `${alice.id}/quotes/../../../../etc/passwd.mp4`,
        `../../etc/passwd.mp4`,
        `${alice.id}/quotes/a\\b.mp4`,
        `${alice.id}/quotes/nul\u0000.mp4`,
        `${alice.id}/quotes/a%2fb.mp4`,
        `/${alice.id}/quotes/rooted.mp4`,
        `${alice.id}/quotes/${'a'.repeat(1000)}.mp4`,
      ]
      for (const objectName of names) {
        const error = await failure(new tus.Upload(randomBytes(1024), supabaseOptions(target, alice, objectName)))
        expect(error.originalResponse?.getStatus(), objectName).toBe(400)
        expect(error.originalResponse?.getBody(), objectName).toMatch(/^Invalid key/)
      }
      expect(await storageFiles(target)).toEqual(before)
    })

    it('an upload survives a server restart in the middle and completes identical', async () => {
      await restartScenario(target, alice, mediumFile)
    })

    it('a PATCH cut mid-body keeps every byte that arrived: the resumed client sends only the rest', async () => {
      const objectName = `${alice.id}/quotes/cut-${randomUUID()}.mp4`
      const bytes = await readFile(mediumFile.path)
      const headers = { authorization: `Bearer ${alice.accessToken}`, apikey: target.anonKey, 'tus-resumable': '1.0.0' }
      const created = await fetch(`${target.url}/storage/v1/upload/resumable`, {
        method: 'POST',
        headers: {
          ...headers,
          'upload-length': String(bytes.length),
          'upload-metadata': tusMetadata({ bucketName: 'uploads', objectName, contentType: 'video/mp4' }),
        },
      })
      expect(created.status).toBe(201)
      const uploadUrl = created.headers.get('location')!
      const version = /([0-9a-f-]{36})$/.exec(decodeLocation(target, uploadUrl))![1]!
      const dataFile = path.join(target.running!.dataDir, 'storage', 'resumable', version)
      const patch = (offset: number, body: Buffer) =>
        fetch(uploadUrl, {
          method: 'PATCH',
          headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          body: new Uint8Array(body),
        })
      const first = await patch(0, bytes.subarray(0, 6 * MiB))
      expect(first.headers.get('upload-offset')).toBe(String(6 * MiB))

      // The second 6 MiB chunk: half of it is sent, reaches the server's disk, and the connection is cut.
      const cut = request(uploadUrl, {
        method: 'PATCH',
        headers: {
          ...headers,
          'upload-offset': String(6 * MiB),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(6 * MiB),
        },
      })
      cut.on('error', () => {})
      cut.write(bytes.subarray(6 * MiB, 9 * MiB))
      await vi.waitFor(async () => expect((await stat(dataFile)).size).toBe(9 * MiB), { timeout: 15_000, interval: 50 })
      cut.destroy()

      const head = await fetch(uploadUrl, { method: 'HEAD', headers })
      expect(head.status).toBe(200)
      expect(head.headers.get('upload-offset')).toBe(String(9 * MiB))

      const offsets: string[] = []
      const resumed = new tus.Upload(createReadStream(mediumFile.path), {
        ...supabaseOptions(target, alice, objectName),
        uploadUrl,
        onBeforeRequest: (req) => void offsets.push(`${req.getMethod()} ${req.getHeader('Upload-Offset') ?? ''}`.trim()),
      })
      await run(resumed)
      // Nothing that had arrived is sent again: the first PATCH starts where the cut one stopped.
      expect(offsets.slice(0, 2)).toEqual(['HEAD', `PATCH ${9 * MiB}`])
      await expectIdentical(target, alice, objectName, mediumFile.sha256)
      await expectStoredOnce(target, objectName)
    })

    it.each(['a restart', 'the client resuming'])(
      'an upload whose bytes all arrived but whose row failed is finished by %s',
      async (finisher) => {
        const pool = target.running!.database.pool
        const objectName = `${alice.id}/quotes/outage-${randomUUID()}.mp4`
        await pool.query(`
          create function public.simulated_outage() returns trigger language plpgsql as $$
          begin
            raise exception 'simulated outage' using errcode = '58000';
          end $$;
          create trigger simulated_outage before insert on storage.objects
            for each row when (new.name like '%/outage-%' and new.version <> '1') execute function public.simulated_outage();`)
        // The failed finish is logged as the server error it is.
        const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
        const first = new tus.Upload(createReadStream(mediumFile.path), {
          ...supabaseOptions(target, alice, objectName),
          retryDelays: [],
        })
        const error = await failure(first)
        expect(error.originalResponse?.getStatus()).toBe(500)
        expect(logged).toHaveBeenCalled()
        expect((await alice.client.storage.from('uploads').info(objectName)).error).toMatchObject({ statusCode: '404' })
        await pool.query('drop trigger simulated_outage on storage.objects; drop function public.simulated_outage()')

        if (finisher === 'a restart') {
          await target.running!.restart()
          await expectIdentical(target, alice, objectName, mediumFile.sha256)
        }
        const methods: string[] = []
        const resumed = new tus.Upload(createReadStream(mediumFile.path), {
          ...supabaseOptions(target, alice, objectName),
          uploadUrl: first.url,
          onBeforeRequest: (req) => void methods.push(req.getMethod()),
        })
        await run(resumed)
        // The server answers HEAD with the full offset: nothing is sent again.
        expect(methods).toEqual(['HEAD'])
        await expectIdentical(target, alice, objectName, mediumFile.sha256)
        await expectStoredOnce(target, objectName)
      },
    )
  })
})

describe('resumable uploads on the stand-in with a PostgreSQL server', () => {
  let target: ContractTarget
  let alice: TestUser

  beforeAll(async () => {
    target = await openTarget('stand-in', { database: 'postgres' })
    alice = await createSignedInUser(target, 'alice')
  })

  afterAll(async () => {
    await target?.close()
  })

  it('an upload survives a server restart in the middle and completes identical', async () => {
    await restartScenario(target, alice, mediumFile)
  })
})

describe('the resumable upload store', () => {
  it('writes every byte of a body that fails midway, then passes its error on', async () => {
    const store = new ResumableStore(await mkdtemp(path.join(workDir, 'store-')), 0, () => ({ upsert: false }))
    const { id } = await store.create(new Upload({ id: randomUUID(), size: 8 * MiB, offset: 0 }))
    const bytes = randomBytes(3 * MiB + 5)
    const reset = new Error('connection reset')
    async function* body() {
      yield bytes.subarray(0, MiB)
      yield bytes.subarray(MiB, 3 * MiB)
      yield bytes.subarray(3 * MiB)
      throw reset
    }
    await expect(store.write(Readable.from(body()), id, 0)).rejects.toBe(reset)
    expect((await store.getUpload(id)).offset).toBe(bytes.length)
    expect((await readFile(store.dataPath(id))).equals(bytes)).toBe(true)

    // The next PATCH appends at that offset.
    expect(await store.write(Readable.from([Buffer.from('more')]), id, bytes.length)).toBe(bytes.length + 4)
    expect((await store.getUpload(id)).offset).toBe(bytes.length + 4)
  })
})

describe('the resumable upload lock', () => {
  it('asks the holder to let go and answers 423 Locked when it does not', async () => {
    const locker = new UploadLocker(200)
    let askedToRelease = 0
    const holder = locker.newLock('upload')
    await holder.lock(new AbortController().signal, () => void askedToRelease++)

    const contender = locker.newLock('upload')
    await expect(contender.lock(new AbortController().signal, () => {})).rejects.toMatchObject({ status: 423 })
    expect(askedToRelease).toBeGreaterThan(0)

    await holder.unlock()
    await contender.lock(new AbortController().signal, () => {})
    await contender.unlock()
  })

  it('hands the upload over as soon as the holder lets go', async () => {
    const locker = new UploadLocker(5_000)
    const holder = locker.newLock('upload')
    await holder.lock(new AbortController().signal, () => void setTimeout(() => void holder.unlock(), 20))
    const started = Date.now()
    const contender = locker.newLock('upload')
    await contender.lock(new AbortController().signal, () => {})
    expect(Date.now() - started).toBeLessThan(1_000)
    await contender.unlock()
  })
})

/** Supabase's documented tus-js-client settings for resumable uploads. */
function supabaseOptions(target: ContractTarget, user: TestUser, objectName: string): tus.UploadOptions {
  return {
    endpoint: `${target.url}/storage/v1/upload/resumable`,
    retryDelays: [0, 3000, 5000, 10000, 20000],
    headers: { authorization: `Bearer ${user.accessToken}`, apikey: target.anonKey },
    uploadDataDuringCreation: true,
    removeFingerprintOnSuccess: true,
    metadata: { bucketName: 'uploads', objectName, contentType: 'video/mp4', cacheControl: '3600' },
    chunkSize: 6 * MiB,
  }
}

function run(upload: tus.Upload): Promise<tus.OnSuccessPayload> {
  return new Promise((resolve, reject) => {
    upload.options.onSuccess = resolve
    upload.options.onError = reject
    upload.start()
  })
}

async function failure(upload: tus.Upload): Promise<tus.DetailedError> {
  const outcome = await run(upload).then(
    () => undefined,
    (error: tus.DetailedError) => error,
  )
  if (!outcome) throw new Error('the upload was expected to fail')
  return outcome
}

/** The restart case: the stand-in stops and starts again mid-upload; tus-js-client retries and resumes. */
async function restartScenario(target: ContractTarget, user: TestUser, file: { path: string; sha256: string }) {
  const objectName = `${user.id}/quotes/restarted-${randomUUID()}.mp4`
  let restart: Promise<void> | undefined
  const methods: string[] = []
  const upload = new tus.Upload(createReadStream(file.path), {
    ...supabaseOptions(target, user, objectName),
    onBeforeRequest: (req) => void methods.push(req.getMethod()),
    onProgress: (sent) => {
      if (sent >= 8 * MiB) restart ??= target.running!.restart()
    },
  })
  await run(upload)
  expect(restart).toBeDefined()
  await restart
  // Created once, resumed (HEAD for the offset) after the restart cut a PATCH.
  expect(methods.filter((method) => method === 'POST')).toHaveLength(1)
  expect(methods).toContain('HEAD')
  await expectIdentical(target, user, objectName, file.sha256)
  await expectStoredOnce(target, objectName)
}

/** TUS `Upload-Metadata`: comma-separated `key base64(value)` pairs. */
function tusMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',')
}

function decodeLocation(target: ContractTarget, location: string): string {
  const prefix = `${target.url}/storage/v1/upload/resumable/`
  expect(location.startsWith(prefix)).toBe(true)
  return Buffer.from(location.slice(prefix.length), 'base64url').toString('utf8')
}

async function sha256Of(response: Response): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk)
  return hash.digest('hex')
}

async function expectIdentical(target: ContractTarget, user: TestUser, objectName: string, sha256: string) {
  const response = await fetch(`${target.url}/storage/v1/object/authenticated/uploads/${objectName}`, {
    headers: { authorization: `Bearer ${user.accessToken}` },
  })
  expect(response.status).toBe(200)
  expect(await sha256Of(response)).toBe(sha256)
}

/** Exactly one row, and on the stand-in exactly one file: the row's version, with no upload data left behind. */
async function expectStoredOnce(target: ContractTarget, objectName: string) {
  if (!target.running) return
  const { rows } = await target.running.database.pool.query<{ version: string }>(
    "select version from storage.objects where bucket_id = 'uploads' and name = $1",
    [objectName],
  )
  expect(rows).toHaveLength(1)
  const storage = path.join(target.running.dataDir, 'storage')
  expect((await stat(path.join(storage, 'objects', 'uploads', rows[0]!.version))).isFile()).toBe(true)
  expect(await resumableFiles(target)).not.toContain(rows[0]!.version)
}

/** The stand-in's resumable upload folder: data files and their `.json` infos. */
async function resumableFiles(target: ContractTarget): Promise<string[]> {
  if (!target.running) return []
  return (await readdir(path.join(target.running.dataDir, 'storage', 'resumable'))).sort()
}

async function storageFiles(target: ContractTarget): Promise<string[]> {
  if (!target.running) return []
  const root = path.join(target.running.dataDir, 'storage')
  const entries = await readdir(root, { recursive: true })
  return entries.sort()
}
