import { ERRORS } from './errors'

/**
 * Which bucket names and object names the stand-in accepts. Storage allows
 * only S3-safe characters (`src/storage/limits.ts`); on top of that, since
 * these names arrive in URLs and metadata written by anyone, the stand-in
 * refuses what S3 would take but a file system or a later decoding could
 * misread: `.`/`..` and empty segments, encoded slashes, more than S3's
 * 1024 bytes. Names never become file paths (see disk.ts), so this is about
 * clear answers and clean data, not the only line of defence.
 */
const SAFE_KEY = /^[\w/!\-.*'() &$@=;:+,?]+$/
const SAFE_BUCKET = /^[\w!\-.*'() &$@=;:+,?]+$/
const MAX_KEY_BYTES = 1024

export function isValidObjectName(name: string): boolean {
  if (!SAFE_KEY.test(name) || Buffer.byteLength(name) > MAX_KEY_BYTES) return false
  return name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
}

export function mustBeValidObjectName(name: string | undefined | null): asserts name is string {
  if (typeof name !== 'string' || !isValidObjectName(name)) throw ERRORS.invalidKey(name ?? '')
}

export function isValidBucketName(name: string): boolean {
  return name.length > 0 && name.length < 64 && SAFE_BUCKET.test(name) && name !== '.' && name !== '..'
}

export function mustBeValidBucketName(name: string | undefined | null): asserts name is string {
  if (typeof name !== 'string' || !isValidBucketName(name)) throw ERRORS.invalidBucketName()
}

/**
 * Splits the still-encoded request path after a route prefix into a bucket
 * and an object name, decoding each segment once. A segment that decodes to
 * a slash or backslash (`%2f`, `%5c`), or does not decode, is refused: it
 * would name a different object than the one the URL shows.
 */
export function parseObjectPath(rawPath: string): { bucket: string; name: string } {
  const [rawBucket = '', ...rawSegments] = rawPath.split('/')
  const bucket = decodeSegment(rawBucket, rawPath)
  mustBeValidBucketName(bucket)
  const name = rawSegments.map((segment) => decodeSegment(segment, rawPath)).join('/')
  mustBeValidObjectName(name)
  return { bucket, name }
}

function decodeSegment(segment: string, rawPath: string): string {
  let decoded: string
  try {
    decoded = decodeURIComponent(segment)
  } catch {
    throw ERRORS.invalidKey(rawPath)
  }
  if (decoded.includes('/') || decoded.includes('\\')) throw ERRORS.invalidKey(decoded)
  return decoded
}
