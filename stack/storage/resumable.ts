import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { rename } from 'node:fs/promises'
import type { Request, Response } from 'express'
import { ERRORS as TUS_ERRORS, Server, type Upload } from '@tus/server'
import { requireCaller, type Caller } from './caller'
import { asService, checkCanWrite, mustFindBucket, selectObject, type BucketRow } from './database'
import { isVersion } from './disk'
import { logServerError, sendError, StorageError, toStorageError } from './errors'
import { truthyHeader } from './http'
import { respondAfterBody } from './incoming'
import { mustBeValidBucketName, mustBeValidObjectName } from './names'
import { PgUploadLocker } from './pg-upload-locker'
import { UploadLocker } from './upload-locker'
import { ResumableStore, type UploadInfo } from './upload-store'
import { fileSizeLimit, objectMetadata, storeObject, validateMimeType, type StorageServices } from './uploader'

/**
 * Resumable uploads at `/storage/v1/upload/resumable`, TUS 1.0.0 on
 * `@tus/server` + `@tus/file-store`, wired the way Supabase Storage wires
 * them (`src/http/routes/tus/lifecycle.ts`):
 *
 * - `Upload-Metadata` names `bucketName` and `objectName` (required),
 *   `contentType` (checked against the bucket), `cacheControl`, `metadata`.
 * - The upload id is the object's future version; the Location is
 *   `<url>/storage/v1/upload/resumable/<base64url("bucket/name/version")>`.
 * - POST, PATCH and DELETE run the write check as the caller (rolled back);
 *   the bucket's size limit is `Tus-Max-Size` and refuses larger uploads at
 *   creation; the JWT is checked on every request, so a refreshed token
 *   continues the same upload.
 * - When the last byte arrives the row is written and the file moved into
 *   `objects/` in one transaction (`Tus-Complete: 1`); until then the object
 *   does not exist for anyone.
 * - Incomplete uploads expire after 24 hours.
 */
const RESUMABLE_PATH = '/storage/v1/upload/resumable'
const EXPIRATION_MS = 24 * 60 * 60 * 1000
const CLEANUP_INTERVAL_MS = 60 * 60 * 1000

interface TusRequest {
  caller: Caller
  upsert: boolean
  /** Bucket and object name, from Upload-Metadata (creation) or the upload URL. */
  target?: { bucket: string; name: string }
  bucket?: BucketRow
  /** The upload a PATCH writes to. */
  uploadId?: string
  /** The size the PATCHed upload declared at creation (checked then against the bucket's limit). */
  declaredSize?: number
}

export interface ResumableUploads {
  handle(req: Request, res: Response): Promise<void>
  close(): Promise<void>
}

export async function createResumableUploads(services: StorageServices): Promise<ResumableUploads> {
  const { pool, files } = services
  const requests = new AsyncLocalStorage<TusRequest>()
  const current = (): TusRequest => {
    const request = requests.getStore()
    if (!request) throw new Error('resumable upload hook ran outside a request')
    return request
  }

  const store = new ResumableStore(files.resumableDir, EXPIRATION_MS, () => {
    const { caller, upsert } = current()
    return { owner: caller.owner, upsert }
  })

  /** Finishing and recovering an upload never run twice at once for the same id. */
  const running = new Map<string, Promise<void>>()
  const exclusive = (id: string, work: () => Promise<void>): Promise<void> => {
    const next = (running.get(id) ?? Promise.resolve()).then(work)
    const settled: Promise<void> = next
      .catch(() => {})
      .finally(() => {
        if (running.get(id) === settled) running.delete(id)
      })
    running.set(id, settled)
    return next
  }

  /**
   * Stores a fully received upload as its object: row and file together
   * (uploader.ts), then marks the upload finished. If the object may not be
   * stored (it exists and this is no upsert, the bucket is gone…), the
   * upload is dropped: a refused upload leaves no bytes behind. A server
   * failure keeps it, to be finished on the client's next HEAD.
   */
  async function finish(id: string, info: UploadInfo) {
    const { bucket, name } = targetOf(info)
    const size = info.size ?? 0
    try {
      await mustFindBucket(pool, bucket)
      await storeObject(
        services,
        {
          bucket,
          name,
          version: id,
          owner: info.owner,
          sourcePath: store.dataPath(id),
          metadata: objectMetadata(id, size, info.metadata?.contentType || 'application/octet-stream', cacheControlOf(info)),
          userMetadata: userMetadataOf(info),
          upsert: Boolean(info.upsert),
        },
        { discardOnFailure: false },
      )
    } catch (error) {
      const storageError = toStorageError(error)
      if (storageError.status < 500) await store.remove(id)
      throw storageError
    }
    await store.markFinalized(id)
  }

  const finalize = (id: string) =>
    exclusive(id, async () => {
      const info = await store.info(id)
      if (info && !info.finalized) await finish(id, info)
    })

  /**
   * Brings an upload whose bytes all arrived to the finished state after a
   * crash or a failed finish: finishes it, or — when the process died
   * between moving the file and committing its row — puts the file back
   * first. Unfinished and finished uploads are left as they are.
   */
  const recover = (id: string) =>
    exclusive(id, async () => {
      const info = await store.info(id)
      if (!info || info.finalized || info.size === undefined) return
      const received = await store.receivedBytes(id)
      if (received === undefined) {
        const { bucket, name } = targetOf(info)
        if (!(await files.exists(bucket, id))) return
        const row = await asService(pool, (client) => selectObject(client, bucket, name))
        if (row?.version === id) {
          await store.markFinalized(id)
          return
        }
        await rename(files.pathOf(bucket, id), store.dataPath(id))
      } else if (received !== info.size) {
        return
      }
      await finish(id, info)
    })

  // One process (PGlite): locks in memory. A server: in Postgres, shared by every process.
  const locker = (pool.options.max ?? 10) > 1 ? new PgUploadLocker(pool) : new UploadLocker()

  const tus = new Server({
    path: RESUMABLE_PATH,
    datastore: store,
    locker,
    disableTerminationForFinishedUploads: true,
    allowedHeaders: ['apikey', 'x-upsert', 'x-client-info', 'x-signature'],
    exposedHeaders: ['Tus-Complete', 'Upload-Expires'],

    namingFunction(_req, metadata) {
      const bucket = metadata?.bucketName
      const name = metadata?.objectName
      mustBeValidBucketName(bucket)
      mustBeValidObjectName(name)
      current().target = { bucket, name }
      return randomUUID()
    },

    generateUrl(_req, { id, proto, host }) {
      const target = current().target!
      return `${uploadOrigin(services.publicUrl, proto, host)}${RESUMABLE_PATH}/${Buffer.from(`${target.bucket}/${target.name}/${id}`).toString('base64url')}`
    },

    getFileIdFromRequest(_req, lastPath) {
      if (!lastPath) return undefined
      const decoded = Buffer.from(lastPath, 'base64url').toString('utf8')
      const version = decoded.slice(decoded.lastIndexOf('/') + 1)
      const target = decoded.slice(0, decoded.lastIndexOf('/'))
      const slash = target.indexOf('/')
      if (!isVersion(version) || slash <= 0) return undefined
      current().target = { bucket: target.slice(0, slash), name: target.slice(slash + 1) }
      return version
    },

    async maxSize(_req, id) {
      if (!id) return services.globalFileSizeLimit
      const request = current()
      // A PATCH can never take an upload past the size it declared, and that size passed the bucket's
      // limit at creation: no bucket lookup for each chunk. Uploads of deferred length still look it up.
      if (request.declaredSize !== undefined) return request.declaredSize
      request.bucket ??= await mustFindBucket(pool, request.target!.bucket)
      return fileSizeLimit(services, request.bucket)
    },

    async onIncomingRequest(req, id) {
      const request = current()
      if (req.method === 'POST') {
        const { bucket, name } = request.target!
        await checkCanWrite(pool, request.caller, { bucket, name, upsert: request.upsert })
        return
      }
      const info = await store.info(id)
      if (!info) return
      const { bucket, name } = targetOf(info)
      if (request.target?.bucket !== bucket || request.target.name !== name) throw TUS_ERRORS.FILE_NOT_FOUND
      if (req.method === 'HEAD') {
        await recover(id)
        return
      }
      if (info.finalized) return
      if (req.method === 'PATCH') {
        request.uploadId = id
        if (info.size !== undefined && !req.headers.has('upload-length')) request.declaredSize = info.size
      }
      await checkCanWrite(pool, request.caller, { bucket, name, upsert: Boolean(info.upsert) })
    },

    async onUploadCreate(_req, upload) {
      const bucket = current().bucket!
      const metadata = { ...upload.metadata }
      metadata.cacheControl = /^-?\d+$/.test(metadata.cacheControl ?? '') ? `max-age=${metadata.cacheControl}` : 'no-cache'
      // Stricter than Storage, which skips the check without a contentType; one well-formed type only.
      metadata.contentType = validateMimeType(metadata.contentType || 'application/octet-stream', bucket.allowed_mime_types)
      return { metadata }
    },

    async onUploadFinish(_req, upload: Upload) {
      await finalize(upload.id)
      return { headers: { 'Tus-Complete': '1' } }
    },

    async onResponseError(_req, error) {
      if (!(error instanceof StorageError) && 'status_code' in error) return undefined
      const storageError = toStorageError(error)
      if (storageError.status === 500) logServerError(storageError)
      const { uploadId } = requests.getStore() ?? {}
      if (storageError.code === 'InsufficientStorage' && uploadId) {
        // The disk is full: keeping the bytes received so far would keep it full for everyone, and
        // nothing could be resumed anyway. The upload is dropped whole; its client starts again later.
        await store.remove(uploadId).catch(warnRecovery(uploadId))
      }
      return { status_code: storageError.status, body: storageError.message }
    },
  })

  await Promise.all((await store.infos.list()).map((id) => recover(id).catch(warnRecovery(id))))
  await tus.cleanUpExpiredUploads()
  const cleanup = setInterval(() => {
    tus.cleanUpExpiredUploads().catch((error) => console.warn('[storage] expired upload cleanup failed:', error))
  }, CLEANUP_INTERVAL_MS)
  cleanup.unref()

  return {
    async handle(req, res) {
      if (req.method === 'OPTIONS') {
        await tus.handle(req, res)
        return
      }
      let caller: Caller
      try {
        caller = await requireCaller(services, req)
      } catch (error) {
        respondAfterBody(req, res, () => sendError(res, error))
        return
      }
      await requests
        .run({ caller, upsert: truthyHeader(req.headers['x-upsert']) }, () => tus.handle(req, res))
        .catch((error) => sendError(res, error))
    },
    async close() {
      clearInterval(cleanup)
      await Promise.allSettled(running.values())
      if (locker instanceof PgUploadLocker) await locker.close()
    },
  }
}

function targetOf(info: UploadInfo): { bucket: string; name: string } {
  const bucket = info.metadata?.bucketName
  const name = info.metadata?.objectName
  if (!bucket || !name) throw TUS_ERRORS.FILE_NOT_FOUND
  return { bucket, name }
}

function cacheControlOf(info: UploadInfo): string {
  return info.metadata?.cacheControl || 'no-cache'
}

function userMetadataOf(info: UploadInfo): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(info.metadata?.metadata ?? 'null')
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function warnRecovery(id: string) {
  return (error: unknown) => console.warn(`[storage] resumable upload ${id} could not be finished:`, (error as Error).message)
}

/**
 * The origin an upload's Location names: the address the client sent its
 * creation to (its Host), so a page opened at 127.0.0.1, a LAN name or a
 * proxy's host name goes on uploading to the origin its Content-Security-Policy
 * allows — not PUBLIC_URL's `localhost`. PUBLIC_URL itself when the Host is
 * its host (keeping its https behind a TLS proxy) or is not a plain host name.
 */
export function uploadOrigin(publicUrl: string, proto: string, host: string | undefined): string {
  const configured = new URL(publicUrl)
  if (!host || host === configured.host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) {
    return configured.origin
  }
  return `${proto === 'https' ? 'https' : 'http'}://${host}`
}
