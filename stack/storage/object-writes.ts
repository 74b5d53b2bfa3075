import { randomUUID } from 'node:crypto'
import express, { type Request, type Response } from 'express'
import type pg from 'pg'
import { z } from 'zod'
import { requireCaller, type Caller } from './caller'
import {
  asCaller,
  asService,
  checkCanWrite,
  findObjectAs,
  mustFindBucket,
  OBJECT_COLUMNS,
  ownerColumns,
  selectObject,
  tryAsCaller,
  type BucketRow,
  type ObjectRow,
} from './database'
import { ERRORS, sendError, StorageError } from './errors'
import { bucketAfter, handle, objectPathAfter, parseBody, truthyHeader } from './http'
import { incomingFile, respondAfterBody } from './incoming'
import { mustBeValidBucketName, mustBeValidObjectName } from './names'
import { signUrlToken, verifyUrlToken } from './signed-url'
import { safeCacheControl } from './incoming'
import { assertFitsBucket, fileSizeLimit, objectMetadata, storeObject, validateMimeType, type StorageServices } from './uploader'

/**
 * Storage's write routes under `/object`: uploads (POST, PUT = upsert),
 * signed upload URLs, move, copy and removal. Every write is first tried as
 * the caller in a rolled-back transaction, so the storage policies decide
 * before a byte is stored; the bytes then stream to a temp file and the row
 * and the file are committed together (uploader.ts).
 */
export function objectWriteRoutes(services: StorageServices): express.Router {
  const router = express.Router()
  const { pool, keys, files } = services
  const json = express.json({ limit: '1mb' })

  /**
   * A handler whose request carries a file: whatever goes wrong, the unread
   * body is drained before the error is sent (see `respondAfterBody`).
   */
  const withFileBody = (work: (req: Request, res: Response) => Promise<void>) =>
    handle(async (req, res) => {
      await work(req, res).catch((error) => respondAfterBody(req, res, () => sendError(res, error)))
    })

  /** Streams the request's file into `bucket/name` once the caller (or a signed token) may write it. */
  async function receiveUpload(
    req: Request,
    res: Response,
    target: { bucket: BucketRow; name: string; owner?: string; upsert: boolean },
  ) {
    const limit = fileSizeLimit(services, target.bucket)
    const isMultipart = (req.headers['content-type'] ?? '').startsWith('multipart/form-data')
    if (!isMultipart && Number(req.headers['content-length']) > limit) throw ERRORS.entityTooLarge()
    const file = await incomingFile(req)
    const mimetype = validateMimeType(file.mimeType, target.bucket.allowed_mime_types)
    const version = randomUUID()
    const { tempPath, size } = await files.receive(file.body, limit)
    const row = await storeObject(services, {
      bucket: target.bucket.id,
      name: target.name,
      version,
      owner: target.owner,
      sourcePath: tempPath,
      metadata: objectMetadata(version, size, mimetype, file.cacheControl),
      userMetadata: file.userMetadata,
      upsert: target.upsert,
    })
    res.json({ Id: row.id, Key: `${target.bucket.id}/${target.name}` })
  }

  const upload = (upsertAlways: boolean) =>
    withFileBody(async (req, res) => {
      const caller = await requireCaller(services, req)
      const { bucket, name } = objectPathAfter(req, '/object/')
      const bucketRow = await mustFindBucket(pool, bucket)
      const upsert = upsertAlways || truthyHeader(req.headers['x-upsert'])
      await checkCanWrite(pool, caller, { bucket, name, upsert })
      await receiveUpload(req, res, { bucket: bucketRow, name, owner: caller.owner, upsert })
    })

  router.post(
    /^\/object\/upload\/sign\/.+/,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const { bucket, name } = objectPathAfter(req, '/object/upload/sign/')
      await mustFindBucket(pool, bucket)
      const upsert = truthyHeader(req.headers['x-upsert'])
      await checkCanWrite(pool, caller, { bucket, name, upsert })
      const token = await signUrlToken(keys, { url: `${bucket}/${name}`, owner: caller.owner, upsert }, 2 * 60 * 60)
      res.json({ url: `/object/upload/sign/${bucket}/${name}?token=${token}`, token })
    }),
  )

  // The signed URL is the authority here: no JWT, the token's owner and upsert flag.
  router.put(
    /^\/object\/upload\/sign\/.+/,
    withFileBody(async (req, res) => {
      const { bucket, name } = objectPathAfter(req, '/object/upload/sign/')
      if (typeof req.query.token !== 'string') throw ERRORS.invalidRequest("querystring must have required property 'token'")
      const claims = await verifyUrlToken(keys, req.query.token, `${bucket}/${name}`)
      const bucketRow = await mustFindBucket(pool, bucket)
      await receiveUpload(req, res, { bucket: bucketRow, name, owner: claims.owner, upsert: Boolean(claims.upsert) })
    }),
  )

  const moveBody = z.object({
    bucketId: z.string(),
    sourceKey: z.string(),
    destinationKey: z.string(),
    destinationBucket: z.string().optional(),
  })

  router.post(
    '/object/move',
    json,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const body = parseBody(moveBody, req.body)
      const destinationBucket = body.destinationBucket || body.bucketId
      mustBeValidBucketName(body.bucketId)
      mustBeValidObjectName(body.sourceKey)
      mustBeValidObjectName(body.destinationKey)
      const destination = await mustFindBucket(pool, destinationBucket)
      await moveObject(pool, services, caller, destination, {
        bucket: body.bucketId,
        name: body.sourceKey,
        destinationBucket,
        destinationName: body.destinationKey,
      })
      res.json({ message: 'Successfully moved' })
    }),
  )

  const copyBody = z.object({
    bucketId: z.string(),
    sourceKey: z.string(),
    destinationKey: z.string(),
    destinationBucket: z.string().optional(),
    copyMetadata: z.boolean().optional(),
    metadata: z.object({ cacheControl: z.string().optional(), mimetype: z.string().optional() }).partial().optional(),
  })

  router.post(
    '/object/copy',
    json,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const body = parseBody(copyBody, req.body)
      const destinationBucket = body.destinationBucket || body.bucketId
      mustBeValidObjectName(body.destinationKey)
      const upsert = truthyHeader(req.headers['x-upsert'])
      const source = await findObjectAs(pool, caller, body.bucketId, body.sourceKey)
      const destination = await mustFindBucket(pool, destinationBucket)
      await checkCanWrite(pool, caller, { bucket: destinationBucket, name: body.destinationKey, upsert })
      if (!source.version || !source.metadata) throw ERRORS.noSuchKey()
      const copyMetadata = body.copyMetadata ?? true
      // A copy is an upload of existing bytes: the destination bucket's type and size rules apply,
      // to the type the copy will carry (ADR 0012: a copy once relabelled a PNG upload as SVG).
      const mimetype = assertFitsBucket(services, destination, {
        mimetype: (!copyMetadata && body.metadata?.mimetype) || source.metadata.mimetype,
        size: source.metadata.size,
      })
      const cacheControl = safeCacheControl((!copyMetadata && body.metadata?.cacheControl) || source.metadata.cacheControl)
      const version = randomUUID()
      const tempPath = await files.copyToTemp(source.bucket_id, source.version)
      const row = await storeObject(services, {
        bucket: destinationBucket,
        name: body.destinationKey,
        version,
        owner: caller.owner,
        sourcePath: tempPath,
        metadata: objectMetadata(version, source.metadata.size, mimetype, cacheControl),
        userMetadata: copyMetadata ? source.user_metadata : null,
        upsert,
      })
      res.json({ Id: row.id, Key: `${destinationBucket}/${body.destinationKey}` })
    }),
  )

  const removeBody = z.object({ prefixes: z.array(z.string()).min(1).max(1000) })

  router.delete(
    /^\/object\/[^/]+\/?$/,
    json,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const bucket = bucketAfter(req, '/object/')
      const { prefixes } = parseBody(removeBody, req.body)
      const removed = await asCaller(pool, caller, async (client) => {
        const { rows } = await client.query<ObjectRow>(
          `delete from storage.objects where bucket_id = $1 and name = any($2) returning ${OBJECT_COLUMNS}`,
          [bucket, prefixes],
        )
        return rows
      })
      await Promise.all(removed.map((row) => files.remove(row.bucket_id, row.version)))
      res.json(removed)
    }),
  )

  router.delete(
    /^\/object\/.+/,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const { bucket, name } = objectPathAfter(req, '/object/')
      const removed = await asCaller(pool, caller, async (client) => {
        const { rows } = await client.query<ObjectRow>(
          `delete from storage.objects where bucket_id = $1 and name = $2 returning ${OBJECT_COLUMNS}`,
          [bucket, name],
        )
        return rows[0]
      })
      if (!removed) throw ERRORS.noSuchKey()
      await files.remove(removed.bucket_id, removed.version)
      res.json({ message: 'Successfully deleted' })
    }),
  )

  router.post(/^\/object\/.+/, upload(false))
  router.put(/^\/object\/.+/, upload(true))

  return router
}

/**
 * Storage's move: the caller must see the source and be allowed to update
 * it into its new name (tried as the caller and rolled back); then the row
 * is renamed as the service role. Bytes stay put within a bucket; across
 * buckets the file is renamed inside the same transaction.
 */
async function moveObject(
  pool: pg.Pool,
  services: StorageServices,
  caller: Caller,
  destination: BucketRow,
  move: { bucket: string; name: string; destinationBucket: string; destinationName: string },
) {
  const owner = ownerColumns(caller.owner)
  const renameSql = `update storage.objects set bucket_id = $3, name = $4, owner = $5, owner_id = $6
                     where bucket_id = $1 and name = $2 returning ${OBJECT_COLUMNS}`
  const values = [move.bucket, move.name, move.destinationBucket, move.destinationName, owner.owner, owner.owner_id]
  await tryAsCaller(pool, caller, async (client) => {
    const source = await selectObject(client, move.bucket, move.name)
    if (!source) throw ERRORS.noSuchKey()
    // Into another bucket, the object must be one that bucket would accept (ADR 0012: uploads → avatars).
    if (move.bucket !== move.destinationBucket) {
      assertFitsBucket(services, destination, {
        mimetype: source.metadata?.mimetype ?? 'application/octet-stream',
        size: source.metadata?.size ?? 0,
      })
    }
    const { rowCount } = await client.query(renameSql, values)
    if (!rowCount) throw ERRORS.noSuchKey()
  }).catch((error) => {
    throw asKeyConflict(error)
  })
  const { files } = services
  let movedFile: { version: string } | undefined
  try {
    await asService(pool, async (client) => {
      const source = await selectObject(client, move.bucket, move.name, true)
      if (!source?.version) throw ERRORS.noSuchKey()
      await client.query(renameSql, values)
      if (move.bucket !== move.destinationBucket) {
        await files.place(files.pathOf(move.bucket, source.version), move.destinationBucket, source.version)
        movedFile = { version: source.version }
      }
    })
  } catch (error) {
    // The row stayed where it was: so must its file.
    if (movedFile) await files.place(files.pathOf(move.destinationBucket, movedFile.version), move.bucket, movedFile.version)
    throw asKeyConflict(error)
  }
}

/** An existing destination name is Storage's `KeyAlreadyExists`. */
function asKeyConflict(error: unknown): unknown {
  return error instanceof StorageError && error.code === 'ResourceAlreadyExists' ? ERRORS.keyAlreadyExists() : error
}
