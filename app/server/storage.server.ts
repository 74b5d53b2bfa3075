import { sql } from 'kysely'
import { asServiceRole } from './db.server'
import { serviceClient } from './supabase.server'

/**
 * Removing the files of deleted rows (a video's upload, renditions, poster
 * and its quotes' files; a quote's response). Uses the service role: the
 * caller may not delete from `media` (the worker's bucket) nor, as an admin,
 * always see every object. Only called after the caller's own delete of the
 * row succeeded under row-level security.
 */

export interface FilesToRemove {
  uploads?: string[]
  mediaPrefix?: string
  extraMediaPrefixes?: string[]
  thumbnails?: string[]
  /** Every object under these folders (a deleted user's `<uid>/` in their buckets). */
  folders?: { bucket: 'uploads' | 'thumbnails' | 'avatars' | 'portfolios'; prefix: string }[]
}

/**
 * Removes a deleted row's files with the service role: the caller may not
 * delete from `media` (the worker's bucket) nor, as an admin, always see
 * every object. Names under a prefix are read from `storage.objects` (Storage
 * lists one folder level at a time; HLS has nested ones), then removed
 * through Storage's API so the bytes go too. A failure is logged, not thrown:
 * the row is gone, and the user's delete succeeded.
 */
export async function removeFiles(reason: string, files: FilesToRemove): Promise<void> {
  const prefixes = [files.mediaPrefix, ...(files.extraMediaPrefixes ?? [])].filter((prefix): prefix is string => Boolean(prefix))
  try {
    const mediaNames = prefixes.length
      ? await asServiceRole(`list the media files of a deleted row (${reason})`, async (tx) => {
          const result = await sql<{ name: string }>`
            select name from storage.objects
             where bucket_id = 'media' and (${sql.join(prefixes.map((prefix) => sql`starts_with(name, ${prefix})`), sql` or `)})`.execute(tx)
          return result.rows.map((row) => row.name)
        })
      : []
    const folderNames = files.folders?.length
      ? await asServiceRole(`list the files in a deleted user's folders (${reason})`, async (tx) => {
          const result = await sql<{ bucket_id: string; name: string }>`
            select bucket_id, name from storage.objects
             where ${sql.join(files.folders!.map((folder) => sql`(bucket_id = ${folder.bucket} and starts_with(name, ${folder.prefix}))`), sql` or `)}`.execute(tx)
          return result.rows
        })
      : []
    const storage = serviceStorage()
    const batches: [string, string[]][] = [
      ['uploads', files.uploads ?? []],
      ['media', mediaNames],
      ['thumbnails', files.thumbnails ?? []],
      ...(['uploads', 'thumbnails', 'avatars', 'portfolios'] as const).map(
        (bucket): [string, string[]] => [bucket, folderNames.filter((row) => row.bucket_id === bucket).map((row) => row.name)],
      ),
    ]
    for (const [bucket, names] of batches) {
      const unique = [...new Set(names)]
      for (let start = 0; start < unique.length; start += 500) {
        const { error } = await storage.from(bucket).remove(unique.slice(start, start + 500))
        if (error) console.warn(`[storage] could not remove ${names.length} files from ${bucket} (${reason}): ${error.message}`)
      }
    }
  } catch (error) {
    console.warn(`[storage] could not remove files (${reason}): ${error instanceof Error ? error.message : String(error)}`)
  }
}

function serviceStorage() {
  return serviceClient().storage
}
