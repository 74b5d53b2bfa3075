import type { Tx } from '../db/kysely'

/**
 * What a media job works on — a video (or spark) or a video quote — and
 * the rows the worker writes when it is done. Always inside a transaction
 * run as the service role: these are the server-owned columns that row
 * owners may not touch (videos_protect_columns, quotes_protect_columns).
 */

export interface MediaJobRef {
  id: number
  kind: string
  videoId: string | null
  quoteId: string | null
}

export interface MediaTarget {
  kind: 'video' | 'quote'
  id: string
  /** The creator of the video, or the author of the quote. */
  ownerId: string
  /** The rules the upload is judged by. */
  purpose: 'video' | 'spark' | 'quote'
  /** Object name in bucket `uploads`. */
  sourcePath: string
  /** Folder in bucket `media`: `videos/<id>` or `quotes/<id>`. */
  mediaPrefix: string
  /** Videos only: the thumbnail it has now (bucket `thumbnails`). */
  thumbnailPath: string | null
  /**
   * What already plays, when a first phase published it (ADR 0025): the
   * master playlist and MP4 (bucket `media`), and whether more renditions
   * were still to come. Null while nothing is published.
   */
  published: { hlsPath: string; mp4Path: string | null; morePending: boolean } | null
}

/**
 * Where the worker puts a generated poster: for a video the creator's folder of
 * bucket `thumbnails`; for a video response its own folder of bucket `media`
 * (`quotes/<id>/poster.jpg`), readable exactly when the quote is.
 */
export function posterPathFor(target: Pick<MediaTarget, 'ownerId' | 'id'> & { kind?: MediaTarget['kind'] }): string {
  if (target.kind === 'quote') return `quotes/${target.id}/poster.jpg`
  return `${target.ownerId}/${target.id}-poster.jpg`
}

/** The job's video or quote, or null when it has been deleted (or has no upload to work on). */
export async function loadTarget(tx: Tx, job: MediaJobRef): Promise<MediaTarget | null> {
  if (job.videoId) {
    const video = await tx
      .selectFrom('videos')
      .select(['id', 'creator_id', 'type', 'source_path', 'thumbnail_path', 'status', 'hls_path', 'mp4_path'])
      .select('more_qualities_pending')
      .where('id', '=', job.videoId)
      .executeTakeFirst()
    if (!video?.source_path) return null
    return {
      kind: 'video',
      id: video.id,
      ownerId: video.creator_id,
      purpose: video.type === 'spark' ? 'spark' : 'video',
      sourcePath: video.source_path,
      mediaPrefix: `videos/${video.id}`,
      thumbnailPath: video.thumbnail_path,
      published:
        video.status === 'ready' && video.hls_path
          ? { hlsPath: video.hls_path, mp4Path: video.mp4_path, morePending: video.more_qualities_pending }
          : null,
    }
  }
  if (job.quoteId) {
    const quote = await tx
      .selectFrom('quotes')
      .select(['id', 'user_id', 'response_source_path', 'response_status', 'response_hls_path', 'response_mp4_path'])
      .select('response_more_qualities_pending')
      .where('id', '=', job.quoteId)
      .executeTakeFirst()
    if (!quote?.response_source_path) return null
    return {
      kind: 'quote',
      id: quote.id,
      ownerId: quote.user_id,
      purpose: 'quote',
      sourcePath: quote.response_source_path,
      mediaPrefix: `quotes/${quote.id}`,
      thumbnailPath: null,
      published:
        quote.response_status === 'ready' && quote.response_hls_path
          ? {
              hlsPath: quote.response_hls_path,
              mp4Path: quote.response_mp4_path,
              morePending: quote.response_more_qualities_pending,
            }
          : null,
    }
  }
  return null
}

export interface ReadyMedia {
  hlsPath: string
  mp4Path: string
  /** Set when the worker made a poster because the video had no thumbnail. */
  posterPath: string | null
  durationSeconds: number
  width: number
  height: number
  sizeBytes: number
  /** Phase 1 of two: it plays, and more renditions are coming. */
  morePending: boolean
}

/**
 * Publishes the renditions: in the transaction that completes the job, or
 * (phase 1 of two, `morePending`) in one that checks the job is still ours.
 */
export async function markTargetReady(tx: Tx, target: MediaTarget, media: ReadyMedia): Promise<void> {
  if (target.kind === 'video') {
    await tx
      .updateTable('videos')
      .set((eb) => ({
        status: 'ready',
        status_message: null,
        more_qualities_pending: media.morePending,
        hls_path: media.hlsPath,
        mp4_path: media.mp4Path,
        thumbnail_path: media.posterPath ? eb.fn.coalesce('thumbnail_path', eb.val(media.posterPath)) : eb.ref('thumbnail_path'),
        duration_seconds: Math.round(media.durationSeconds * 1000) / 1000,
        width: media.width,
        height: media.height,
        size_bytes: media.sizeBytes,
      }))
      .where('id', '=', target.id)
      .execute()
    return
  }
  await tx
    .updateTable('quotes')
    .set({
      response_status: 'ready',
      response_status_message: null,
      response_hls_path: media.hlsPath,
      response_mp4_path: media.mp4Path,
      response_poster_path: media.posterPath,
      response_more_qualities_pending: media.morePending,
    })
    .where('id', '=', target.id)
    .execute()
}

/**
 * Phase 2 done: the master playlist (already uploaded) lists every rung;
 * the MP4 becomes the top rung's and nothing more is coming. Only on a
 * target that is still ready.
 */
export async function markTargetComplete(tx: Tx, target: MediaTarget, media: { mp4Path: string }): Promise<void> {
  if (target.kind === 'video') {
    await tx
      .updateTable('videos')
      .set({ mp4_path: media.mp4Path, more_qualities_pending: false })
      .where('id', '=', target.id)
      .where('status', '=', 'ready')
      .execute()
    return
  }
  await tx
    .updateTable('quotes')
    .set({ response_mp4_path: media.mp4Path, response_more_qualities_pending: false })
    .where('id', '=', target.id)
    .where('response_status', '=', 'ready')
    .execute()
}

/**
 * Shows the uploader why their video will not play; the job's own
 * `last_error` keeps the details. A video that already plays (phase 1 was
 * published, phase 2 gave up) stays ready with what it has: only its "more
 * qualities coming" ends.
 */
export async function markTargetFailed(tx: Tx, job: MediaJobRef, message: string): Promise<void> {
  // Automatic captions that could not be made leave the video as it is: it plays without them.
  if (job.kind === 'caption_video') return
  const shown = message.slice(0, 1000)
  if (job.videoId) {
    await tx
      .updateTable('videos')
      .set((eb) => ({
        status: eb.case().when('status', '=', 'ready').then('ready').else('failed').end(),
        status_message: eb.case().when('status', '=', 'ready').then(null).else(shown).end(),
        more_qualities_pending: false,
      }))
      .where('id', '=', job.videoId)
      .execute()
  } else if (job.quoteId) {
    await tx
      .updateTable('quotes')
      .set((eb) => ({
        response_status: eb.case().when('response_status', '=', 'ready').then('ready').else('failed').end(),
        response_status_message: eb.case().when('response_status', '=', 'ready').then(null).else(shown).end(),
        response_more_qualities_pending: false,
      }))
      .where('id', '=', job.quoteId)
      .execute()
  }
}
