import { z } from 'zod'

/**
 * The video page's forms (docs/product.md, Rules and messages), shared by the browser and
 * the server, which validates again. Every action of /video/:id posts an
 * `intent` naming what it does.
 */
export const COMMENT_MAX = 2000

export const VIDEO_MESSAGES = {
  notFound: 'Video not found',
  loginToLike: 'Please login to like videos',
  likeFailed: 'Error liking video',
  loginToLikeQuote: 'Please login to like quotes',
  loginToComment: 'Please login to comment',
  emptyComment: 'Please enter a comment',
  commentTooLong: `Please keep your comment under ${COMMENT_MAX.toLocaleString('en-US')} characters`,
  unsupported: 'Please remove unsupported characters',
  commentNotFound: 'Comment not found',
  commentDeleted: 'Comment deleted',
  notYourComment: 'You can only delete your own comments',
  commentAdded: 'Comment added',
  deleted: 'video deleted successfully',
  noToken: 'No authentication token found',
  notYourVideo: 'You can only delete your own videos',
  deleteFailed: 'Failed to delete video. Please try again.',
  confirmDelete: 'Please confirm that you want to delete this video',
  quoteDeleted: 'Quote deleted successfully',
  notYourQuote: 'You can only delete your own quotes',
  quoteNotFound: 'Quote not found',
  loginToDeleteQuote: 'Please login to delete quotes',
  linkCopied: 'Video link copied to clipboard!',
  invalidShareId: 'Unable to create share link: Invalid video ID',
  quoteLikeFailed: 'Error liking quote',
  commentFailed: 'Failed to add comment. Please try again.',
  commentDeleteFailed: 'Failed to delete comment. Please try again.',
  quoteDeleteFailed: 'Failed to delete quote',
  unknownAction: 'Unknown action',
  /** More qualities coming: the video plays in one quality while the media worker adds the others (ADR 0025). */
  moreQualitiesComing: 'Playable now, more qualities coming',
} as const

export const VIDEO_INTENTS = ['like', 'comment', 'delete-comment', 'quote-like', 'delete-quote', 'delete'] as const
export type VideoIntent = (typeof VIDEO_INTENTS)[number]

export const intentSchema = z.enum(VIDEO_INTENTS)

export { isUuid } from '../ids'

export const commentSchema = z.object({
  body: z
    .string({ required_error: VIDEO_MESSAGES.emptyComment, invalid_type_error: VIDEO_MESSAGES.emptyComment })
    .trim()
    .min(1, VIDEO_MESSAGES.emptyComment)
    .max(COMMENT_MAX, VIDEO_MESSAGES.commentTooLong)
    .refine((value) => !value.includes('\u0000'), VIDEO_MESSAGES.unsupported),
})

export type CommentInput = z.output<typeof commentSchema>

/** A like form: `like` says the state wanted ("true" like, "false" unlike) so a double submit cannot undo itself. */
export const likeSchema = z.object({
  like: z.enum(['true', 'false']).transform((value) => value === 'true'),
})

/** The delete form without JavaScript must be confirmed with a checkbox; the JS dialog sends it checked. */
export const deleteVideoSchema = z.object({
  confirm: z.literal('yes', { errorMap: () => ({ message: VIDEO_MESSAGES.confirmDelete }) }),
})

/** The one value of a form field, never an array smuggled in by repeating it. */
export function field(form: FormData, name: string): string | undefined {
  const value = form.get(name)
  return typeof value === 'string' ? value : undefined
}

/**
 * The link to share for a video, or the spec's error for an id shorter than
 * 10 characters (docs/product.md, Rules and messages: Share).
 */
export function shareLink(origin: string, videoId: string): { ok: true; url: string } | { ok: false; message: string } {
  if (typeof videoId !== 'string' || videoId.trim().length < 10) return { ok: false, message: VIDEO_MESSAGES.invalidShareId }
  return { ok: true, url: `${origin.replace(/\/+$/, '')}/video/${encodeURIComponent(videoId.trim())}` }
}
