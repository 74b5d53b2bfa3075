import { useEffect, useRef } from 'react'

/**
 * The lesson player's keyboard shortcuts (ADR 0043), listed in the help dialog
 * (`?`). They act on the page's player wherever focus is on the page, except:
 * - while typing: in an input, textarea, select or editable element;
 * - with Ctrl, Cmd or Alt held (the browser's and the system's own shortcuts);
 * - while a modal dialog is open (its own keys), or another handler took the key;
 * - space and the arrows keep their own meaning on a control outside the player
 *   (space presses a focused button, arrows move in a menu).
 * The reel viewer uses only the speed keys (`{ set: 'speed' }`): its arrows move between clips.
 */
export type ShortcutAction =
  | 'toggle-play'
  | 'back-10'
  | 'forward-10'
  | 'back-5'
  | 'forward-5'
  | 'volume-up'
  | 'volume-down'
  | 'mute'
  | 'captions'
  | 'fullscreen'
  | 'frame-back'
  | 'frame-forward'
  | 'slower'
  | 'faster'
  | 'help'

export interface ShortcutHelp {
  keys: string[]
  /** How a screen reader says the keys, when the symbols say it badly. */
  spoken?: string
  does: string
}

/** The help dialog's list, in the order it shows them. */
export const SHORTCUT_HELP: readonly ShortcutHelp[] = [
  { keys: ['Space', 'K'], does: 'Play or pause' },
  { keys: ['J'], does: 'Back 10 seconds' },
  { keys: ['L'], does: 'Forward 10 seconds' },
  { keys: ['←'], spoken: 'Left arrow', does: 'Back 5 seconds' },
  { keys: ['→'], spoken: 'Right arrow', does: 'Forward 5 seconds' },
  { keys: ['↑'], spoken: 'Up arrow', does: 'Volume up' },
  { keys: ['↓'], spoken: 'Down arrow', does: 'Volume down' },
  { keys: ['M'], does: 'Mute or unmute' },
  { keys: ['C'], does: 'Captions on or off' },
  { keys: ['F'], does: 'Full screen on or off' },
  { keys: [',', '.'], spoken: 'Comma, period', does: 'One frame back or forward (when paused)' },
  { keys: ['<', '>'], spoken: 'Less than, greater than', does: 'Slower or faster' },
  { keys: ['?'], spoken: 'Question mark', does: 'Show these shortcuts' },
]

const LETTER_KEYS: Record<string, ShortcutAction> = {
  k: 'toggle-play',
  j: 'back-10',
  l: 'forward-10',
  m: 'mute',
  c: 'captions',
  f: 'fullscreen',
  ',': 'frame-back',
  '.': 'frame-forward',
  '<': 'slower',
  '>': 'faster',
  '?': 'help',
}

/** Keys that also mean something on a focused control: only on the page itself or inside the player. */
const PLACE_KEYS: Record<string, ShortcutAction> = {
  ' ': 'toggle-play',
  ArrowLeft: 'back-5',
  ArrowRight: 'forward-5',
  ArrowUp: 'volume-up',
  ArrowDown: 'volume-down',
}

const SPEED_ACTIONS: ReadonlySet<ShortcutAction> = new Set(['slower', 'faster'])

const FIELDS = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])'
const CONTROLS = 'button, a[href], summary, [role="button"], [role="link"], [role="menuitem"], [role="tab"], [role="slider"]'

/**
 * The action a key press asks for, or null when it is not a shortcut here. `player` is the
 * player's box (its video, its buttons): space and arrows act on it and on the page itself.
 */
export function shortcutFor(
  event: Pick<
    KeyboardEvent,
    'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'defaultPrevented' | 'isComposing' | 'target'
  >,
  player: Element | null,
  set: 'lesson' | 'speed' = 'lesson',
): ShortcutAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || event.isComposing) return null
  const target = event.target instanceof Element ? event.target : null
  if (target && (target.closest(FIELDS) || (target as HTMLElement).isContentEditable)) return null
  if (typeof document !== 'undefined' && document.querySelector('dialog[open]')) return null
  const letter = LETTER_KEYS[event.key.length === 1 ? event.key.toLowerCase() : ''] ?? null
  // K, J, L… with Shift are not ours (Shift is how "?", "<" and ">" are typed).
  const action = letter && !(event.shiftKey && /^[a-z]$/i.test(event.key)) ? letter : placeAction(event, target, player)
  if (!action) return null
  return set === 'speed' && !SPEED_ACTIONS.has(action) ? null : action
}

function placeAction(event: Pick<KeyboardEvent, 'key' | 'shiftKey'>, target: Element | null, player: Element | null) {
  const action = PLACE_KEYS[event.key]
  if (!action || event.shiftKey) return null
  const onPage = !target || target === document.body || target === document.documentElement
  const inPlayer = Boolean(target && player?.contains(target))
  if (!onPage && !inPlayer) return null
  // Space presses a focused button, also the player's own (CC).
  if (action === 'toggle-play' && target?.closest(CONTROLS)) return null
  return action
}

/** A frame, for stepping while paused (the renditions are 24–30 fps; the browser snaps to the nearest frame). */
export const FRAME_SECONDS = 1 / 30
const VOLUME_STEP = 0.1

export interface ShortcutHandlers {
  /** `?`: open the help dialog. */
  onHelp?: () => void
  /** `<` / `>`: one speed step. */
  onSpeedStep?: (direction: 1 | -1) => void
  /** `c`: captions on or off (the CC button's toggle). */
  onCaptions?: () => void
  /** `f`: full screen on or off. */
  onFullscreen?: () => void
}

/** Does what `action` asks on `video`; the handlers do what the video element cannot (dialogs, captions, speed). */
export function runShortcut(action: ShortcutAction, video: HTMLVideoElement, handlers: ShortcutHandlers): void {
  const seek = (delta: number) => {
    const end = Number.isFinite(video.duration) ? video.duration : Number.POSITIVE_INFINITY
    video.currentTime = Math.min(end, Math.max(0, video.currentTime + delta))
  }
  const volume = (delta: number) => {
    video.volume = Math.round(Math.min(1, Math.max(0, video.volume + delta)) * 10) / 10
    if (delta > 0 && video.muted) video.muted = false
  }
  switch (action) {
    case 'toggle-play':
      if (video.paused || video.ended) video.play()?.catch(() => undefined)
      else video.pause()
      return
    case 'back-10':
      return seek(-10)
    case 'forward-10':
      return seek(10)
    case 'back-5':
      return seek(-5)
    case 'forward-5':
      return seek(5)
    case 'volume-up':
      return volume(VOLUME_STEP)
    case 'volume-down':
      return volume(-VOLUME_STEP)
    case 'mute':
      video.muted = !video.muted
      return
    case 'frame-back':
      if (video.paused) seek(-FRAME_SECONDS)
      return
    case 'frame-forward':
      if (video.paused) seek(FRAME_SECONDS)
      return
    case 'slower':
      return handlers.onSpeedStep?.(-1)
    case 'faster':
      return handlers.onSpeedStep?.(1)
    case 'captions':
      return handlers.onCaptions?.()
    case 'fullscreen':
      return handlers.onFullscreen?.()
    case 'help':
      return handlers.onHelp?.()
  }
}

/**
 * Listens for the shortcuts on the document while `enabled`, acting on `video` (its box is
 * its parent element: the player). A handled key's default (scrolling, the native
 * controls' own handling) is prevented.
 */
export function usePlayerShortcuts(
  video: HTMLVideoElement | null,
  handlers: ShortcutHandlers,
  { enabled = true, set = 'lesson' }: { enabled?: boolean; set?: 'lesson' | 'speed' } = {},
): void {
  const handlersRef = useRef(handlers)
  handlersRef.current = handlers
  useEffect(() => {
    if (!video || !enabled) return
    const onKeyDown = (event: KeyboardEvent) => {
      const action = shortcutFor(event, video.parentElement, set)
      if (!action) return
      event.preventDefault()
      runShortcut(action, video, handlersRef.current)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [video, enabled, set])
}
