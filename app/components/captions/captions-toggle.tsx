import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'
import { useHydrated } from '~/components/use-hydrated'
import type { PlayerCaptionTrack } from '~/components/video-player'

/**
 * The player's CC button (ADR 0019). Turns captions on in the learner's remembered
 * language (else the first track) or off, and remembers the choice in this browser —
 * also when it is made in the browser's own captions menu. Rendered only with
 * JavaScript: without it the native controls' captions menu does the same. Every
 * player on the page follows a choice made in one (the reel viewer's clips).
 *
 * `display: 'overlay'` (the reel viewer): "on" is the track's `hidden` mode — the
 * browser loads its cues but draws nothing, and the page draws the current cue
 * itself where it fits (ReelCaption).
 */
const STORAGE_KEY = 'lumen:captions'
const CHANGE_EVENT = 'lumen:captions-change'

export function CaptionsToggle({
  videoRef,
  tracks,
  defaultLanguage = null,
  className = 'absolute right-2 top-2',
  display = 'native',
}: {
  videoRef: RefObject<HTMLVideoElement | null>
  tracks: readonly PlayerCaptionTrack[]
  /** The track the page starts showing (`<track default>`: the learner's profile asks for captions). */
  defaultLanguage?: string | null
  /** Where the button sits over the player. */
  className?: string
  /** Who draws the cues: the browser ('native') or the page ('overlay'). */
  display?: 'native' | 'overlay'
}) {
  const onMode: TextTrackMode = display === 'overlay' ? 'hidden' : 'showing'
  const hydrated = useHydrated()
  const [showing, setShowing] = useState<string | null>(null)
  // The state our own code (or the track's `default`) set: its change events are not the learner's choice.
  const expected = useRef<string | null>(defaultLanguage)

  const apply = useCallback(
    (language: string | null) => {
      const list = videoRef.current?.textTracks
      if (!list) return
      expected.current = language
      for (const track of Array.from(list)) {
        if (track.kind !== 'captions' && track.kind !== 'subtitles') continue
        track.mode = track.language === language ? onMode : 'disabled'
      }
      setShowing(language)
    },
    [videoRef, onMode],
  )

  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    const remembered = readPreference()
    // The language on now; in overlay mode a track the browser turned on (`<track default>`) is switched to `hidden`.
    const on = () => {
      const list = Array.from(video.textTracks).filter((track) => track.kind === 'captions' || track.kind === 'subtitles')
      if (display === 'overlay') for (const track of list) if (track.mode === 'showing') track.mode = 'hidden'
      return list.find((track) => track.mode === onMode)?.language ?? null
    }
    const current = on()
    if (remembered === 'off') apply(null)
    else if (remembered && tracks.some((track) => track.language === remembered)) apply(remembered)
    else setShowing(current)
    // A choice made in the browser's own captions menu is remembered too.
    const onChange = () => {
      const now = on()
      setShowing(now)
      if (now !== expected.current) writePreference(now ?? 'off')
      expected.current = now
    }
    // Another player on the page changed the choice: follow it.
    const onOtherPlayer = (event: Event) => {
      const value = (event as CustomEvent<string>).detail
      if (value === 'off') apply(null)
      else if (tracks.some((track) => track.language === value)) apply(value)
      else apply(tracks[0]?.language ?? null)
    }
    // The engine replaced the tracks (hls.js's subtitle renditions took over from the `<track>`
    // elements, ADR 0026): the same choice holds on the new ones.
    const onAdded = () => apply(expected.current)
    video.textTracks.addEventListener('change', onChange)
    video.textTracks.addEventListener('addtrack', onAdded)
    window.addEventListener(CHANGE_EVENT, onOtherPlayer)
    return () => {
      video.textTracks.removeEventListener('change', onChange)
      video.textTracks.removeEventListener('addtrack', onAdded)
      window.removeEventListener(CHANGE_EVENT, onOtherPlayer)
    }
  }, [videoRef, tracks, apply, display, onMode])

  if (!hydrated) return null
  const on = showing !== null
  const toggle = () => {
    const remembered = readPreference()
    const language = on ? null : (tracks.find((track) => track.language === remembered)?.language ?? tracks[0]!.language)
    apply(language)
    writePreference(language ?? 'off')
    window.dispatchEvent(new CustomEvent(CHANGE_EVENT, { detail: language ?? 'off' }))
  }
  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={on}
      data-captions-toggle
      aria-label={on ? 'Turn captions off' : 'Turn captions on'}
      title={on ? 'Captions on' : 'Captions off'}
      className={`${className} z-10 inline-flex min-h-11 min-w-11 items-center justify-center rounded-full px-3 text-sm font-bold tracking-wide ring-1 ring-inset transition-colors ${
        on ? 'bg-white text-ink-950 ring-white' : 'bg-ink-950/70 text-white ring-white/40 hover:bg-ink-950/90'
      }`}
    >
      CC
    </button>
  )
}

function readPreference(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY)
  } catch {
    return null
  }
}

function writePreference(value: string) {
  try {
    window.localStorage.setItem(STORAGE_KEY, value)
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
}
