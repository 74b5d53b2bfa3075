/**
 * What the reel viewer fetches ahead of the clip in view (ADR 0051).
 *
 * - The clip in view, and on an ordinary connection the next one, are
 *   `preload="auto"`: the next clip is buffered and its first frame decoded
 *   before the viewer moves on, so it shows within a frame or two of the swipe.
 * - On a connection that looks metered or slow — the browser says Save-Data
 *   (`navigator.connection.saveData`) or an effective type of slow-2g, 2g or
 *   3g — nothing of the next clip is fetched ahead (`preload="none"`): it
 *   loads when it becomes current, and its poster shows meanwhile.
 * - The previous clip keeps what it has (`metadata`: nothing more is fetched
 *   for it), so going back is instant too; on a metered connection `none`.
 * - At most three clips (previous, current, next) hold media. Every other clip
 *   is a `<video preload="none">` without a `<source>` (its poster shows); a
 *   clip the viewer moves two past gets such a fresh element, and its old one,
 *   with its buffers and decoder, goes. The next clip's element is made when it
 *   becomes the next one and is the same element when it becomes current.
 * - Without JavaScript (server HTML, `hydrated` false) only the clip opened at
 *   preloads: the page cannot know the connection.
 */
export type ClipPreload = 'none' | 'metadata' | 'auto'

/** The part of the Network Information API read here (Chromium; other browsers have no `navigator.connection`). */
export interface ConnectionHints {
  saveData?: boolean
  effectiveType?: string
}

/** Effective connection types slow enough that a clip is not fetched before it is watched. */
export const METERED_EFFECTIVE_TYPES: readonly string[] = ['slow-2g', '2g', '3g']

/** Whether the connection looks metered or slow: Save-Data on, or an effective type of 3g or slower. */
export function isMeteredConnection(connection: ConnectionHints | null | undefined): boolean {
  if (!connection) return false
  return connection.saveData === true || METERED_EFFECTIVE_TYPES.includes(connection.effectiveType ?? '')
}

/** The browser's connection hints, or null where there are none (server, Firefox, Safari). */
export function connectionHints(): (ConnectionHints & EventTarget) | null {
  if (typeof navigator === 'undefined') return null
  const connection = (navigator as Navigator & { connection?: ConnectionHints & EventTarget }).connection
  return connection ?? null
}

/** Whether clip `index` may hold media while `current` is in view: the previous, current and next clips. */
export function keepsMedia(index: number, current: number): boolean {
  return Math.abs(index - current) <= 1
}

/** The `preload` of clip `index` while `current` is in view (see the rules above). */
export function clipPreload(options: { index: number; current: number; hydrated: boolean; metered: boolean }): ClipPreload {
  const { index, current, hydrated, metered } = options
  if (index === current) return 'auto'
  if (!hydrated) return 'none'
  if (index === current + 1) return metered ? 'none' : 'auto'
  if (index === current - 1) return metered ? 'none' : 'metadata'
  return 'none'
}
