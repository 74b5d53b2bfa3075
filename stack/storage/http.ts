import type { NextFunction, Request, RequestHandler, Response } from 'express'
import type { z } from 'zod'
import { ERRORS, sendError } from './errors'
import { parseObjectPath } from './names'

/** Small helpers the storage routes share: async handlers, bodies checked with zod, object paths. */

export function handle(work: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req, res) => {
    work(req, res).catch((error) => sendError(res, error))
  }
}

/** The zod-checked JSON body, or Storage's 400 with the first problem. */
export function parseBody<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue?.path.length ? `body/${issue.path.join('/')} ` : 'body '
  throw ERRORS.invalidRequest(`${where}${issue?.message ?? 'is invalid'}`)
}

/** Bucket and object name from the raw request path after `prefix` (e.g. `/object/sign/`). */
export function objectPathAfter(req: Request, prefix: string) {
  return parseObjectPath(req.path.slice(prefix.length))
}

/** The bucket id after `prefix`, for routes that name a bucket only. */
export function bucketAfter(req: Request, prefix: string): string {
  try {
    return decodeURIComponent(req.path.slice(prefix.length).replace(/\/$/, ''))
  } catch {
    throw ERRORS.invalidBucketName()
  }
}

/** Turns body-parser's failures (bad JSON, too large) into Storage's errors. */
export function jsonErrors(error: unknown, _req: Request, res: Response, next: NextFunction) {
  const status = (error as { status?: number }).status
  const type = (error as { type?: string }).type
  if (type === 'entity.too.large') return sendError(res, ERRORS.entityTooLarge('request body'))
  if (status === 400 || status === 415) return sendError(res, ERRORS.invalidRequest('Body is not valid JSON'))
  next(error)
}

export function truthyHeader(value: string | string[] | undefined): boolean {
  return value === 'true'
}
