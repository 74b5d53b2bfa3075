import type { Response } from 'express'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../../ops/health'

/**
 * Supabase Storage's errors, shaped as it renders them
 * (`src/internal/errors/codes.ts`, `src/http/error-handler.ts`): the body is
 * `{statusCode: "<real status>", code, error, message}` and the HTTP status is
 * 400 for every client error (500 stays 500). storage-js reads `statusCode`,
 * `code` and `message` from the body, so matching this shape is what keeps
 * `error.statusCode === '404'` working in the app.
 */
export class StorageError extends Error {
  constructor(
    /** The status Storage puts in the body (`statusCode`) and TUS sends as is. */
    readonly status: number,
    readonly code: string,
    message: string,
    /** Storage's older `error` field; it falls back to the code. */
    readonly error?: string,
    /** When the HTTP status must differ from Storage's 400/500 rule. */
    readonly httpStatus?: number,
    /** What really went wrong, for the log (a 500's body never says). */
    cause?: unknown,
  ) {
    super(message, { cause })
  }

  render() {
    return { statusCode: String(this.status), code: this.code, error: this.error ?? this.code, message: this.message }
  }

  get responseStatus(): number {
    return this.httpStatus ?? (this.status === 500 ? 500 : 400)
  }
}

export const ERRORS = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidBucketName: () => new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  invalidJwt: (message: string) => new StorageError(400, 'InvalidJWT', message),
  invalidSignature: () => new StorageError(400, 'InvalidSignature', 'Invalid signature'),
  accessDenied: (message = 'Access denied') => new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  rlsDenied: () => ERRORS.accessDenied('new row violates row-level security policy'),
  keyAlreadyExists: () => new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () => new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  resourceAlreadyExists: () => new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () => new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  entityTooLarge: (entity = 'object') =>
    new StorageError(413, 'EntityTooLarge', `The ${entity} exceeded the maximum allowed size`, 'Payload too large'),
  invalidMimeType: (mimeType: string) =>
    new StorageError(415, 'InvalidMimeType', `mime type ${mimeType} is not supported`, 'invalid_mime_type'),
  /** Storage renders this one as 400; an unsatisfiable range is sent as a real 416 here (RFC 9110). */
  invalidRange: () => new StorageError(416, 'InvalidRange', 'invalid range provided', 'invalid_range', 416),
  resourceLocked: () => new StorageError(423, 'ResourceLocked', 'The resource is locked'),
  routeNotFound: (method: string, path: string) =>
    new StorageError(404, 'NotFound', `Route ${method}:${path} not found`, 'Not Found', 404),
  /** The disk (or its quota) is full: a real 507, so clients and the app can tell it from a fault of theirs. */
  insufficientStorage: () =>
    new StorageError(
      507,
      'InsufficientStorage',
      'There is no space left to store this file. Nothing was saved; please try again later.',
      'Insufficient Storage',
      507,
    ),
  internal: (cause?: unknown) => new StorageError(500, 'InternalError', 'Internal server error', undefined, undefined, cause),
}

interface PgLikeError {
  code?: string
  message?: string
}

function isPgError(error: unknown): error is PgLikeError {
  return typeof error === 'object' && error !== null && typeof (error as PgLikeError).code === 'string'
}

/** Maps a thrown value to Storage's error, the way Storage's `DBError.fromDBError` maps Postgres errors. */
export function toStorageError(error: unknown): StorageError {
  if (error instanceof StorageError) return error
  if (isPgError(error)) {
    switch (error.code) {
      case '42501':
        return error.message?.includes('row-level security') ? ERRORS.rlsDenied() : ERRORS.accessDenied(error.message)
      case '23505':
        return ERRORS.resourceAlreadyExists()
      case '23503':
        return new StorageError(404, 'InvalidRequest', 'The related resource does not exist')
      case '23514':
      case '22P02':
        return new StorageError(400, 'InvalidParameter', 'Invalid value format or type conversion failed')
      case '55P03':
        return ERRORS.resourceLocked()
      case 'ENOSPC':
      case 'EDQUOT':
        // The storage folder's file system is full: the write failed and its temp file is gone.
        return ERRORS.insufficientStorage()
      case '53400':
        // public.enforce_storage_quota(): the owner's files would pass their quota.
        return new StorageError(413, 'EntityTooLarge', error.message ?? 'Storage quota exceeded', 'Payload too large')
    }
  }
  return ERRORS.internal(error)
}

/** Logs a 500 with its real cause (never request data such as tokens). */
export function logServerError(error: StorageError) {
  console.error('[storage]', error.cause ?? error)
}

/** Sends a thrown value as Storage would; unexpected failures are logged (never their request data). */
export function sendError(res: Response, error: unknown) {
  const storageError = toStorageError(error)
  if (storageError.status === 500 && isDatabaseUnavailable(storageError.cause ?? error) && !res.headersSent) {
    // The database is restarting or unreachable: a clean, retryable answer.
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
    res.status(503).json({
      statusCode: '503',
      code: 'unavailable',
      error: 'Service Unavailable',
      message: 'Service briefly unavailable, please try again shortly',
    })
    return
  }
  if (storageError.status === 500) logServerError(storageError)
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.status(storageError.responseStatus).json(storageError.render())
}
