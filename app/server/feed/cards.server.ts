import { sql } from 'kysely'
import { categoryName } from '~/lib/catalog'
import { avatarUrl, mediaUrls } from '~/lib/media-urls'
import type { VideoCardItem, VideoType } from '~/lib/video-types'
import { browserSupabaseUrl } from '../supabase.server'

/**
 * A video as every list reads it (the columns of a card and its creator) and as
 * a card shows it. Used by the feed lists, the person lists, For You, History
 * and Continue watching.
 */
export interface Row {
  id: string
  title: string
  description: string
  type: VideoType
  category_id: string
  is_public: boolean
  thumbnail_path: string | null
  hls_path: string | null
  mp4_path: string | null
  duration_seconds: number | null
  width: number | null
  height: number | null
  like_count: number
  comment_count: number
  view_count: number
  created_at: string
  creator_id: string
  username: string
  avatar_path: string | null
  rank?: number
  said_text?: string | null
  said_start_ms?: number | null
}

export const VIDEO_COLUMNS = sql`v.id, v.title, v.description, v.type, v.category_id, v.is_public, v.thumbnail_path,
  v.hls_path, v.mp4_path, v.duration_seconds, v.width, v.height, v.like_count, v.comment_count, v.view_count, v.created_at, v.creator_id`

/** A listed row as a card (also History and Continue watching, app/server/progress.server.ts). */
export function toItem(row: Row): VideoCardItem {
  const base = browserSupabaseUrl()
  const urls = mediaUrls(row, base)
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    category: { id: row.category_id, name: categoryName(row.category_id) },
    isPublic: row.is_public,
    thumbnailUrl: urls.posterUrl,
    mp4Url: urls.mp4Url,
    hlsUrl: urls.hlsUrl,
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    width: row.width ?? null,
    height: row.height ?? null,
    creator: { id: row.creator_id, username: row.username, avatarUrl: avatarUrl(base, row.avatar_path) },
    likeCount: Number(row.like_count),
    commentCount: Number(row.comment_count ?? 0),
    viewCount: Number(row.view_count),
    createdAt: row.created_at,
    ...(row.said_text && row.said_start_ms !== null && row.said_start_ms !== undefined
      ? { said: { text: row.said_text, startSeconds: Math.floor(Number(row.said_start_ms) / 1000) } }
      : {}),
  }
}

