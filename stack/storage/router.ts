import path from 'node:path'
import express, { type NextFunction, type Request, type Response } from 'express'
import type { StackContext } from '../context'
import { bucketRoutes } from './bucket-routes'
import { ObjectFiles } from './disk'
import { ERRORS, sendError } from './errors'
import { jsonErrors } from './http'
import { objectReadRoutes } from './object-reads'
import { objectWriteRoutes } from './object-writes'
import { renderImageRoutes } from './render-image'
import { createResumableUploads } from './resumable'
import { parseByteSize, type StorageServices } from './uploader'

/**
 * The stand-in's Supabase Storage at `/storage/v1`: buckets, objects
 * (uploads, Range downloads, signed URLs, listing, move/copy/remove), image
 * transformations of public objects (`/render/image/public`) and TUS
 * resumable uploads, on the project's Postgres (`storage.buckets`,
 * `storage.objects`, their policies) and files under
 * `<dataDir>/storage`. See docs/decisions/0006-storage-stand-in.md.
 */
export async function createStorageRouter(ctx: StackContext): Promise<{ router: express.Router; close(): Promise<void> }> {
  const files = new ObjectFiles(path.join(ctx.dataDir, 'storage'))
  await files.init()
  const services: StorageServices = {
    pool: ctx.pool,
    keys: ctx.keys,
    files,
    publicUrl: ctx.publicUrl,
    globalFileSizeLimit: parseByteSize(ctx.config.storage.file_size_limit),
  }
  const resumable = await createResumableUploads(services)

  const router = express.Router()
  router.use(cors)
  router.all(/^\/upload\/resumable(\/.*)?$/, (req, res) => {
    void resumable.handle(req, res)
  })
  router.use(bucketRoutes(services))
  router.use(renderImageRoutes(services))
  router.use(objectReadRoutes(services))
  router.use(objectWriteRoutes(services))
  router.use((req, res) => sendError(res, ERRORS.routeNotFound(req.method, req.originalUrl.split('?')[0]!)))
  router.use(jsonErrors)
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => sendError(res, error))

  return { router, close: () => resumable.close() }
}

const EXPOSED_HEADERS = [
  'Content-Length',
  'Content-Range',
  'Content-Type',
  'Content-Disposition',
  'Accept-Ranges',
  'ETag',
  'Last-Modified',
  'Cache-Control',
  'Expires',
  'Location',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
  'Tus-Complete',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Defer-Length',
  'Upload-Expires',
].join(', ')

/**
 * CORS as Supabase's gateway answers it: any origin, no credentials (the
 * JWT travels in a header), the upload and download headers exposed. TUS
 * answers its own OPTIONS (it is also protocol discovery).
 */
function cors(req: Request, res: Response, next: NextFunction) {
  res.setHeader('Access-Control-Allow-Origin', '*')
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS)
  if (req.method !== 'OPTIONS' || req.path.startsWith('/upload/resumable')) return next()
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS')
  res.setHeader(
    'Access-Control-Allow-Headers',
    req.headers['access-control-request-headers'] ?? 'authorization, apikey, content-type, x-client-info, x-upsert',
  )
  res.setHeader('Access-Control-Max-Age', '86400')
  res.status(204).end()
}
