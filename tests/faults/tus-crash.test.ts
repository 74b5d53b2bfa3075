import { createHash, randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, haveBuild, readKeys, startServer, tempDataDir, type RunningServer } from './support/processes'

/**
 * ADR 0017: `npm start` SIGKILLed in the middle of a 100 MB resumable
 * upload; started again, a new client resumes it from where the server's
 * file ends — losing at most the chunk that was in flight (docs/performance.md, TUS uploads):
 * the same sha256, one object row, one stored file.
 */
const MB = 1_000_000
const SIZE = 100 * MB
const MiB = 1024 * 1024
const CHUNK_SIZE = 8 * MiB

describe.skipIf(!haveBuild())('SIGKILL during a 100 MB TUS upload', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>
  let server: RunningServer
  let source: string
  let hash: string

  beforeAll(async () => {
    data = await tempDataDir('tus-crash')
    source = path.join(data.dir, 'lecture.mp4')
    const bytes = randomBytes(SIZE)
    hash = createHash('sha256').update(bytes).digest('hex')
    await writeFile(source, bytes)
    server = await startServer({ dataDir: path.join(data.dir, 'data'), port: await freePort() })
  })
  afterAll(async () => {
    await server?.kill('SIGKILL')
    await data?.remove()
  })

  const options = (url: string, key: string): tus.UploadOptions => ({
    endpoint: `${url}/storage/v1/upload/resumable`,
    headers: { authorization: `Bearer ${key}`, apikey: key },
    metadata: { bucketName: 'uploads', objectName: 'crash/lecture.mp4', contentType: 'video/mp4' },
    chunkSize: CHUNK_SIZE,
    retryDelays: [],
  })

  it('resumes on the restarted server from a new client: same hash, one row, one file', async () => {
    const { serviceRoleKey } = await readKeys(server.dataDir)
    let killedAt = 0
    const first = new tus.Upload(createReadStream(source), {
      ...options(server.url, serviceRoleKey),
      onProgress(sent) {
        if (!killedAt && sent > 40 * MB) {
          killedAt = sent
          server.child.kill('SIGKILL')
        }
      },
    })
    await new Promise<void>((resolve) => {
      first.options.onError = () => resolve()
      first.options.onSuccess = () => resolve()
      first.start()
    })
    expect(killedAt).toBeGreaterThan(0)
    expect(await server.exited).toMatchObject({ signal: 'SIGKILL' })
    const uploadUrl = first.url!

    server = await startServer({ dataDir: server.dataDir, port: server.port })
    let resumedFrom: number | undefined
    const second = new tus.Upload(createReadStream(source), {
      ...options(server.url, serviceRoleKey),
      uploadUrl,
      onAfterResponse(req, res) {
        if (req.getMethod() === 'HEAD') resumedFrom = Number(res.getHeader('Upload-Offset'))
      },
    })
    await new Promise<void>((resolve, reject) => {
      second.options.onError = reject
      second.options.onSuccess = () => resolve()
      second.start()
    })
    // It went on from the bytes the killed server had kept: of what the first client had sent, at
    // most the chunk in flight is sent again (every answered chunk was on disk).
    expect(resumedFrom).toBeGreaterThanOrEqual(killedAt - CHUNK_SIZE)

    const download = await fetch(`${server.url}/storage/v1/object/uploads/crash/lecture.mp4`, {
      headers: { Authorization: `Bearer ${serviceRoleKey}` },
    })
    expect(download.status).toBe(200)
    expect(
      createHash('sha256')
        .update(Buffer.from(await download.arrayBuffer()))
        .digest('hex'),
    ).toBe(hash)

    const listed = await fetch(`${server.url}/storage/v1/object/list/uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prefix: 'crash', limit: 100 }),
    })
    expect(((await listed.json()) as { name: string }[]).map((object) => object.name)).toEqual(['lecture.mp4'])
    expect(await readdir(path.join(server.dataDir, 'storage/objects/uploads'))).toHaveLength(1)
    const leftovers = (await readdir(path.join(server.dataDir, 'storage/resumable'))).filter((name) => !name.endsWith('.json'))
    expect(leftovers).toEqual([])
  })
})
