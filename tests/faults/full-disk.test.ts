import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, haveBuild, readKeys, startServer, tempDataDir, type RunningServer } from './support/processes'

/**
 * ADR 0017: the disk under the storage folder fills up during an upload.
 * The storage folder is a 16 MB tmpfs mounted for the test (root only; the
 * test is skipped where mounting is not allowed). A plain upload and a
 * resumable (TUS) one each larger than the space left get a clear 507;
 * neither leaves an object, a row, a temp or a partial file; the server
 * keeps answering and stores files again once they fit.
 */
const run = promisify(execFile)
const MB = 1024 * 1024
const canMount = process.getuid?.() === 0 && process.platform === 'linux'

describe.skipIf(!haveBuild() || !canMount)('a full disk during uploads', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>
  let server: RunningServer
  let storage: string
  let key: string

  beforeAll(async () => {
    data = await tempDataDir('full-disk')
    const dataDir = path.join(data.dir, 'data')
    storage = path.join(dataDir, 'storage')
    await mkdir(storage, { recursive: true })
    await run('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'lumen-full-disk', storage])
    server = await startServer({ dataDir, port: await freePort() })
    key = (await readKeys(dataDir)).serviceRoleKey
  })
  afterAll(async () => {
    await server?.kill('SIGKILL')
    if (storage) await run('umount', ['-l', storage]).catch(() => {})
    await data?.remove()
  })

  const put = (name: string, body: Buffer) =>
    fetch(`${server.url}/storage/v1/object/uploads/${name}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'video/mp4' },
      body: new Uint8Array(body),
    })
  const listed = async () => {
    const response = await fetch(`${server.url}/storage/v1/object/list/uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prefix: 'disk', limit: 100 }),
    })
    return ((await response.json()) as { name: string }[]).map((object) => object.name).sort()
  }
  const filesIn = async (folder: string) =>
    (await readdir(path.join(storage, folder), { recursive: true, withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)

  it('refuses a plain upload that does not fit with a clear 507, leaving nothing behind', async () => {
    expect((await put('disk/small.mp4', randomBytes(1 * MB))).status).toBe(200)

    const response = await put('disk/large.mp4', randomBytes(24 * MB))
    expect(response.status).toBe(507)
    expect(await response.json()).toMatchObject({
      statusCode: '507',
      code: 'InsufficientStorage',
      message: expect.stringContaining('no space left') as unknown,
    })
    expect(await listed()).toEqual(['small.mp4'])
    expect(await filesIn('objects')).toHaveLength(1)
    expect(await filesIn('tmp')).toEqual([])
  })

  it('refuses a resumable upload that does not fit with a clear 507 and drops its partial bytes', async () => {
    const error = await new Promise<tus.DetailedError>((resolve, reject) => {
      const upload = new tus.Upload(randomBytes(24 * MB), {
        endpoint: `${server.url}/storage/v1/upload/resumable`,
        headers: { authorization: `Bearer ${key}`, apikey: key },
        metadata: { bucketName: 'uploads', objectName: 'disk/resumable.mp4', contentType: 'video/mp4' },
        chunkSize: 6 * MB,
        retryDelays: [],
        onError: (failure) => resolve(failure as tus.DetailedError),
        onSuccess: () => reject(new Error('the upload should not fit')),
      })
      upload.start()
    })
    expect(error.originalResponse?.getStatus()).toBe(507)
    expect(error.originalResponse?.getBody()).toContain('no space left')
    expect(await listed()).toEqual(['small.mp4'])
    expect(await filesIn('objects')).toHaveLength(1)
    expect(await filesIn('resumable')).toEqual([])
  })

  it('keeps serving pages, and stores files again once they fit', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
    expect((await fetch(`${server.url}/`)).status).toBe(200)
    expect((await put('disk/after.mp4', randomBytes(2 * MB))).status).toBe(200)
    expect(await listed()).toEqual(['after.mp4', 'small.mp4'])
    expect(server.child.exitCode).toBeNull()
  })
})
