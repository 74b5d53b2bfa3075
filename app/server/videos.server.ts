import { sql } from 'kysely'
import { categoryName } from '~/lib/catalog'
import { isUuid } from '~/lib/ids'
import { avatarUrl, mediaUrls } from '~/lib/media-urls'
import { shareLink, VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { Chapter } from '~/lib/schemas/chapters'
import type { CommentView, PersonSummary, QuoteView, VideoDetail, VideoStatus } from '~/lib/video-types'
import { asCaller, type JwtClaims } from './db.server'
import { DomainError } from './errors.server'
import { allowed, visibleVideo } from './permissions.server'
import type { VideoPageCaptions } from './captions.server'
import { quoteResponseMedia } from './quotes.server'
import { removeFiles } from './storage.server'
import { browserSupabaseUrl } from './supabase.server'

/**
 * Videos (docs/product.md: Data, Video detail; Rules and messages): reading one
 * as the caller may see it, the video page's data, and deleting. Everything
 * runs as the caller — row-level security decides who sees and changes
 * what; this module turns "no row" into the spec's messages. Comments,
 * likes, quotes and views have their own modules.
 */

const notFound = () => new DomainError('not_found', VIDEO_MESSAGES.notFound)

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
        'videos.more_qualities_pending',
        'videos.thumbnail_path',
        'videos.external_url',
        'videos.creator_id',
        'profiles.username',
        'profiles.avatar_path',
        'profiles.role',
      ])
      // The column itself is hidden from API roles; this answers the owner and admins only.
      .select(
        claims
          ? sql<string | null>`public.video_status_message(videos.id)`.as('status_message')
          : sql<string | null>`null::text`.as('status_message'),
      )
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
    const deletable = claims ? await allowed(tx, sql<boolean>`public.can_delete_video(${row.creator_id}::uuid)`) : false
    return toVideoDetail(row, { hasLiked, isOwner: claims?.sub === row.creator_id, canDelete: deletable })
  })
}

/** A `videos` row joined to its creator's profile (with `status_message`), as the video page's reads select it. */
export interface VideoDetailRow {
  id: string
  title: string
  description: string
  type: string
  is_public: boolean
  status: string
  category_id: string
  created_at: Date | string
  duration_seconds: string | number | null
  width: number | null
  height: number | null
  view_count: string | number
  like_count: number
  comment_count: number
  quote_count: number
  hls_path: string | null
  mp4_path: string | null
  more_qualities_pending: boolean
  thumbnail_path: string | null
  external_url: string | null
  creator_id: string
  username: string
  avatar_path: string | null
  role: string
  status_message: string | null
}

export function toVideoDetail(
  row: VideoDetailRow,
  caller: { hasLiked: boolean; isOwner: boolean; canDelete: boolean },
): VideoDetail {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type as VideoDetail['type'],
    isPublic: row.is_public,
    status: row.status as VideoStatus,
    statusMessage: caller.canDelete ? row.status_message : null,
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
    hasLiked: caller.hasLiked,
    creator: { id: row.creator_id, username: row.username, avatarPath: row.avatar_path, role: row.role },
    hlsPath: row.hls_path,
    mp4Path: row.mp4_path,
    moreQualitiesPending: row.more_qualities_pending,
    thumbnailPath: row.thumbnail_path,
    externalUrl: row.external_url,
    isOwner: caller.isOwner,
    canDelete: caller.canDelete,
  }
}

/** Whether the caller can see the video (for resource checks that need nothing else). */
export async function canSeeVideo(claims: JwtClaims | null, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  return asCaller(claims, async (tx) => Boolean(await visibleVideo(tx, id)))
}

// The video page ------------------------------------------------------------------------

/** A person as pages show them: the avatar as a URL. */
export interface PersonView {
  id: string
  username: string
  role: 'user' | 'creator' | 'admin'
  avatarUrl: string | null
}

/** What the video page shows besides the video, read with it (app/server/video-page.server.ts). */
export interface VideoPageParts {
  comments: CommentView[]
  quotes: QuoteView[]
  captions: VideoPageCaptions
  /** Whether the caller follows the creator; null on their own video. */
  following: boolean | null
  chapters: Chapter[]
}

/**
 * The video and what is read with it, shaped for /video/:id: its media URLs, the share link (on
 * `siteUrl`), comments, quotes, captions and whether the caller follows the creator. Views are
 * counted by the player, not here (views.server.ts).
 */
export function videoPageView(video: VideoDetail, parts: VideoPageParts, options: { siteUrl: string }) {
  const supabaseUrl = browserSupabaseUrl()
  const person = (who: PersonSummary): PersonView => ({
    id: who.id,
    username: who.username,
    role: who.role as PersonView['role'],
    avatarUrl: avatarUrl(supabaseUrl, who.avatarPath),
  })
  return {
    video: {
      id: video.id,
      title: video.title,
      description: video.description,
      type: video.type,
      isPublic: video.isPublic,
      status: video.status,
      statusMessage: video.statusMessage,
      categoryName: video.categoryName,
      createdAt: video.createdAt,
      portrait: Boolean(video.width && video.height && video.height > video.width),
      views: video.views,
      likes: video.likes,
      hasLiked: video.hasLiked,
      commentCount: video.comments,
      quoteCount: video.quotes,
      creator: person(video.creator),
      externalUrl: video.externalUrl,
      isOwner: video.isOwner,
      canDelete: video.canDelete,
      moreQualitiesPending: video.moreQualitiesPending,
      durationSeconds: video.durationSeconds,
    },
    /** Its chapters in time order (ADR 0042); empty when it has none. */
    chapters: parts.chapters,
    media: mediaUrls(
      { id: video.id, hls_path: video.hlsPath, mp4_path: video.mp4Path, thumbnail_path: video.thumbnailPath },
      supabaseUrl,
    ),
    share: shareLink(options.siteUrl, video.id),
    /** Whether the caller follows the creator; null on their own video. */
    follow: parts.following === null ? null : { isFollowing: parts.following },
    captions: parts.captions,
    comments: parts.comments.map((comment) => pageComment(comment, person)),
    quotes: parts.quotes.map((quote) => pageQuote(quote, person)),
  }
}

/** A comment as the video page shows it (its author's avatar as a URL). */
export function pageComment(comment: CommentView, person: (who: PersonSummary) => PersonView = pagePerson) {
  return { ...comment, user: person(comment.user) }
}

/** A quote as the video page shows it. */
export function pageQuote(quote: QuoteView, person: (who: PersonSummary) => PersonView = pagePerson) {
  return {
    id: quote.id,
    type: quote.type,
    body: quote.body,
    moment: quote.moment,
    createdAt: quote.createdAt,
    likes: quote.likes,
    hasLiked: quote.hasLiked,
    canDelete: quote.canDelete,
    creator: person(quote.creator),
    response: quote.response ? quoteResponseMedia(quote.response) : null,
  }
}

function pagePerson(who: PersonSummary): PersonView {
  return {
    id: who.id,
    username: who.username,
    role: who.role as PersonView['role'],
    avatarUrl: avatarUrl(browserSupabaseUrl(), who.avatarPath),
  }
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
  if (!claims) throw new DomainError('unauthenticated', VIDEO_MESSAGES.noToken)
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
    throw (await visibleVideo(tx, id)) ? new DomainError('forbidden', VIDEO_MESSAGES.notYourVideo) : notFound()
  })
  const reason = `video ${id} was deleted by its owner or an admin: its files go with it`
  await removeFiles(reason, {
    uploads: [deleted.source_path, ...deleted.quotes.map((quote) => quote.response_source_path)].filter((path): path is string =>
      Boolean(path),
    ),
    mediaPrefix: `videos/${id}/`,
    extraMediaPrefixes: deleted.quotes.map((quote) => `quotes/${quote.id}/`),
    thumbnails: [deleted.thumbnail_path, `${deleted.creator_id}/${id}-poster.jpg`].filter((path): path is string =>
      Boolean(path),
    ),
  })
  return VIDEO_MESSAGES.deleted
}
