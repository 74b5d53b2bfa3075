import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
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
    return names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length)).filter(isVersion)
  }
}

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

  override async getUpload(id: string): Promise<Upload> {
    const info = await this.info(id)
    if (!info) throw TUS_ERRORS.FILE_NOT_FOUND
    if (!info.finalized) return super.getUpload(id)
    return new Upload({
      id,
      size: info.size,
      offset: info.size ?? 0,
      metadata: info.metadata,
      creation_date: info.creation_date,
    })
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    // A finished upload has no data file left; the handler already refused any byte past its size.
    if ((await this.info(id))?.finalized) return offset
    return super.write(readable, id, offset)
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
