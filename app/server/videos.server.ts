import { createClient } from '@supabase/supabase-js'
import { sql } from 'kysely'
import { categoryName } from '~/lib/catalog'
import { commentSchema, isUuid, VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { CommentView, LikeState, QuoteView, VideoDetail, VideoStatus } from '~/lib/video-types'
import { asCaller, asServiceRole, type JwtClaims, type Tx } from './db.server'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { supabaseSettings } from './supabase.server'

/**
 * The video page's domain (spec: Video detail; sections 4, 5, 8): reading a
 * video with its comments and quotes, liking, commenting, quoting, deleting,
 * counting views. Everything runs as the caller — row-level security decides
 * who sees and changes what; this module turns "no row" into the spec's
 * messages. Only the clean-up of a deleted video's or quote's files uses the
 * service role (Storage's policies let users delete only their own uploads,
 * and bucket `media` is the worker's).
 */






/** A refusal with the spec's message and the HTTP status the route answers with. */
export class VideoActionError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404,
    message: string,
  ) {
    super(message)
    this.name = 'VideoActionError'
  }
}

const notFound = () => new VideoActionError(404, VIDEO_MESSAGES.notFound)

const isAdmin = (tx: Tx) =>
  sql<{ admin: boolean }>`select public.is_admin() as admin`.execute(tx).then((result) => Boolean(result.rows[0]?.admin))

// Reading --------------------------------------------------------------------------------

/** The video as the caller may see it, or null when it does not exist or is hidden from them. */
export async function getVideo(claims: JwtClaims | null, id: string): Promise<VideoDetail | null> {
  if (!isUuid(id)) return null
  return asCaller(claims, async (tx) => {
    const row = await tx
      .selectFrom('videos')
      .innerJoin('profiles', 'profiles.id', 'videos.creator_id')
      .select([
        'videos.id',
        'videos.title',
        'videos.description',
        'videos.type',
        'videos.is_public',
        'videos.status',
        'videos.status_message',
        'videos.category_id',
        'videos.created_at',
        'videos.duration_seconds',
        'videos.width',
        'videos.height',
        'videos.view_count',
        'videos.like_count',
        'videos.comment_count',
        'videos.quote_count',
        'videos.hls_path',
        'videos.mp4_path',
        'videos.thumbnail_path',
        'videos.external_url',
        'videos.creator_id',
        'profiles.username',
        'profiles.avatar_path',
        'profiles.role',
      ])
      .where('videos.id', '=', id)
      .executeTakeFirst()
    if (!row) return null
    const hasLiked = claims
      ? Boolean(
          await tx
            .selectFrom('video_likes')
            .select('video_id')
            .where('video_id', '=', id)
            .where('user_id', '=', claims.sub)
            .executeTakeFirst(),
        )
      : false
    const isOwner = claims?.sub === row.creator_id
    const admin = claims && !isOwner ? await isAdmin(tx) : false
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      type: row.type as VideoDetail['type'],
      isPublic: row.is_public,
      status: row.status as VideoStatus,
      statusMessage: isOwner || admin ? row.status_message : null,
      categoryId: row.category_id,
      categoryName: categoryName(row.category_id),
      createdAt: new Date(row.created_at).toISOString(),
      durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
      width: row.width,
      height: row.height,
      views: Number(row.view_count),
      likes: row.like_count,
      comments: row.comment_count,
      quotes: row.quote_count,
      hasLiked,
      creator: { id: row.creator_id, username: row.username, avatarPath: row.avatar_path, role: row.role },
      hlsPath: row.hls_path,
      mp4Path: row.mp4_path,
      thumbnailPath: row.thumbnail_path,
      externalUrl: row.external_url,
      isOwner,
      canDelete: isOwner || admin,
    }
  })
}

/** Whether the caller can see the video (for resource checks that need nothing else). */
export async function canSeeVideo(claims: JwtClaims | null, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  return asCaller(claims, async (tx) => Boolean(await visibleVideo(tx, id)))
}

function visibleVideo(tx: Tx, id: string) {
  return tx.selectFrom('videos').select(['id', 'creator_id']).where('id', '=', id).executeTakeFirst()
}

// Likes ----------------------------------------------------------------------------------

/**
 * Likes or unlikes the video as the caller. `want` is the state asked for
 * (a form says which, so a double submit cannot undo itself); without it the
 * like flips. Returns the count after the change, as the database keeps it.
 */
export async function toggleLike(claims: JwtClaims, id: string, want?: boolean): Promise<LikeState> {
  if (!isUuid(id)) throw notFound()
  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, id))) throw notFound()
    return setLike(tx, 'video', id, claims.sub, want)
  })
}

/** Where each kind of like lives: its table, the liked row's key column, and the counted table. */
const LIKES = {
  video: { table: 'video_likes', key: 'video_id', counted: 'videos' },
  quote: { table: 'quote_likes', key: 'quote_id', counted: 'quotes' },
} as const

/**
 * Sets the caller's like on a video or quote to `want` (or flips it), inside
 * the caller's transaction so RLS decides, and returns the count the
 * database's trigger keeps. The insert names no user: it defaults to auth.uid().
 */
async function setLike(tx: Tx, kind: keyof typeof LIKES, id: string, userId: string, want?: boolean): Promise<LikeState> {
  const { table, key, counted } = LIKES[kind]
  const existing = await sql`select 1 from ${sql.table(table)} where ${sql.ref(key)} = ${id} and user_id = ${userId}`.execute(tx)
  const liked = existing.rows.length > 0
  const target = want ?? !liked
  if (target && !liked) {
    await sql`insert into ${sql.table(table)} (${sql.ref(key)}) values (${id}) on conflict do nothing`.execute(tx)
  } else if (!target && liked) {
    await sql`delete from ${sql.table(table)} where ${sql.ref(key)} = ${id} and user_id = ${userId}`.execute(tx)
  }
  const { rows } = await sql<{ like_count: number }>`select like_count from ${sql.table(counted)} where id = ${id}`.execute(tx)
  return { likes: rows[0]?.like_count ?? 0, hasLiked: target }
}

// Views ----------------------------------------------------------------------------------

/**
 * Counts a view of the video for the signed-in caller: at most one per
 * viewer, video and hour (`public.record_view` keys signed-in viewers by
 * their id). True when this call counted. Visitors are not counted: the
 * video page requires a login (spec section 2).
 */
export async function recordView(claims: JwtClaims | null, id: string): Promise<boolean> {
  if (!claims || !isUuid(id)) return false
  const result = await asCaller(claims, (tx) =>
    sql<{ counted: boolean }>`select public.record_view(${id}::uuid) as counted`.execute(tx),
  )
  return Boolean(result.rows[0]?.counted)
}

// Comments -------------------------------------------------------------------------------

const COMMENTS_LIMIT = 100

/** The newest comments of a visible video (an empty list for a hidden one). */
export async function listComments(claims: JwtClaims | null, videoId: string, limit = COMMENTS_LIMIT): Promise<CommentView[]> {
  if (!isUuid(videoId)) return []
  return asCaller(claims, async (tx) => {
    const video = await visibleVideo(tx, videoId)
    if (!video) return []
    const rows = await tx
      .selectFrom('comments')
      .innerJoin('profiles', 'profiles.id', 'comments.user_id')
      .select([
        'comments.id',
        'comments.body',
        'comments.created_at',
        'comments.user_id',
        'profiles.username',
        'profiles.avatar_path',
        'profiles.role',
      ])
      .where('comments.video_id', '=', videoId)
      .orderBy('comments.created_at', 'desc')
      .orderBy('comments.id', 'desc')
      .limit(Math.min(Math.max(limit, 1), 500))
      .execute()
    const admin = claims ? await isAdmin(tx) : false
    return rows.map((row) => ({
      id: row.id,
      body: row.body,
      createdAt: new Date(row.created_at).toISOString(),
      user: { id: row.user_id, username: row.username, avatarPath: row.avatar_path, role: row.role },
      canDelete: Boolean(claims) && (row.user_id === claims?.sub || video.creator_id === claims?.sub || admin),
    }))
  })
}

/** Adds the caller's comment; 400 'Please enter a comment' when empty after trimming, 404 for a hidden video. */
export async function addComment(claims: JwtClaims | null, videoId: string, body: unknown): Promise<CommentView> {
  if (!claims) throw new VideoActionError(401, VIDEO_MESSAGES.loginToComment)
  const parsed = commentSchema.safeParse({ body })
  if (!parsed.success) throw new VideoActionError(400, parsed.error.issues[0]?.message ?? VIDEO_MESSAGES.emptyComment)
  if (!isUuid(videoId)) throw notFound()
  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, videoId))) throw notFound()
    const row = await tx
      .insertInto('comments')
      .values({ video_id: videoId, body: parsed.data.body })
      .returning(['id', 'body', 'created_at'])
      .executeTakeFirstOrThrow()
    const me = await tx
      .selectFrom('profiles')
      .select(['username', 'avatar_path', 'role'])
      .where('id', '=', claims.sub)
      .executeTakeFirstOrThrow()
    return {
      id: row.id,
      body: row.body,
      createdAt: new Date(row.created_at).toISOString(),
      user: { id: claims.sub, username: me.username, avatarPath: me.avatar_path, role: me.role },
      canDelete: true,
    }
  })
}

/** Deletes a comment as the caller: its author, the video's creator or an admin. */
export async function deleteComment(claims: JwtClaims | null, commentId: string): Promise<void> {
  if (!claims) throw new VideoActionError(401, VIDEO_MESSAGES.loginToComment)
  if (!isUuid(commentId)) throw new VideoActionError(404, VIDEO_MESSAGES.commentNotFound)
  await asCaller(claims, async (tx) => {
    const deleted = await tx.deleteFrom('comments').where('id', '=', commentId).returning('id').executeTakeFirst()
    if (deleted) return
    const exists = await tx.selectFrom('comments').select('id').where('id', '=', commentId).executeTakeFirst()
    throw exists
      ? new VideoActionError(403, VIDEO_MESSAGES.notYourComment)
      : new VideoActionError(404, VIDEO_MESSAGES.commentNotFound)
  })
}

// Quotes ---------------------------------------------------------------------------------

/** The quotes of a visible video, newest first (an empty list for a hidden one). */
export async function listQuotes(claims: JwtClaims | null, videoId: string, limit = 100): Promise<QuoteView[]> {
  if (!isUuid(videoId)) return []
  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, videoId))) return []
    const rows = await tx
      .selectFrom('quotes')
      .innerJoin('profiles', 'profiles.id', 'quotes.user_id')
      .select([
        'quotes.id',
        'quotes.type',
        'quotes.body',
        'quotes.created_at',
        'quotes.like_count',
        'quotes.user_id',
        'quotes.response_status',
        'quotes.response_hls_path',
        'quotes.response_mp4_path',
        'profiles.username',
        'profiles.avatar_path',
        'profiles.role',
      ])
      .where('quotes.video_id', '=', videoId)
      .orderBy('quotes.created_at', 'desc')
      .orderBy('quotes.id', 'desc')
      .limit(Math.min(Math.max(limit, 1), 500))
      .execute()
    const liked = new Set<string>()
    if (claims && rows.length) {
      const likes = await tx
        .selectFrom('quote_likes')
        .select('quote_id')
        .where('user_id', '=', claims.sub)
        .where(
          'quote_id',
          'in',
          rows.map((row) => row.id),
        )
        .execute()
      for (const like of likes) liked.add(like.quote_id)
    }
    const admin = claims ? await isAdmin(tx) : false
    return rows.map((row) => ({
      id: row.id,
      type: row.type as QuoteView['type'],
      body: row.body,
      createdAt: new Date(row.created_at).toISOString(),
      likes: row.like_count,
      hasLiked: liked.has(row.id),
      creator: { id: row.user_id, username: row.username, avatarPath: row.avatar_path, role: row.role },
      response:
        row.type === 'video'
          ? {
              status: (row.response_status ?? 'processing') as 'processing' | 'ready' | 'failed',
              hlsPath: row.response_hls_path,
              mp4Path: row.response_mp4_path,
            }
          : null,
      canDelete: Boolean(claims) && (row.user_id === claims?.sub || admin),
    }))
  })
}

/** Likes or unlikes a quote as the caller (`want` as for videos). */
export async function toggleQuoteLike(claims: JwtClaims | null, quoteId: string, want?: boolean): Promise<LikeState> {
  if (!claims) throw new VideoActionError(401, VIDEO_MESSAGES.loginToLikeQuote)
  if (!isUuid(quoteId)) throw new VideoActionError(404, VIDEO_MESSAGES.quoteNotFound)
  return asCaller(claims, async (tx) => {
    const quote = await tx.selectFrom('quotes').select('id').where('id', '=', quoteId).executeTakeFirst()
    if (!quote) throw new VideoActionError(404, VIDEO_MESSAGES.quoteNotFound)
    return setLike(tx, 'quote', quoteId, claims.sub, want)
  })
}

/**
 * Deletes a quote as the caller: its author or an admin (the delete
 * policy decides), then its response files. Returns the spec's message.
 */
export async function deleteQuote(claims: JwtClaims | null, quoteId: string): Promise<string> {
  if (!claims) throw new VideoActionError(401, VIDEO_MESSAGES.loginToDeleteQuote)
  if (!isUuid(quoteId)) throw new VideoActionError(404, VIDEO_MESSAGES.quoteNotFound)
  const deleted = await asCaller(claims, async (tx) => {
    const row = await tx
      .deleteFrom('quotes')
      .where('id', '=', quoteId)
      .returning(['id', 'response_source_path'])
      .executeTakeFirst()
    if (row) return row
    const exists = await tx.selectFrom('quotes').select('id').where('id', '=', quoteId).executeTakeFirst()
    throw exists
      ? new VideoActionError(403, VIDEO_MESSAGES.notYourQuote)
      : new VideoActionError(404, VIDEO_MESSAGES.quoteNotFound)
  })
  await removeFiles(`quote ${quoteId} was deleted by its author or an admin`, {
    uploads: deleted.response_source_path ? [deleted.response_source_path] : [],
    mediaPrefix: `quotes/${quoteId}/`,
  })
  return VIDEO_MESSAGES.quoteDeleted
}

// Deleting a video -----------------------------------------------------------------------

/**
 * Deletes the video as the caller — `DELETE … RETURNING` under the delete
 * policy decides owner-or-admin — and then every file it had: the upload,
 * its renditions under `media/videos/<id>/`, its thumbnail (or generated
 * poster), and the files of its video quotes. 403 'You can only delete your
 * own videos' when the caller can see it but may not delete it; 404 when
 * they cannot see it.
 */
export async function deleteVideo(claims: JwtClaims | null, id: string): Promise<string> {
  if (!claims) throw new VideoActionError(401, VIDEO_MESSAGES.noToken)
  if (!isUuid(id)) throw notFound()
  const deleted = await asCaller(claims, async (tx) => {
    // Quotes go with the video (on delete cascade): collect their files first.
    const quotes = await tx
      .selectFrom('quotes')
      .select(['id', 'response_source_path'])
      .where('video_id', '=', id)
      .where('type', '=', 'video')
      .execute()
    const row = await tx
      .deleteFrom('videos')
      .where('id', '=', id)
      .returning(['id', 'creator_id', 'source_path', 'thumbnail_path'])
      .executeTakeFirst()
    if (row) return { ...row, quotes }
    throw (await visibleVideo(tx, id)) ? new VideoActionError(403, VIDEO_MESSAGES.notYourVideo) : notFound()
  })
  const reason = `video ${id} was deleted by its owner or an admin: its files go with it`
  await removeFiles(reason, {
    uploads: [deleted.source_path, ...deleted.quotes.map((quote) => quote.response_source_path)].filter(
      (path): path is string => Boolean(path),
    ),
    mediaPrefix: `videos/${id}/`,
    extraMediaPrefixes: deleted.quotes.map((quote) => `quotes/${quote.id}/`),
    thumbnails: [deleted.thumbnail_path, `${deleted.creator_id}/${id}-poster.jpg`].filter(
      (path): path is string => Boolean(path),
    ),
  })
  return VIDEO_MESSAGES.deleted
}

interface FilesToRemove {
  uploads?: string[]
  mediaPrefix?: string
  extraMediaPrefixes?: string[]
  thumbnails?: string[]
}

/**
 * Removes a deleted row's files with the service role: the caller may not
 * delete from `media` (the worker's bucket) nor, as an admin, always see
 * every object. Names under a prefix are read from `storage.objects` (Storage
 * lists one folder level at a time; HLS has nested ones), then removed
 * through Storage's API so the bytes go too. A failure is logged, not thrown:
 * the row is gone, and the user's delete succeeded.
 */
async function removeFiles(reason: string, files: FilesToRemove): Promise<void> {
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
    const storage = serviceStorage()
    const batches: [string, string[]][] = [
      ['uploads', files.uploads ?? []],
      ['media', mediaNames],
      ['thumbnails', files.thumbnails ?? []],
    ]
    for (const [bucket, names] of batches) {
      for (let start = 0; start < names.length; start += 500) {
        const { error } = await storage.from(bucket).remove(names.slice(start, start + 500))
        if (error) console.warn(`[videos] could not remove ${names.length} files from ${bucket} (${reason}): ${error.message}`)
      }
    }
  } catch (error) {
    console.warn(`[videos] could not remove files (${reason}): ${error instanceof Error ? error.message : String(error)}`)
  }
}

function serviceStorage() {
  const settings = supabaseSettings()
  return createClient(settings.url, settings.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  }).storage
}
