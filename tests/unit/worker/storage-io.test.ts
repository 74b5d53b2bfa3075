import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStorageIO, objectFor, type PlannedObject, type StorageApi } from '../../../worker/storage-io'
import type { MediaTarget } from '../../../worker/targets'
import type { TranscodeResult } from '../../../worker/transcode'

/** Storage I/O alone, over a Storage API in memory. */

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'storage-io-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function fakeStorage(objects: Record<string, string> = {}, failRemove = false) {
  const written: string[] = []
  const api = {
    from: (bucket: string) => ({
      upload: async (name: string, body: Blob) => {
        written.push(`${bucket}/${name}`)
        objects[`${bucket}/${name}`] = await body.text()
        return { error: null }
      },
      download: (name: string) => {
        const text = objects[`${bucket}/${name}`]
        const result = text === undefined ? { data: null, error: new Error('Object not found') } : { data: new Blob([text]), error: null }
        return Object.assign(Promise.resolve(result), {
          asStream: async () =>
            text === undefined ? result : { data: new Blob([text]).stream(), error: null },
        })
      },
      remove: async (names: string[]) => {
        if (failRemove) return { error: new Error('storage down') }
        for (const name of names) delete objects[`${bucket}/${name}`]
        return { error: null }
      },
    }),
  }
  return { storage: api as unknown as StorageApi, written, objects }
}

const target = { kind: 'video', mediaPrefix: 'videos/v1' } as MediaTarget

describe('Storage I/O', () => {
  it('uploads a transcode with the master playlist last, the poster of a video to thumbnails', async () => {
    const out = path.join(dir, 'out')
    await rm(out, { recursive: true, force: true })
    await import('node:fs/promises').then((fs) => fs.mkdir(path.join(out, 'hls', '360p'), { recursive: true }))
    const names = ['hls/master.m3u8', 'hls/360p/index.m3u8', 'hls/360p/0.ts', 'poster.jpg']
    for (const name of names) await writeFile(path.join(out, name), name)
    const result = {
      dir: out,
      master: 'hls/master.m3u8',
      files: names.map((name) => ({ path: name, contentType: 'application/octet-stream', sizeBytes: name.length })),
    } as unknown as TranscodeResult
    const { storage, written, objects } = fakeStorage()
    const io = createStorageIO({ storage, maxBytes: 1000, warn: () => {}, lanes: 2 })
    const uploaded: PlannedObject[] = []
    await io.uploadResult(target, result, 'posters/v1.jpg', new AbortController().signal, uploaded)
    expect(written.at(-1)).toBe('media/videos/v1/hls/master.m3u8')
    expect(written).toContain('thumbnails/posters/v1.jpg')
    expect(uploaded).toHaveLength(4)
    expect(objects['media/videos/v1/hls/360p/0.ts']).toBe('hls/360p/0.ts')
  })

  it('downloads an upload to a file, and answers false for one over the limit', async () => {
    const { storage } = fakeStorage({ 'uploads/small': 'tiny', 'uploads/big': 'x'.repeat(50) })
    const io = createStorageIO({ storage, maxBytes: 10, warn: () => {} })
    const file = path.join(dir, 'small')
    expect(await io.download('small', file, new AbortController().signal)).toBe(true)
    expect(await readFile(file, 'utf8')).toBe('tiny')
    expect(await io.download('big', path.join(dir, 'big'), new AbortController().signal)).toBe(false)
    await expect(io.download('missing', path.join(dir, 'missing'), new AbortController().signal)).rejects.toThrow(
      'could not download uploads/missing: Object not found',
    )
  })

  it('removal is best effort: a failure is reported, never thrown', async () => {
    const warnings: string[] = []
    const { storage } = fakeStorage({}, true)
    const io = createStorageIO({ storage, maxBytes: 10, warn: (message) => warnings.push(message) })
    await io.removeObjects([objectFor(target, { path: 'hls/master.m3u8', contentType: 'x', sizeBytes: 1 }, 'p.jpg')])
    expect(warnings).toEqual(['could not remove 1 orphaned objects from media: storage down'])
  })
})
