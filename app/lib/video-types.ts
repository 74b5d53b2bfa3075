/**
 * The shapes pages and components render, made by the domain modules in
 * app/server: plain data, importable anywhere (components never import
 * *.server.ts).
 */
import type { WatchPosition } from './schemas/progress'

export type VideoType = 'video' | 'spark'

export type VideoStatus = 'uploading' | 'processing' | 'ready' | 'failed'

export interface VideoCardItem {
  id: string
  title: string
  description: string
  type: VideoType
  category: { id: string; name: string }
  isPublic: boolean
  thumbnailUrl: string | null
  mp4Url: string | null
  hlsUrl: string | null
  durationSeconds: number | null
  /** The picture's size as displayed (null until processed): a landscape spark is letterboxed in the reels, not cropped. */
  width: number | null
  height: number | null
  creator: { id: string; username: string; avatarUrl: string | null }
  likeCount: number
  commentCount: number
  viewCount: number
  createdAt: string
  /** A search hit inside the captions: the line said and where it starts (whole seconds, for `?t=`). */
  said?: { text: string; startSeconds: number }
  /** The signed-in learner's position in it (a thin bar on the card), when they started it. */
  progress?: WatchPosition
}

export interface PersonSummary {
  id: string
  username: string
  avatarPath: string | null
  role: string
}

export interface VideoDetail {
  id: string
  title: string
  description: string
  type: 'video' | 'spark'
  isPublic: boolean
  status: VideoStatus
  /** Why processing failed: shown to the owner (and admins) only. */
  statusMessage: string | null
  categoryId: string
  categoryName: string
  createdAt: string
  durationSeconds: number | null
  width: number | null
  height: number | null
  views: number
  likes: number
  comments: number
  quotes: number
  hasLiked: boolean
  creator: PersonSummary
  hlsPath: string | null
  mp4Path: string | null
  /** Ready and playing one rendition while the worker adds the rest (ADR 0025). */
  moreQualitiesPending: boolean
  thumbnailPath: string | null
  externalUrl: string | null
  isOwner: boolean
  /** Owner or admin (the delete policy's rule, for showing the control). */
  canDelete: boolean
}

export interface CommentView {
  id: string
  body: string
  createdAt: string
  user: PersonSummary
  /** The author, the video's creator or an admin (the delete policy's rule). */
  canDelete: boolean
}

export interface QuoteView {
  id: string
  /** The quoted (original) video. */
  videoId: string
  type: 'text' | 'video'
  body: string
  /** The moment of the original the quote is about, in seconds (null: the whole video). */
  moment: number | null
  createdAt: string
  likes: number
  hasLiked: boolean
  creator: PersonSummary
  /** A video response: its status and renditions (bucket `media`, `quotes/<id>/…`). */
  response: {
    status: 'processing' | 'ready' | 'failed'
    hlsPath: string | null
    mp4Path: string | null
    posterPath: string | null
  } | null
  canDelete: boolean
}

export interface LikeState {
  likes: number
  hasLiked: boolean
}
