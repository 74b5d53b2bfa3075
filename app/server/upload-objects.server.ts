import { createWriteStream, openAsBlob } from 'node:fs'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { Supabase } from './supabase.server'

/**
 * Objects an upload puts in Storage as the user (videos, their thumbnails,
 * video responses to quotes): fetched back to be checked by content, stored
 * from a temporary file, removed again when the upload is refused or fails.
 * Shared by uploads.server.ts and quotes.server.ts.
 */

export interface StoredObject {
  bucket: 'uploads' | 'thumbnails'
  name: string
}

/** Streams an object of the caller's `uploads` folder to `file`, stopping past the size limit. */
export async function downloadUpload(
  supabase: Supabase,
  name: string,
  file: string,
  maxBytes: number,
): Promise<string | 'missing' | 'too-large'> {
  const { data, error } = await supabase.storage.from('uploads').download(name).asStream()
  if (error || !data) return 'missing'
  let received = 0
  let tooLarge = false
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length
      if (received > maxBytes) {
        tooLarge = true
        callback(new Error('larger than the upload limit'))
      } else callback(null, chunk)
    },
  })
  try {
    await pipeline(Readable.fromWeb(data as WebReadableStream), limit, createWriteStream(file))
  } catch (error) {
    if (tooLarge) return 'too-large'
    throw error
  }
  return file
}

/** Stores a file as the caller, streamed from disk (a file-backed Blob is read as it is sent). */
export async function storeFile(
  supabase: Supabase,
  bucket: StoredObject['bucket'],
  name: string,
  file: string,
  contentType: string,
) {
  const body = await openAsBlob(file, { type: contentType })
  const { error } = await supabase.storage.from(bucket).upload(name, body, { contentType, upsert: false })
  if (error) throw new Error(`could not store ${bucket}/${name}: ${error.message}`)
}

/** Removes what a refused or failed upload stored (the caller's own folder: their right to delete). */
export async function removeStored(supabase: Supabase, stored: StoredObject[]) {
  for (const bucket of ['uploads', 'thumbnails'] as const) {
    const names = stored.filter((object) => object.bucket === bucket).map((object) => object.name)
    if (!names.length) continue
    const { error } = await supabase.storage.from(bucket).remove(names)
    if (error) console.warn(`[upload] could not remove ${names.join(', ')} from ${bucket}: ${error.message}`)
  }
}
