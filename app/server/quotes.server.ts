import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { QuoteView } from '~/lib/video-types'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError } from './errors.server'
import { removeFiles } from './storage.server'
import { visibleVideo } from './permissions.server'

/**
 * Quotes (spec: Quote; sections 4, 5, 8): text and video responses to a
 * video, as the caller. Row-level security shows a video's quotes exactly
 * when the video is visible and lets the author or an admin delete
 * (`public.can_delete_quote`, asked here too for the Delete control).
 */

/**
 * Adds a text quote inside the caller's transaction — used by the upload,
 * whose "thoughts" become its first quote in the same transaction as the
 * video. `user_id` defaults to `auth.uid()`.
 */
export async function addTextQuote(tx: Tx, videoId: string, body: string): Promise<void> {
  await tx.insertInto('quotes').values({ video_id: videoId, type: 'text', body }).execute()
}

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
      .select(
        claims ? sql<boolean>`public.can_delete_quote(quotes.user_id)`.as('can_delete') : sql<boolean>`false`.as('can_delete'),
      )
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
      canDelete: row.can_delete === true,
    }))
  })
}

/**
 * Deletes a quote as the caller: its author or an admin (the delete
 * policy decides), then its response files. Returns the spec's message.
 */
export async function deleteQuote(claims: JwtClaims | null, quoteId: string): Promise<string> {
  if (!claims) throw new DomainError('unauthenticated', VIDEO_MESSAGES.loginToDeleteQuote)
  if (!isUuid(quoteId)) throw new DomainError('not_found', VIDEO_MESSAGES.quoteNotFound)
  const deleted = await asCaller(claims, async (tx) => {
    const row = await tx
      .deleteFrom('quotes')
      .where('id', '=', quoteId)
      .returning(['id', 'response_source_path'])
      .executeTakeFirst()
    if (row) return row
    const exists = await tx.selectFrom('quotes').select('id').where('id', '=', quoteId).executeTakeFirst()
    throw exists
      ? new DomainError('forbidden', VIDEO_MESSAGES.notYourQuote)
      : new DomainError('not_found', VIDEO_MESSAGES.quoteNotFound)
  })
  await removeFiles(`quote ${quoteId} was deleted by its author or an admin`, {
    uploads: deleted.response_source_path ? [deleted.response_source_path] : [],
    mediaPrefix: `quotes/${quoteId}/`,
  })
  return VIDEO_MESSAGES.quoteDeleted
}
