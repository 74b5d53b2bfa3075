import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import { commentSchema, VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { CommentView } from '~/lib/video-types'
import { asCaller, type JwtClaims } from './db.server'
import { DomainError } from './errors.server'
import { visibleVideo } from './permissions.server'

/**
 * Comments (docs/product.md: Data; Rules and messages), as the caller: row-level
 * security shows a video's comments exactly when the video is visible, lets
 * users comment only as themselves, and lets the author, the video's creator
 * or an admin delete (`public.can_delete_comment`, asked here too for the
 * Delete control).
 */

const notFound = () => new DomainError('not_found', VIDEO_MESSAGES.notFound)

const COMMENTS_LIMIT = 100

/** The newest comments of a visible video (an empty list for a hidden one), skipping the newest `offset`. */
export async function listComments(
  claims: JwtClaims | null,
  videoId: string,
  limit = COMMENTS_LIMIT,
  offset = 0,
): Promise<CommentView[]> {
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
      .select(
        claims
          ? sql<boolean>`public.can_delete_comment(comments.user_id, comments.video_id)`.as('can_delete')
          : sql<boolean>`false`.as('can_delete'),
      )
      .where('comments.video_id', '=', videoId)
      .orderBy('comments.created_at', 'desc')
      .orderBy('comments.id', 'desc')
      .limit(Math.min(Math.max(limit, 1), 500))
      .offset(Math.max(offset, 0))
      .execute()
    return rows.map(toCommentView)
  })
}

/** A comment row (with its author's profile and `can_delete`) as pages show it. */
export function toCommentView(row: {
  id: string
  body: string
  created_at: Date | string
  user_id: string
  username: string
  avatar_path: string | null
  role: string
  can_delete: boolean | null
}): CommentView {
  return {
    id: row.id,
    body: row.body,
    createdAt: new Date(row.created_at).toISOString(),
    user: { id: row.user_id, username: row.username, avatarPath: row.avatar_path, role: row.role },
    canDelete: row.can_delete === true,
  }
}

/** Adds the caller's comment; 400 'Please enter a comment' when empty after trimming, 404 for a hidden video. */
export async function addComment(claims: JwtClaims | null, videoId: string, body: unknown): Promise<CommentView> {
  if (!claims) throw new DomainError('unauthenticated', VIDEO_MESSAGES.loginToComment)
  const parsed = commentSchema.safeParse({ body })
  if (!parsed.success) throw new DomainError('invalid', parsed.error.issues[0]?.message ?? VIDEO_MESSAGES.emptyComment)
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
  if (!claims) throw new DomainError('unauthenticated', VIDEO_MESSAGES.loginToComment)
  if (!isUuid(commentId)) throw new DomainError('not_found', VIDEO_MESSAGES.commentNotFound)
  await asCaller(claims, async (tx) => {
    const deleted = await tx.deleteFrom('comments').where('id', '=', commentId).returning('id').executeTakeFirst()
    if (deleted) return
    const exists = await tx.selectFrom('comments').select('id').where('id', '=', commentId).executeTakeFirst()
    throw exists
      ? new DomainError('forbidden', VIDEO_MESSAGES.notYourComment)
      : new DomainError('not_found', VIDEO_MESSAGES.commentNotFound)
  })
}
