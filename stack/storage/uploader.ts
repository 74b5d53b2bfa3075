import type pg from 'pg'
import type { StackKeys } from '../keys'
import { commitObject, type BucketRow, type ObjectMetadata, type ObjectRow } from './database'
import type { ObjectFiles } from './disk'
import { ERRORS } from './errors'

/**
 * What every way of writing an object shares (standard, signed, copy and
 * resumable uploads), after Storage's `Uploader`: the size limit, the MIME
 * check, and storing a complete file — row and bytes together — once the
 * caller's write check has passed.
 */
export interface StorageServices {
  pool: pg.Pool
  keys: StackKeys
  files: ObjectFiles
  publicUrl: string
  /** `[storage] file_size_limit` of supabase/config.toml, in bytes. */
  globalFileSizeLimit: number
}

/** The bucket's limit, never above the project's. */
export function fileSizeLimit(services: StorageServices, bucket: Pick<BucketRow, 'file_size_limit'>): number {
  const limit = bucket.file_size_limit
  return typeof limit === 'number' && limit >= 0 ? Math.min(limit, services.globalFileSizeLimit) : services.globalFileSizeLimit
}

/** One media type, as RFC 9110 spells it: `type/subtype` and optional `; name=value` parameters. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\x00-\\x1f\\x7f]*"))*)[ \\t]*$`)

/**
 * A content type a client sent, checked before anything trusts it: exactly
 * one media type (a list such as `video/mp4, image/svg+xml` or anything
 * with control characters is no type at all, and would let a browser pick
 * the second), lowercased, whitespace trimmed. Throws InvalidMimeType.
 */
export function parseMimeType(mimeType: string): { essence: string; type: string; subtype: string; value: string } {
  const match = MEDIA_TYPE.exec(mimeType.trim())
  // A wildcard names no type: it belongs in a bucket's allow-list, not on an object.
  if (!match || match[1] === '*' || match[2] === '*') throw ERRORS.invalidMimeType(JSON.stringify(mimeType.slice(0, 200)))
  const type = match[1]!.toLowerCase()
  const subtype = match[2]!.toLowerCase()
  const essence = `${type}/${subtype}`
  return { essence, type, subtype, value: essence + (match[3] ?? '').replace(/[ \t]*;[ \t]*/g, ';') }
}

/**
 * Storage's `validateMimeType`: `type/*` or an exact `type/subtype` entry
 * allows the upload. Like Storage, an exact entry compares the whole type
 * as sent, so `text/plain;charset=UTF-8` needs `text/*`; unlike Storage the
 * type must first be one well-formed media type (`parseMimeType`). Answers
 * the normalised type, which is what gets stored.
 */
export function validateMimeType(mimeType: string, allowed: string[] | null | undefined): string {
  const parsed = parseMimeType(mimeType)
  if (!allowed || allowed.length === 0) return parsed.value
  const ok = allowed.some((entry) => {
    const [allowedType, allowedSubtype] = entry.toLowerCase().split('/')
    return allowedType === parsed.type && (allowedSubtype === '*' || `${parsed.type}/${allowedSubtype}` === parsed.value)
  })
  if (!ok) throw ERRORS.invalidMimeType(parsed.value)
  return parsed.value
}

/** The destination bucket's rules for bytes that already exist (copy, move): type and size. */
export function assertFitsBucket(
  services: StorageServices,
  bucket: Pick<BucketRow, 'file_size_limit' | 'allowed_mime_types'>,
  object: { mimetype: string; size: number },
): string {
  const mimetype = validateMimeType(object.mimetype, bucket.allowed_mime_types)
  if (object.size > fileSizeLimit(services, bucket)) throw ERRORS.entityTooLarge()
  return mimetype
}

/**
 * The metadata Storage records. The ETag is the version: every write of
 * new bytes makes a new version, so it changes exactly when the content may.
 */
export function objectMetadata(version: string, size: number, mimetype: string, cacheControl: string): ObjectMetadata {
  return {
    eTag: `"${version}"`,
    size,
    mimetype,
    cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: size,
    httpStatusCode: 200,
  }
}

export interface StoreObject {
  bucket: string
  name: string
  version: string
  owner?: string
  /** A complete file on the storage volume (temp or resumable) to move into place. */
  sourcePath: string
  metadata: ObjectMetadata
  userMetadata?: Record<string, unknown> | null
  upsert: boolean
}

/**
 * Writes the row and moves the file into place in one transaction, then
 * deletes the version it replaced. If anything fails no row is left and,
 * unless the caller keeps it for another try, the source file is deleted:
 * an upload either fully exists or not at all.
 */
export async function storeObject(
  services: StorageServices,
  object: StoreObject,
  options: { discardOnFailure: boolean } = { discardOnFailure: true },
): Promise<ObjectRow> {
  const { files } = services
  let placed = false
  let committed: Awaited<ReturnType<typeof commitObject>>
  try {
    committed = await commitObject(services.pool, object, async () => {
      await files.place(object.sourcePath, object.bucket, object.version)
      placed = true
    })
  } catch (error) {
    // The commit failed after the rename: the file goes back where it came from.
    if (placed) await files.unplace(object.bucket, object.version, object.sourcePath)
    if (options.discardOnFailure) await files.discard(object.sourcePath)
    throw error
  }
  await files.remove(object.bucket, committed.replacedVersion)
  return committed.row
}

/** `100MiB` / `50MB` / `1GB` / `500KB` / `1024` → bytes; the Supabase CLI reads both unit styles as binary. */
export function parseByteSize(value: string | number): number {
  if (typeof value === 'number') return value
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?\s*$/i.exec(value)
  if (!match) throw new Error(`storage.file_size_limit: cannot read "${value}"`)
  const unit = (match[2] ?? 'b').toLowerCase()[0]
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1
  return Math.floor(Number(match[1]) * factor)
}
