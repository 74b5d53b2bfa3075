import { useCallback, useEffect, useState, type RefObject } from 'react'
import { useHydrated } from '~/components/use-hydrated'
import type { PlayerCaptionTrack } from '~/components/video-player'

/**
 * The player's CC button (issue 18). Turns captions on in the learner's remembered
 * language (else the first track) or off, and remembers the choice in this browser —
 * also when it is made in the browser's own captions menu. Rendered only with
 * JavaScript: without it the native controls' captions menu does the same.
 */
const STORAGE_KEY = 'lumen:captions'

export function CaptionsToggle({
  videoRef,
  tracks,
}: {
  videoRef: RefObject<HTMLVideoElement | null>
  tracks: readonly PlayerCaptionTrack[]
}) {
  const hydrated = useHydrated()
  const [showing, setShowing] = useState<string | null>(null)

  const apply = useCallback(
    (language: string | null) => {
      const list = videoRef.current?.textTracks
      if (!list) return
      for (const track of Array.from(list)) {
        if (track.kind !== 'captions' && track.kind !== 'subtitles') continue
        track.mode = track.language === language ? 'showing' : 'disabled'
      }
      setShowing(language)
    },
    [videoRef],
  )

  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    const remembered = readPreference()
    const current = Array.from(video.textTracks).find((track) => track.mode === 'showing')?.language ?? null
    if (remembered === 'off') apply(null)
    else if (remembered && tracks.some((track) => track.language === remembered)) apply(remembered)
    else setShowing(current)
    // A choice made in the browser's own captions menu is remembered too.
    const onChange = () => {
      const now = Array.from(video.textTracks).find((track) => track.mode === 'showing')?.language ?? null
      setShowing(now)
      writePreference(now ?? 'off')
    }
    video.textTracks.addEventListener('change', onChange)
    return () => video.textTracks.removeEventListener('change', onChange)
  }, [videoRef, tracks, apply])

  if (!hydrated) return null
  const on = showing !== null
  const toggle = () => {
    const remembered = readPreference()
    const language = on ? null : (tracks.find((track) => track.language === remembered)?.language ?? tracks[0]!.language)
    apply(language)
    writePreference(language ?? 'off')
  }
  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={on}
      aria-label={on ? 'Turn captions off' : 'Turn captions on'}
      title={on ? 'Captions on' : 'Captions off'}
      className={`absolute right-2 top-2 z-10 inline-flex min-h-11 min-w-11 items-center justify-center rounded-full px-3 text-sm font-bold tracking-wide ring-1 ring-inset transition-colors ${
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
