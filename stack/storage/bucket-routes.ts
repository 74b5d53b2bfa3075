import express from 'express'
import { z } from 'zod'
import { requireCaller } from './caller'
import { asCaller, listBuckets, ownerColumns, selectBucket } from './database'
import { ERRORS, StorageError } from './errors'
import { bucketAfter, handle, parseBody } from './http'
import { mustBeValidBucketName } from './names'
import type { StorageServices } from './uploader'

/**
 * Storage's `/bucket` routes. They run as the caller like every other
 * route; the bootstrap grants API users only SELECT on `storage.buckets`
 * (and no policy shows them a row), so in practice only the service role
 * creates, changes, empties and deletes buckets — as on Supabase.
 */
export function bucketRoutes(services: StorageServices): express.Router {
  const router = express.Router()
  const { pool, files } = services
  const json = express.json({ limit: '1mb' })

  const listQuery = z.object({
    limit: z.coerce.number().int().min(1).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    search: z.string().optional(),
    sortColumn: z.enum(['id', 'name', 'created_at', 'updated_at']).default('name'),
    sortOrder: z.enum(['asc', 'desc']).default('asc'),
  })

  router.get(
    '/bucket',
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const options = parseBody(listQuery, req.query)
      res.json(await asCaller(pool, caller, (client) => listBuckets(client, options)))
    }),
  )

  router.get(
    /^\/bucket\/[^/]+\/?$/,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const id = bucketAfter(req, '/bucket/')
      const bucket = await asCaller(pool, caller, (client) => selectBucket(client, id))
      if (!bucket) throw ERRORS.noSuchBucket()
      res.json(bucket)
    }),
  )

  const limits = {
    public: z.boolean().optional(),
    file_size_limit: z.union([z.number().int().min(0), z.string()]).nullable().optional(),
    allowed_mime_types: z.array(z.string()).nullable().optional(),
  }
  const createBody = z.object({ name: z.string(), id: z.string().optional(), ...limits })
  const updateBody = z.object(limits)

  router.post(
    '/bucket',
    json,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const body = parseBody(createBody, req.body)
      const id = body.id || body.name
      mustBeValidBucketName(id)
      mustBeValidBucketName(body.name)
      const owner = ownerColumns(caller.owner)
      await asCaller(pool, caller, (client) =>
        client.query(
          `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [
            id,
            body.name,
            owner.owner,
            owner.owner_id,
            body.public ?? false,
            sizeLimit(services, body.file_size_limit),
            mimeTypes(body.allowed_mime_types),
          ],
        ),
      ).catch((error: StorageError) => {
        throw error.code === 'ResourceAlreadyExists' ? ERRORS.bucketAlreadyExists() : error
      })
      res.json({ name: body.name })
    }),
  )

  router.put(
    /^\/bucket\/[^/]+\/?$/,
    json,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const id = bucketAfter(req, '/bucket/')
      const body = parseBody(updateBody, req.body)
      const updated = await asCaller(pool, caller, async (client) => {
        const { rowCount } = await client.query(
          `update storage.buckets set
             public = coalesce($2, public),
             file_size_limit = case when $3 then $4 else file_size_limit end,
             allowed_mime_types = case when $5 then $6 else allowed_mime_types end,
             updated_at = now()
           where id = $1`,
          [
            id,
            body.public ?? null,
            body.file_size_limit !== undefined,
            sizeLimit(services, body.file_size_limit),
            body.allowed_mime_types !== undefined,
            mimeTypes(body.allowed_mime_types),
          ],
        )
        return rowCount
      })
      if (!updated) throw ERRORS.noSuchBucket()
      res.json({ message: 'Successfully updated' })
    }),
  )

  router.post(
    /^\/bucket\/[^/]+\/empty\/?$/,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const id = bucketAfter(req, '/bucket/').replace(/\/empty$/, '')
      const removed = await asCaller(pool, caller, async (client) => {
        if (!(await selectBucket(client, id))) throw ERRORS.noSuchBucket()
        const { rows } = await client.query<{ version: string | null }>(
          'delete from storage.objects where bucket_id = $1 returning version',
          [id],
        )
        return rows
      })
      await Promise.all(removed.map((row) => files.remove(id, row.version)))
      res.json({ message: 'Successfully emptied' })
    }),
  )

  router.delete(
    /^\/bucket\/[^/]+\/?$/,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const id = bucketAfter(req, '/bucket/')
      await asCaller(pool, caller, async (client) => {
        const { rowCount: objects } = await client.query('select 1 from storage.objects where bucket_id = $1 limit 1', [id])
        if (objects) throw ERRORS.bucketNotEmpty()
        const { rowCount } = await client.query('delete from storage.buckets where id = $1', [id])
        if (!rowCount) throw ERRORS.noSuchBucket()
      })
      await files.removeBucket(id)
      res.json({ message: 'Successfully deleted' })
    }),
  )

  return router
}

/**
 * A bucket's `file_size_limit`: bytes, or Storage's `"20GB" / "20MB" /
 * "30KB" / "3B"` (decimal units); never above the project's limit.
 */
function sizeLimit(services: StorageServices, value: number | string | null | undefined): number | null {
  if (value === undefined || value === null) return null
  let bytes = value
  if (typeof bytes === 'string') {
    const match = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(bytes)
    if (!match) throw ERRORS.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B')
    const factor = { gb: 1e9, mb: 1e6, kb: 1e3, b: 1 }[match[2]!.toLowerCase() as 'gb' | 'mb' | 'kb' | 'b']
    bytes = Math.round(Number(match[1]) * factor)
  }
  if (bytes > services.globalFileSizeLimit) throw ERRORS.entityTooLarge('bucket file size limit')
  return bytes
}

const MIME_TYPE = /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/

function mimeTypes(values: string[] | null | undefined): string[] | null {
  if (!values) return null
  const types = values.filter(Boolean)
  for (const type of types) {
    if (type.length > 1000 || !MIME_TYPE.test(type)) throw ERRORS.invalidMimeType(type)
  }
  return types
}
