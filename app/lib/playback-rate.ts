/**
 * The player's speeds (ADR 0043): 0.5× to 2× by 0.25, the only values the
 * speed menu offers and the profile stores (a check constraint on
 * `profiles.playback_rate` holds the same list).
 */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const

export type PlaybackRate = (typeof PLAYBACK_RATES)[number]

export const PLAYBACK_RATE_MESSAGES = {
  invalid: 'Choose a playback speed from 0.5× to 2×.',
  saveFailed: 'Could not save your playback speed. Please try again.',
} as const

export function isPlaybackRate(value: unknown): value is PlaybackRate {
  return typeof value === 'number' && (PLAYBACK_RATES as readonly number[]).includes(value)
}

/** A speed from a form field or JSON value ("1.5", 1.5), or null when it is not one of the steps. */
export function parsePlaybackRate(value: unknown): PlaybackRate | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  return isPlaybackRate(number) ? number : null
}

/** The next step up (`direction` 1) or down (-1), staying at the ends. */
export function stepPlaybackRate(rate: number, direction: 1 | -1): PlaybackRate {
  const index = PLAYBACK_RATES.findIndex((step) => step >= rate)
  const at = index === -1 ? PLAYBACK_RATES.length - 1 : index
  // A rate between steps (set by the browser's own menu) moves to the nearest step in that direction.
  const exact = PLAYBACK_RATES[at] === rate
  const next = direction === 1 ? (exact ? at + 1 : at) : at - 1
  return PLAYBACK_RATES[Math.min(PLAYBACK_RATES.length - 1, Math.max(0, next))]!
}

/** "1×" ("Normal" is said beside it where it is the default). */
export function playbackRateLabel(rate: number): string {
  return `${rate}×`
}
