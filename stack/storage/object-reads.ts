import express, { type Request } from 'express'
import type pg from 'pg'
import { z } from 'zod'
import { requireCaller, resolveCaller, ANONYMOUS, type Caller } from './caller'
import { asCaller, escapeLike, findBucket, findObjectAs, type ObjectRow } from './database'
import { sendObject } from './download'
import { ERRORS, type StorageError } from './errors'
import { bucketAfter, handle, objectPathAfter, parseBody } from './http'
import { mustBeValidObjectName } from './names'
import { signUrlToken, verifyUrlToken } from './signed-url'
import type { StorageServices } from './uploader'

/**
 * Storage's read routes under `/object`: downloads (as the caller,
 * `/authenticated`, `/public` for public buckets, `/sign` with a token),
 * object info, one-level listing, and signed URLs. Routes are regular
 * expressions without groups so object names stay encoded until
 * `parseObjectPath` decodes them once.
 */
export function objectReadRoutes(services: StorageServices): express.Router {
  const router = express.Router()
  const { pool, keys, files } = services
  const json = express.json({ limit: '1mb' })

  const download = (req: Request) =>
    typeof req.query.download === 'string' ? { download: req.query.download } : {}

  router.get(
    /^\/object\/public\/.+/,
    handle(async (req, res) => {
      await sendObject(req, res, files, await publicObject(pool, req, '/object/public/'), download(req))
    }),
  )

  router.get(
    /^\/object\/sign\/.+/,
    handle(async (req, res) => {
      const { bucket, name } = objectPathAfter(req, '/object/sign/')
      if (typeof req.query.token !== 'string') throw ERRORS.invalidRequest("querystring must have required property 'token'")
      const claims = await verifyUrlToken(keys, req.query.token, `${bucket}/${name}`)
      const object = await findObjectAs(pool, 'service', bucket, name)
      await sendObject(req, res, files, object, { ...download(req), expires: new Date(claims.exp * 1000) })
    }),
  )

  router.get(
    /^\/object\/info\/.+/,
    handle(async (req, res) => {
      const object = req.path.startsWith('/object/info/public/')
        ? await publicObject(pool, req, '/object/info/public/')
        : await visibleObject(req, await requireCaller(services, req), infoPrefix(req.path))
      res.setHeader('Cache-Control', 'no-cache')
      if (object.metadata?.eTag) res.setHeader('ETag', object.metadata.eTag)
      res.json(objectInfo(object))
    }),
  )

  router.get(
    /^\/object\/authenticated\/.+/,
    handle(async (req, res) => {
      const object = await visibleObject(req, await requireCaller(services, req), '/object/authenticated/')
      await sendObject(req, res, files, object, download(req))
    }),
  )

  // The route supabase-js `download()` calls. Like Storage it tolerates a bad
  // token (the request is then anonymous, so public buckets only).
  router.get(
    /^\/object\/.+/,
    handle(async (req, res) => {
      const caller = await resolveCaller(services, req).catch((error: StorageError) => {
        if (error.code === 'InvalidApiKey') throw error
        return ANONYMOUS
      })
      const object = await visibleObject(req, caller, '/object/')
      await sendObject(req, res, files, object, download(req))
    }),
  )

  /** Storage's getObject: a public bucket's objects are read without RLS, a private one's as the caller. */
  async function visibleObject(req: Request, caller: Caller, prefix: string): Promise<ObjectRow> {
    const { bucket, name } = objectPathAfter(req, prefix)
    const bucketRow = await findBucket(pool, bucket)
    if (!caller.hasJwt && !bucketRow?.public) throw ERRORS.accessDenied('Access denied to this bucket')
    if (!bucketRow) throw ERRORS.noSuchBucket()
    return findObjectAs(pool, bucketRow.public ? 'service' : caller, bucket, name)
  }

  const listBody = z.object({
    prefix: z.string().default(''),
    limit: z.number().int().min(1).max(1000).default(100),
    offset: z.number().int().min(0).default(0),
    sortBy: z
      .object({
        column: z.enum(['name', 'updated_at', 'created_at', 'last_accessed_at']).default('name'),
        order: z.enum(['asc', 'desc']).default('asc'),
      })
      .default({}),
    search: z.string().default(''),
  })

  router.post(
    /^\/object\/list\/[^/]+\/?$/,
    json,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const bucket = bucketAfter(req, '/object/list/')
      const body = parseBody(listBody, req.body)
      res.json(await asCaller(pool, caller, (client) => listFolder(client, bucket, body)))
    }),
  )

  const signBody = z.object({ expiresIn: z.number().int().min(1) })
  const signManyBody = z.object({ expiresIn: z.number().int().min(1), paths: z.array(z.string()).min(1).max(1000) })

  router.post(
    /^\/object\/sign\/[^/]+\/?$/,
    json,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const bucket = bucketAfter(req, '/object/sign/')
      const { expiresIn, paths } = parseBody(signManyBody, req.body)
      const visible = await asCaller(pool, caller, async (client) => {
        const { rows } = await client.query<{ name: string }>(
          'select name from storage.objects where bucket_id = $1 and name = any($2)',
          [bucket, paths],
        )
        return new Set(rows.map((row) => row.name))
      })
      res.json(
        await Promise.all(
          paths.map(async (path) =>
            visible.has(path)
              ? { error: null, path, signedURL: await signedUrl(bucket, path, expiresIn) }
              : { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null },
          ),
        ),
      )
    }),
  )

  router.post(
    /^\/object\/sign\/.+/,
    json,
    handle(async (req, res) => {
      const caller = await requireCaller(services, req)
      const { bucket, name } = objectPathAfter(req, '/object/sign/')
      const { expiresIn } = parseBody(signBody, req.body)
      await findObjectAs(pool, caller, bucket, name)
      res.json({ signedURL: await signedUrl(bucket, name, expiresIn) })
    }),
  )

  async function signedUrl(bucket: string, name: string, expiresIn: number) {
    mustBeValidObjectName(name)
    const token = await signUrlToken(keys, { url: `${bucket}/${name}` }, expiresIn)
    return `/object/sign/${bucket}/${name}?token=${token}`
  }

  return router
}

/** An object of a public bucket, named by the request path after `prefix`; read without RLS, as Storage does. */
export async function publicObject(pool: pg.Pool, req: Request, prefix: string): Promise<ObjectRow> {
  const { bucket, name } = objectPathAfter(req, prefix)
  const bucketRow = await findBucket(pool, bucket)
  if (!bucketRow?.public) throw ERRORS.noSuchBucket()
  return findObjectAs(pool, 'service', bucket, name)
}

function infoPrefix(path: string): string {
  return path.startsWith('/object/info/authenticated/') ? '/object/info/authenticated/' : '/object/info/'
}

/** Storage's `InfoRenderer` body. */
function objectInfo(object: ObjectRow) {
  return {
    id: object.id,
    name: object.name,
    version: object.version,
    bucket_id: object.bucket_id,
    size: object.metadata?.size ?? null,
    content_type: object.metadata?.mimetype ?? null,
    cache_control: object.metadata?.cacheControl ?? null,
    etag: object.metadata?.eTag ?? null,
    metadata: object.user_metadata,
    last_modified: object.updated_at,
    created_at: object.created_at,
  }
}

type ListOptions = { prefix: string; limit: number; offset: number; search: string; sortBy: { column: string; order: string } }

/**
 * One folder level, as Storage's `storage.search()` returns it: sub-folders
 * first (name only, every other column null), then the objects at this
 * level, sorted and paged together. Runs as the caller, so it lists only
 * rows the policies let them see.
 */
async function listFolder(client: pg.PoolClient, bucket: string, options: ListOptions) {
  const prefix = options.prefix && !options.prefix.endsWith('/') ? `${options.prefix}/` : options.prefix
  const level = prefix.split('/').length
  // Column and order come from zod enums, never from the request text itself.
  const order = options.sortBy.order === 'desc' ? 'desc' : 'asc'
  const column = options.sortBy.column
  const { rows } = await client.query(
    `with matching as (
       select * from storage.objects
       where bucket_id = $1 and name ilike $2 || $3 || '%'
     ),
     folders as (
       select distinct path_tokens[$4] as folder from matching where array_length(path_tokens, 1) <> $4
     )
     (select folder as name, null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
             null::timestamptz as last_accessed_at, null::jsonb as metadata
      from folders order by folder ${order})
     union all
     (select path_tokens[$4] as name, id, updated_at, created_at, last_accessed_at, metadata
      from matching where array_length(path_tokens, 1) = $4
      order by ${column} ${order})
     limit $5 offset $6`,
    [bucket, escapeLike(prefix), escapeLike(options.search), level, options.limit, options.offset],
  )
  return rows
}
