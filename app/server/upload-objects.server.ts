import { openAsBlob } from 'node:fs'
import type { Supabase } from './supabase.server'
import { writeWithinLimit } from '../../media/write-limited'

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
  return (await writeWithinLimit(data, file, maxBytes)) ? file : 'too-large'
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
