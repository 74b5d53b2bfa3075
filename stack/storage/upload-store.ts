import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { FileStore } from '@tus/file-store'
import { ERRORS as TUS_ERRORS, Upload, type KvStore } from '@tus/server'
import { isVersion } from './disk'

/**
 * Where resumable uploads wait until they are complete: `@tus/file-store`
 * in `<dataDir>/storage/resumable/`, one data file named by the upload's
 * version UUID next to its `<version>.json` info. The upload id is the
 * version the object will get, so the id → file mapping is the file name
 * itself and survives restarts.
 *
 * On top of FileStore: the info also records who created the upload (its
 * owner) and the `x-upsert` flag, so an upload whose bytes all arrived can
 * still be finished after a crash; and once finished ("finalized", the data
 * file moved to `objects/`) the info stays until expiry, so a client that
 * missed the last response learns from HEAD that the upload is complete.
 *
 * Every byte a PATCH delivered is kept, also when the request fails midway
 * (connection cut, body over the limit): the data file's size is the
 * offset HEAD reports, so a resumed client sends again only what never
 * arrived — at most the chunk in flight, never a chunk already answered.
 */
export interface UploadInfo {
  id: string
  size?: number
  offset: number
  metadata?: Record<string, string | null>
  creation_date?: string
  owner?: string
  upsert?: boolean
  finalized?: boolean
}

/** The upload infos as JSON files, written atomically (temp file, then rename). */
export class UploadInfoStore implements KvStore<Upload> {
  constructor(private readonly directory: string) {}

  private file(id: string): string {
    if (!isVersion(id)) throw TUS_ERRORS.FILE_NOT_FOUND
    return path.join(this.directory, `${id}.json`)
  }

  async get(id: string): Promise<Upload | undefined> {
    if (!isVersion(id)) return undefined
    try {
      return JSON.parse(await readFile(this.file(id), 'utf8')) as Upload
    } catch {
      return undefined
    }
  }

  async set(id: string, value: Upload | UploadInfo): Promise<void> {
    const temp = path.join(this.directory, `.${randomUUID()}.tmp`)
    await writeFile(temp, JSON.stringify(value))
    await rename(temp, this.file(id))
  }

  async delete(id: string): Promise<void> {
    await unlink(this.file(id)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }

  async list(): Promise<string[]> {
    const names = await readdir(this.directory).catch(() => [] as string[])
    return names
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .filter(isVersion)
  }
}

/** How many received bytes may wait in memory for the disk, per upload being written. */
const WRITE_BATCH_BYTES = 1024 * 1024

export class ResumableStore extends FileStore {
  readonly infos: UploadInfoStore

  constructor(
    directory: string,
    expirationPeriodInMilliseconds: number,
    /** Who is creating the upload right now (read from the request context). */
    private readonly creator: () => { owner?: string; upsert: boolean },
  ) {
    const infos = new UploadInfoStore(directory)
    super({ directory, configstore: infos, expirationPeriodInMilliseconds })
    this.infos = infos
  }

  dataPath(id: string): string {
    if (!isVersion(id)) throw TUS_ERRORS.FILE_NOT_FOUND
    return path.join(this.directory, id)
  }

  async info(id: string): Promise<UploadInfo | undefined> {
    return (await this.infos.get(id)) as UploadInfo | undefined
  }

  override async create(upload: Upload): Promise<Upload> {
    const filePath = this.dataPath(upload.id)
    await mkdir(this.directory, { recursive: true })
    await writeFile(filePath, '', { flag: 'wx' })
    const info: UploadInfo = { ...upload, ...this.creator() }
    await this.infos.set(upload.id, info)
    upload.storage = { type: 'file', path: filePath }
    return upload
  }

  /** FileStore's, reading the info once (its own reads it twice): the offset is the data file's size. */
  override async getUpload(id: string): Promise<Upload> {
    const info = await this.info(id)
    if (!info) throw TUS_ERRORS.FILE_NOT_FOUND
    const upload = { id, size: info.size, metadata: info.metadata, creation_date: info.creation_date }
    if (info.finalized) return new Upload({ ...upload, offset: info.size ?? 0 })
    const filePath = this.dataPath(id)
    const stats = await stat(filePath).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? TUS_ERRORS.FILE_NO_LONGER_EXISTS : error
    })
    return new Upload({ ...upload, offset: stats.size, storage: { type: 'file', path: filePath } })
  }

  /**
   * Appends a PATCH body at `offset`, in large batches: while one write is
   * on its way to the disk, the bytes arriving meanwhile (up to
   * WRITE_BATCH_BYTES) queue and go down together in the next `writev`,
   * where FileStore's 16 KiB buffer made one disk write per network read.
   * When the body fails (client gone, over the limit) the bytes already
   * received are still written before the error goes on; when the disk
   * fails, the rest of the body is read and dropped, then the disk's error
   * goes on (ENOSPC → 507).
   */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const out = createWriteStream(this.dataPath(id), { flags: 'r+', start: offset, highWaterMark: WRITE_BATCH_BYTES })
    const opened = await once(out, 'ready').then(
      () => true,
      async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
        // A finished upload has no data file left; the handler already refused any byte past its size.
        if ((await this.info(id))?.finalized) return false
        throw TUS_ERRORS.FILE_NOT_FOUND
      },
    )
    if (!opened) return offset
    const written = finished(out)
    // Awaited below; until then a disk failure must not count as an unhandled rejection.
    written.catch(() => {})
    let bodyError: unknown
    try {
      for await (const chunk of readable) {
        // The disk failed: the rest of this PATCH is read and dropped (the body is bounded by the
        // upload's size), so that its client reads the 507 — a connection closed mid-body reaches
        // most clients as a network failure, the error unread, as respondAfterBody says.
        if (out.errored) continue
        if (!out.write(chunk)) await once(out, 'drain').catch(() => {})
      }
    } catch (error) {
      bodyError = error
    }
    if (!out.errored) out.end()
    await written
    if (bodyError) throw bodyError
    return offset + out.bytesWritten
  }

  override async remove(id: string): Promise<void> {
    await unlink(this.dataPath(id)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
    await this.infos.delete(id)
  }

  /** The number of bytes received so far, or undefined when the data file is gone. */
  async receivedBytes(id: string): Promise<number | undefined> {
    return stat(this.dataPath(id)).then(
      (stats) => stats.size,
      () => undefined,
    )
  }

  async markFinalized(id: string) {
    const info = await this.info(id)
    if (info) await this.infos.set(id, { ...info, offset: info.size ?? info.offset, finalized: true })
  }

  /** Removes unfinished uploads older than the expiration, and the infos of finished ones. */
  override async deleteExpired(): Promise<number> {
    const expiration = this.getExpiration()
    if (expiration <= 0) return 0
    const now = Date.now()
    let removed = 0
    for (const id of await this.infos.list()) {
      const info = await this.info(id)
      if (!info?.creation_date || new Date(info.creation_date).getTime() + expiration > now) continue
      if (info.finalized) await this.infos.delete(id)
      else await this.remove(id)
      removed++
    }
    return removed
  }
}
