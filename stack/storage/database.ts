import type pg from 'pg'
import { withRole } from '../../db/as-role'
import type { Caller } from './caller'
import { ERRORS, StorageError, toStorageError } from './errors'

/**
 * The stand-in's queries on `storage.buckets` and `storage.objects`, the way
 * Supabase Storage runs them (`src/storage/database/*`): reads and writes on
 * behalf of a user run as that caller, so the migrations' RLS policies
 * decide; bookkeeping (bucket lookups, writing the final row once the bytes
 * are safe) runs as the service role. All SQL is parameterised.
 */
export interface BucketRow {
  id: string
  name: string
  owner: string | null
  public: boolean
  file_size_limit: number | null
  allowed_mime_types: string[] | null
  created_at: string
  updated_at: string
}

/** What `storage.objects.metadata` holds, as Storage's `ObjectMetadata`. */
export interface ObjectMetadata {
  eTag: string
  size: number
  mimetype: string
  cacheControl: string
  lastModified: string
  contentLength: number
  httpStatusCode: number
}

export interface ObjectRow {
  id: string
  bucket_id: string
  name: string
  owner: string | null
  owner_id: string | null
  version: string | null
  metadata: ObjectMetadata | null
  user_metadata: Record<string, unknown> | null
  created_at: string
  updated_at: string
  last_accessed_at: string
}

const BUCKET_COLUMNS = 'id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at'
export const OBJECT_COLUMNS =
  'id, bucket_id, name, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at'

const SERVICE_CLAIMS = { role: 'service_role' }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export type Work<T> = (client: pg.PoolClient) => Promise<T>

/** A transaction as the caller; Postgres errors come out as Storage's errors. */
export async function asCaller<T>(pool: pg.Pool, caller: Caller, work: Work<T>): Promise<T> {
  try {
    return await withRole(pool, caller.role, caller.claims, work)
  } catch (error) {
    throw toStorageError(error)
  }
}

export async function asService<T>(pool: pg.Pool, work: Work<T>): Promise<T> {
  try {
    return await withRole(pool, 'service_role', SERVICE_CLAIMS, work)
  } catch (error) {
    throw toStorageError(error)
  }
}

/** A bucket looked up for Storage's own bookkeeping (limits, public flag): no RLS, as Storage's superuser lookups. */
export async function findBucket(pool: pg.Pool, id: string): Promise<BucketRow | undefined> {
  return asService(pool, (client) => selectBucket(client, id))
}

export async function mustFindBucket(pool: pg.Pool, id: string): Promise<BucketRow> {
  const bucket = await findBucket(pool, id)
  if (!bucket) throw ERRORS.noSuchBucket()
  return bucket
}

/** `sortColumn` and `sortOrder` must come from a fixed list (the route's zod enums): they are spliced into the SQL. */
export async function listBuckets(
  client: pg.PoolClient,
  options: { limit?: number; offset?: number; search?: string; sortColumn: string; sortOrder: 'asc' | 'desc' },
): Promise<BucketRow[]> {
  const { rows } = await client.query<BucketRow>(
    `select ${BUCKET_COLUMNS} from storage.buckets
     where ($1::text is null or name ilike '%' || $1 || '%')
     order by ${options.sortColumn} ${options.sortOrder}
     limit $2 offset $3`,
    [options.search ? escapeLike(options.search) : null, options.limit ?? null, options.offset ?? 0],
  )
  return rows
}

export async function selectBucket(client: pg.PoolClient, id: string): Promise<BucketRow | undefined> {
  const { rows } = await client.query<BucketRow>(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id])
  return rows[0]
}

export async function selectObject(
  client: pg.PoolClient,
  bucket: string,
  name: string,
  lock = false,
): Promise<ObjectRow | undefined> {
  const { rows } = await client.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2${lock ? ' for update' : ''}`,
    [bucket, name],
  )
  return rows[0]
}

/** Finds an object as the caller: a row the policies hide is simply not found. */
export async function findObjectAs(pool: pg.Pool, caller: Caller | 'service', bucket: string, name: string) {
  const work: Work<ObjectRow | undefined> = (client) => selectObject(client, bucket, name)
  const row = caller === 'service' ? await asService(pool, work) : await asCaller(pool, caller, work)
  if (!row) throw ERRORS.noSuchKey()
  return row
}

const ROLLBACK = Symbol('rollback')

/**
 * Storage's `testPermission`: runs `work` as the caller and always rolls
 * back — would the policies let them? Errors come out as Storage's errors.
 */
export async function tryAsCaller(pool: pg.Pool, caller: Caller, work: Work<unknown>): Promise<void> {
  try {
    await withRole(pool, caller.role, caller.claims, async (client) => {
      await work(client)
      throw ROLLBACK
    })
  } catch (error) {
    if (error !== ROLLBACK) throw toStorageError(error)
  }
}

/**
 * Storage's write check (`Uploader.canUpload`): insert — or, for an upsert,
 * insert-or-update returning the id, which also needs the UPDATE and SELECT
 * policies — the object row as the caller, then roll back. A refusal is
 * `AccessDenied` ("new row violates row-level security policy"); an existing
 * object without upsert is `KeyAlreadyExists`.
 */
export async function checkCanWrite(
  pool: pg.Pool,
  caller: Caller,
  target: { bucket: string; name: string; upsert: boolean },
) {
  const owner = ownerColumns(caller.owner)
  const values = [target.bucket, target.name, owner.owner, owner.owner_id, '1']
  const sql = target.upsert
    ? `insert into storage.objects (bucket_id, name, owner, owner_id, version) values ($1, $2, $3, $4, $5)
       on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id,
         version = excluded.version
       returning id`
    : `insert into storage.objects (bucket_id, name, owner, owner_id, version) values ($1, $2, $3, $4, $5)`
  await tryAsCaller(pool, caller, (client) => client.query(sql, values)).catch((error: StorageError) => {
    throw error.code === 'ResourceAlreadyExists' ? ERRORS.keyAlreadyExists() : error
  })
}

export interface CommitObject {
  bucket: string
  name: string
  version: string
  owner?: string
  metadata: ObjectMetadata
  userMetadata?: Record<string, unknown> | null
  upsert: boolean
}

/**
 * Writes the object's row as the service role once its bytes are safe, and
 * runs `placeFile` (the atomic rename into place) inside the same
 * transaction: if the rename fails the row is rolled back, if the row fails
 * the file is never placed. Returns the row and the version it replaced, whose
 * file the caller deletes after the commit.
 */
export async function commitObject(
  pool: pg.Pool,
  object: CommitObject,
  placeFile: () => Promise<void>,
): Promise<{ row: ObjectRow; replacedVersion: string | null }> {
  return asService(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${object.bucket}/${object.name}`])
    const existing = await selectObject(client, object.bucket, object.name, true)
    if (existing && !object.upsert) throw ERRORS.keyAlreadyExists()
    const owner = ownerColumns(object.owner)
    const { rows } = await client.query<ObjectRow>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id,
         version = excluded.version, metadata = excluded.metadata, user_metadata = excluded.user_metadata,
         last_accessed_at = now()
       returning ${OBJECT_COLUMNS}`,
      [object.bucket, object.name, owner.owner, owner.owner_id, object.version, object.metadata, object.userMetadata ?? null],
    )
    await placeFile()
    const replacedVersion = existing?.version && existing.version !== object.version ? existing.version : null
    return { row: rows[0]!, replacedVersion }
  })
}

/** Storage keeps a uuid `sub` in `owner` and any `sub` in `owner_id`. */
export function ownerColumns(sub: string | undefined): { owner: string | null; owner_id: string | null } {
  return { owner: sub && UUID.test(sub) ? sub : null, owner_id: sub ?? null }
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`)
}
