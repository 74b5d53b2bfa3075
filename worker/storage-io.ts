import { openAsBlob } from 'node:fs'
import path from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import type { MediaTarget } from './targets'
import type { OutputFile, TranscodeResult } from './transcode'
import { writeWithinLimit } from '../media/write-limited'

/**
 * The worker's reads and writes of Storage, over its HTTP API as the service
 * role (the stand-in or a real Supabase): uploads in, renditions, posters
 * and playlists out. Knows nothing of jobs or the queue.
 */

/** The Storage half of a supabase-js client (what `createClient(…).storage` is). */
export type StorageApi = SupabaseClient['storage']

/** One file of a transcode and where it goes. */
export interface PlannedObject {
  file: OutputFile
  bucket: 'media' | 'thumbnails'
  name: string
}

export interface StorageIO {
  /** Streams bucket `uploads`' object to `file`; false when it is larger than any upload may be. */
  download(objectName: string, file: string, signal: AbortSignal): Promise<boolean>
  /** A small text object of bucket `media` (a published master playlist). */
  downloadText(objectName: string, signal: AbortSignal): Promise<string>
  /**
   * Uploads a transcode's files: variants, segments, the MP4 and the poster first, the master
   * playlist (the way in) last. Each uploaded object is pushed to `uploaded` as soon as it is written.
   */
  uploadResult(
    target: MediaTarget,
    result: TranscodeResult,
    posterPath: string,
    signal: AbortSignal,
    uploaded: PlannedObject[],
  ): Promise<void>
  /** Best effort: what cannot be removed now is logged, never thrown. */
  removeObjects(objects: PlannedObject[]): Promise<void>
}

export interface StorageIOOptions {
  storage: StorageApi
  /** Downloads larger than this are cut short (`download` answers false). */
  maxBytes: number
  /** Where removals that failed are reported. */
  warn: (message: string) => void
  /** Uploads at once; default 4. */
  lanes?: number
}

/** Where a transcode's output file goes: a video's poster to `thumbnails`, everything else under the target's media prefix. */
export function objectFor(target: MediaTarget, file: OutputFile, posterPath: string): PlannedObject {
  if (file.path === 'poster.jpg' && target.kind === 'video') return { file, bucket: 'thumbnails', name: posterPath }
  return { file, bucket: 'media', name: `${target.mediaPrefix}/${file.path}` }
}

export function createStorageIO({ storage, maxBytes, warn, lanes = 4 }: StorageIOOptions): StorageIO {
  async function download(objectName: string, file: string, signal: AbortSignal): Promise<boolean> {
    const { data, error } = await storage.from('uploads').download(objectName, {}, { signal }).asStream()
    if (error) throw new Error(`could not download uploads/${objectName}: ${error.message}`)
    return writeWithinLimit(data, file, maxBytes, signal)
  }

  async function downloadText(objectName: string, signal: AbortSignal): Promise<string> {
    const { data, error } = await storage.from('media').download(objectName, {}, { signal })
    if (error) throw new Error(`could not download media/${objectName}: ${error.message}`)
    return data.text()
  }

  /** Uploads with `upsert`: a job run twice writes the same names again, never a second copy. */
  async function uploadAll(objects: PlannedObject[], dir: string, signal: AbortSignal, uploaded: PlannedObject[]) {
    let next = 0
    let failure: { error: unknown } | undefined
    const lane = async () => {
      while (next < objects.length && !failure) {
        try {
          signal.throwIfAborted()
          const object = objects[next++]!
          const body = await openAsBlob(path.join(dir, object.file.path), { type: object.file.contentType })
          const { error } = await storage
            .from(object.bucket)
            .upload(object.name, body, { contentType: object.file.contentType, upsert: true })
          if (error) throw new Error(`could not upload ${object.bucket}/${object.name}: ${error.message}`)
          uploaded.push(object)
        } catch (error) {
          failure ??= { error }
        }
      }
    }
    // `lanes` at a time; on a failure the others finish their current upload and stop, so that
    // `uploaded` is complete when this returns (a dropped job removes exactly those).
    await Promise.all(Array.from({ length: Math.min(lanes, objects.length) }, lane))
    if (failure) throw failure.error
  }

  return {
    download,
    downloadText,
    async uploadResult(target, result, posterPath, signal, uploaded) {
      const uploads = result.files.map((file) => objectFor(target, file, posterPath))
      const master = uploads.filter((upload) => upload.file.path === result.master)
      const rest = uploads.filter((upload) => upload.file.path !== result.master)
      await uploadAll(rest, result.dir, signal, uploaded)
      await uploadAll(master, result.dir, signal, uploaded)
    },
    async removeObjects(objects) {
      for (const bucket of ['media', 'thumbnails'] as const) {
        const names = objects.filter((object) => object.bucket === bucket).map((object) => object.name)
        if (!names.length) continue
        const { error } = await storage
          .from(bucket)
          .remove(names)
          .catch((thrown: unknown) => ({ error: thrown instanceof Error ? thrown : new Error(String(thrown)) }))
        if (error) warn(`could not remove ${names.length} orphaned objects from ${bucket}: ${error.message}`)
      }
    },
  }
}
