import { PassThrough, type Readable } from 'node:stream'
import busboy from 'busboy'
import type { Request, Response } from 'express'
import { ERRORS } from './errors'

/**
 * Reads an upload's body the two ways storage-js sends it
 * (Storage's `fileUploadFromRequest`): a multipart form (fields
 * `cacheControl`, `metadata`, `contentType` before the file part), or the raw
 * bytes with `content-type`, `cache-control` and `x-metadata` (base64 JSON)
 * headers. The body is handed on as a stream; nothing is buffered.
 */
export interface IncomingFile {
  body: Readable
  mimeType: string
  cacheControl: string
  userMetadata?: Record<string, unknown>
}

const MAX_METADATA_BYTES = 1024 * 1024
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/

/**
 * A Cache-Control value fit for a response header. Values with control
 * characters (CR/LF would split the header) were never stored by this
 * version, but older rows or other writers may hold them: fall back.
 */
export function safeCacheControl(value: string | undefined | null): string {
  return value && !CONTROL.test(value) && value.length <= 1024 ? value : 'no-cache'
}

/** Upload fields that end up in response headers: control characters are refused (400), never stored. */
function refuseControlCharacters(name: string, value: string | undefined) {
  if (value !== undefined && CONTROL.test(value)) throw ERRORS.invalidRequest(`${name} must not contain control characters`)
}

export function incomingFile(req: Request): Promise<IncomingFile> {
  const contentType = req.headers['content-type'] ?? ''
  if (contentType.startsWith('multipart/form-data')) return multipartFile(req)
  // A proxy, so that stopping early (size limit, refusal) never destroys the request itself.
  const body = new PassThrough()
  req.pipe(body)
  const cacheControl = req.headers['cache-control']
  refuseControlCharacters('cache-control', cacheControl)
  return Promise.resolve({
    body,
    mimeType: contentType || 'application/octet-stream',
    cacheControl: cacheControl ?? 'no-cache',
    userMetadata: parseMetadata(decodeBase64(req.headers['x-metadata'])),
  })
}

function multipartFile(req: Request): Promise<IncomingFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fieldSize: MAX_METADATA_BYTES } })
    } catch {
      reject(ERRORS.invalidRequest('Malformed multipart form'))
      return
    }
    const fields: Record<string, string> = {}
    parser.on('field', (name, value) => {
      fields[name] = value
    })
    parser.on('file', (_name, file, info) => {
      parser.on('error', (error) => file.destroy(error as Error))
      try {
        refuseControlCharacters('cacheControl', fields.cacheControl)
        refuseControlCharacters('contentType', fields.contentType)
      } catch (error) {
        file.resume()
        reject(error)
        return
      }
      resolve({
        body: file,
        mimeType: fields.contentType || info.mimeType,
        cacheControl: fields.cacheControl ? `max-age=${fields.cacheControl}` : 'no-cache',
        userMetadata: parseMetadata(fields.metadata ?? fields.userMetadata),
      })
    })
    parser.on('error', () => reject(ERRORS.invalidRequest('Malformed multipart form')))
    parser.on('close', () => reject(ERRORS.invalidRequest('No content provided')))
    req.pipe(parser)
  })
}

function decodeBase64(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined
}

function parseMetadata(json: string | undefined): Record<string, unknown> | undefined {
  if (!json || Buffer.byteLength(json) > MAX_METADATA_BYTES) return undefined
  try {
    const value: unknown = JSON.parse(json)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * Answers once the client has finished sending: a refused upload's unread
 * bytes are discarded first, because most HTTP clients report a connection
 * closed mid-body as a network failure and never read the error.
 */
export function respondAfterBody(req: Request, res: Response, respond: () => void) {
  req.unpipe()
  if (req.complete || req.readableEnded) {
    respond()
    return
  }
  req.once('end', respond)
  req.resume()
}
