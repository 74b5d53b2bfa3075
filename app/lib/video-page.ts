import type { VideoIntent } from '~/lib/schemas/video'
import type { FormFailure } from './forms'
import type { QuoteResponseMedia } from './quote-types'
import type { LikeState } from '~/lib/video-types'

/**
 * What /video/:id sends its parts: the loader's shapes and the action's
 * answers, as plain data the route and app/components/video share.
 */
export type PersonRole = 'user' | 'creator' | 'admin'

export interface VideoPagePerson {
  id: string
  username: string
  role: PersonRole
  avatarUrl: string | null
}

export interface VideoPageComment {
  id: string
  body: string
  createdAt: string
  user: VideoPagePerson
  canDelete: boolean
}

export interface VideoPageQuote extends LikeState {
  id: string
  type: 'text' | 'video'
  body: string
  /** The moment of the original the quote is about, in seconds (null: the whole video). */
  moment: number | null
  createdAt: string
  canDelete: boolean
  creator: VideoPagePerson
  response: QuoteResponseMedia | null
}

export type ShareResult = { ok: true; url: string } | { ok: false; message: string }

/** The action's answer to every intent: data for scripted posts, the refusal either way. */
export type VideoActionData =
  | { ok: true; intent: 'like' | 'quote-like'; targetId: string; likes: number; hasLiked: boolean }
  | { ok: true; intent: 'comment' | 'delete-comment' | 'delete-quote'; targetId: string; message?: string }
  | (FormFailure<{ body: string }> & { intent: VideoIntent | null; targetId: string; formError: string })

export type VideoActionFailure = Extract<VideoActionData, { ok: false }>
