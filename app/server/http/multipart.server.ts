import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { finished } from 'node:stream/promises'
import { unstable_parseMultipartFormData, type UploadHandler } from '@remix-run/node'
import { DomainError } from '../errors.server'

/**
 * Reading a multipart form (the upload and sign-up forms) without holding
 * files in memory: text fields into a FormData, each expected file part
 * streamed into a temporary file up to its limit plus one byte — which is
 * how a part is known to be too large without keeping it. Past its limit a
 * file is no longer written anywhere, but the rest of the request is still
 * read (and dropped) so the browser gets the answer; a connection closed
 * mid-upload would show it a network error instead. Past `abandonBytes` in
 * all the sender is wasting our bandwidth, and reading stops.
 */
export interface ReceivedFile {
  /** The temporary file (null when the part was larger than its limit: nothing past it was kept). */
  path: string | null
  /** The name the browser gave it (at most 255 characters; never used as a path). */
  name: string
  size: number
  tooLarge: boolean
}

export interface ReceivedForm<F extends string> {
  form: FormData
  files: Partial<Record<F, ReceivedFile>>
  /** Removes the temporary files. Always call it (finally). */
  dispose(): Promise<void>
}

export interface MultipartOptions<F extends string> {
  /** The file fields kept, each with its size limit in bytes; other file parts are read and dropped. */
  files: Record<F, number>
  /** Past this many bytes in all, the request is refused (413, `tooLargeMessage`). */
  abandonBytes: number
  tooLargeMessage: string
  /** What the form is, for the 415 message ("The upload form must be sent as multipart/form-data"). */
  formName: string
  maxTextFieldBytes: number
  maxTextFields: number
}

export async function receiveMultipart<F extends string>(request: Request, options: MultipartOptions<F>): Promise<ReceivedForm<F>> {
  const contentType = request.headers.get('Content-Type') ?? ''
  if (!contentType.startsWith('multipart/form-data')) {
    throw new DomainError('unsupported', `The ${options.formName} must be sent as multipart/form-data`)
  }
  if (Number(request.headers.get('Content-Length') ?? 0) > options.abandonBytes) {
    throw new DomainError('too_large', options.tooLargeMessage)
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'lumen-form-'))
  const dispose = () => rm(dir, { recursive: true, force: true })
  const files: Partial<Record<F, ReceivedFile>> = {}
  const limits = options.files as Record<string, number>
  let textFields = 0
  let total = 0

  const count = (bytes: number) => {
    total += bytes
    if (total > options.abandonBytes) throw new DomainError('too_large', options.tooLargeMessage)
  }

  const handler: UploadHandler = async ({ name, filename, data }) => {
    if (filename === undefined) {
      if (++textFields > options.maxTextFields) throw new DomainError('invalid', 'Too many form fields')
      return readText(data, count, options.maxTextFieldBytes)
    }
    // A file input left empty still sends a part, with no name and no bytes.
    if (!(name in limits) || files[name as F] || !filename) {
      await drain(data, count)
      return undefined
    }
    const received = await receiveFile(data, path.join(dir, name), limits[name]!, count)
    files[name as F] = { ...received, name: filename.slice(0, 255) }
    return undefined
  }

  try {
    const form = await unstable_parseMultipartFormData(request, handler)
    return { form, files, dispose }
  } catch (error) {
    await dispose()
    if (error instanceof DomainError) throw error
    throw new DomainError('invalid', 'The form could not be read. Please try again.')
  }
}

async function receiveFile(
  data: AsyncIterable<Uint8Array>,
  file: string,
  limit: number,
  count: (bytes: number) => void,
): Promise<Omit<ReceivedFile, 'name'>> {
  const out = createWriteStream(file)
  const written = finished(out)
  // Handled below; this keeps a disk error from counting as unhandled before then.
  written.catch(() => undefined)
  let size = 0
  try {
    for await (const chunk of data) {
      count(chunk.byteLength)
      const keep = Math.max(0, Math.min(chunk.byteLength, limit + 1 - size))
      size += chunk.byteLength
      if (keep > 0 && !out.write(keep === chunk.byteLength ? chunk : chunk.subarray(0, keep))) {
        await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), written])
      }
    }
    out.end()
    await written
  } catch (error) {
    out.destroy()
    await written.catch(() => undefined)
    throw error
  }
  const tooLarge = size > limit
  if (tooLarge) await rm(file, { force: true })
  return { path: tooLarge ? null : file, size, tooLarge }
}

async function readText(data: AsyncIterable<Uint8Array>, count: (bytes: number) => void, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of data) {
    count(chunk.byteLength)
    size += chunk.byteLength
    if (size > maxBytes) throw new DomainError('too_large', 'A form field is too long')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function drain(data: AsyncIterable<Uint8Array>, count: (bytes: number) => void): Promise<void> {
  for await (const chunk of data) count(chunk.byteLength)
}

/**
 * Reads and drops what is left of a request body (bounded), so that a
 * browser still sending a large form receives the answer — a redirect to
 * sign in, say — instead of a reset connection.
 */
export async function discardBody(request: Request, maxBytes: number): Promise<void> {
  if (!request.body || request.bodyUsed) return
  let total = 0
  try {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength
      if (total > maxBytes) return
    }
  } catch {
    // The client went away: nothing to answer.
  }
}
