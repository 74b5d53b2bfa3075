import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream, constants as fsConstants } from 'node:fs'
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ERRORS } from './errors'
import { mustBeValidBucketName } from './names'

/**
 * Where object bytes live: `<dataDir>/storage/objects/<bucket>/<version>`,
 * one file per object version, named by the server-generated version UUID
 * that `storage.objects.version` records. Object names never become paths,
 * so no name (`../..`, `%2f`, NUL, 1 KB long) can reach outside the root or
 * collide with another; the database maps names to versions.
 *
 * New bytes are streamed into `tmp/` (standard uploads) or `resumable/`
 * (TUS) on the same file system and renamed into place only once complete,
 * so a reader never sees half a file and an aborted upload leaves nothing
 * under `objects/`.
 */
const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function isVersion(value: unknown): value is string {
  return typeof value === 'string' && VERSION.test(value)
}

export class ObjectFiles {
  readonly objectsDir: string
  readonly tmpDir: string
  readonly resumableDir: string

  constructor(readonly root: string) {
    this.objectsDir = path.join(root, 'objects')
    this.tmpDir = path.join(root, 'tmp')
    this.resumableDir = path.join(root, 'resumable')
  }

  /** Creates the folders; temp files left by a crash are garbage (their uploads never got a row). */
  async init() {
    await rm(this.tmpDir, { recursive: true, force: true })
    await Promise.all([this.objectsDir, this.tmpDir, this.resumableDir].map((dir) => mkdir(dir, { recursive: true })))
  }

  pathOf(bucket: string, version: string): string {
    mustBeValidBucketName(bucket)
    if (!isVersion(version)) throw ERRORS.noSuchKey()
    return path.join(this.objectsDir, bucket, version)
  }

  /**
   * Streams `source` into a new temp file, stopping at `limit + 1` bytes with
   * EntityTooLarge. On any failure the temp file is gone before this throws.
   */
  async receive(source: Readable, limit: number): Promise<{ tempPath: string; size: number }> {
    const tempPath = path.join(this.tmpDir, randomUUID())
    let size = 0
    const limiter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length
        callback(size > limit ? ERRORS.entityTooLarge() : null, chunk)
      },
    })
    try {
      await pipeline(source, limiter, createWriteStream(tempPath, { flags: 'wx' }))
    } catch (error) {
      await unlink(tempPath).catch(() => {})
      throw error
    }
    return { tempPath, size }
  }

  /** Copies an object version into a new temp file (a reflink where the file system can). */
  async copyToTemp(bucket: string, version: string): Promise<string> {
    const tempPath = path.join(this.tmpDir, randomUUID())
    await copyFile(this.pathOf(bucket, version), tempPath, fsConstants.COPYFILE_FICLONE)
    return tempPath
  }

  /** Atomically moves a complete file (temp or resumable) to its place. */
  async place(fromPath: string, bucket: string, version: string) {
    const target = this.pathOf(bucket, version)
    await mkdir(path.dirname(target), { recursive: true })
    await rename(fromPath, target)
  }

  /** Undoes `place` when the row that was to point at the file could not be committed. */
  async unplace(bucket: string, version: string, backTo: string) {
    await rename(this.pathOf(bucket, version), backTo)
  }

  async exists(bucket: string, version: string): Promise<boolean> {
    return stat(this.pathOf(bucket, version)).then(
      () => true,
      () => false,
    )
  }

  async stat(bucket: string, version: string) {
    try {
      return await stat(this.pathOf(bucket, version))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw ERRORS.noSuchKey()
      throw error
    }
  }

  read(bucket: string, version: string, range?: { start: number; end: number }) {
    return createReadStream(this.pathOf(bucket, version), range)
  }

  async remove(bucket: string, version: string | null | undefined) {
    if (!isVersion(version)) return
    await unlink(this.pathOf(bucket, version)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }

  async discard(tempPath: string) {
    await unlink(tempPath).catch(() => {})
  }

  async removeBucket(bucket: string) {
    mustBeValidBucketName(bucket)
    await rm(path.join(this.objectsDir, bucket), { recursive: true, force: true })
  }
}
