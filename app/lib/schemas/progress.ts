import { z } from 'zod'

/**
 * Resume where you left off (ADR 0034): the learner's position in a video,
 * saved by the player's progress reports and PUT /api/videos/{id}/progress,
 * shown as "Resume from 12:34", Continue watching, History and the cards'
 * progress bars. Shared by the routes, the services and the player.
 */
export const PROGRESS_MESSAGES = {
  badPosition: 'Please give a position in seconds',
  videoNotFound: 'Video not found',
  removed: 'Removed from your history',
  cleared: 'Your watch history was cleared',
  removeFailed: 'Failed to update your history',
  historyFailed: 'Failed to load your history',
  confirmClear: 'Please confirm that you want to clear your whole history',
} as const

/** The longest position accepted (a day); the database clamps it to the video's length. */
export const POSITION_MAX_SECONDS = 86_400

/** A video watched past this share of its length counts as finished (the database decides). */
export const FINISHED_SHARE = 0.95

/** Positions before this are not worth resuming (the first seconds, an accidental play). */
export const RESUME_MIN_SECONDS = 5

/** How many videos the feed's Continue watching row shows (its first row on a desktop). */
export const CONTINUE_WATCHING_SIZE = 3

export const positionSchema = z.object({
  position: z.coerce
    .number({ invalid_type_error: PROGRESS_MESSAGES.badPosition })
    .finite(PROGRESS_MESSAGES.badPosition)
    .min(0, PROGRESS_MESSAGES.badPosition)
    .max(POSITION_MAX_SECONDS, PROGRESS_MESSAGES.badPosition),
  /** The player's idea of the length, used only when the video has none on record (an embed). */
  duration: z.coerce.number().finite().positive().max(POSITION_MAX_SECONDS).optional(),
})
export type PositionInput = z.infer<typeof positionSchema>

/** Where a learner is in a video. */
export interface WatchPosition {
  positionSeconds: number
  durationSeconds: number | null
  finished: boolean
  updatedAt: string
}

/** The moment to offer "Resume from …" at, or null (nothing saved, barely started, or finished). */
export function resumeMoment(position: Pick<WatchPosition, 'positionSeconds' | 'finished'> | null | undefined): number | null {
  if (!position || position.finished || position.positionSeconds < RESUME_MIN_SECONDS) return null
  return Math.floor(position.positionSeconds)
}

/** The share of a video watched, 0–1, for a progress bar (finished is full). */
export function watchedShare(position: Pick<WatchPosition, 'positionSeconds' | 'durationSeconds' | 'finished'>): number {
  if (position.finished) return 1
  if (!position.durationSeconds || position.durationSeconds <= 0) return 0
  return Math.min(1, Math.max(0, position.positionSeconds / position.durationSeconds))
}
