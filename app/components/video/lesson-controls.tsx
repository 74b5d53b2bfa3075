import { useCallback, useEffect, useState, type RefObject } from 'react'
import { useHydrated } from '~/components/use-hydrated'
import { PlaybackSpeedMenu } from './playback-speed-menu'
import { ShortcutsHelp, SHORTCUTS_TITLE } from './shortcuts-help'
import { usePlaybackRate } from './use-playback-rate'
import { usePlayerShortcuts } from './use-player-shortcuts'

/**
 * The lesson player's own controls (the video page; ADR 0043), over the player's top left:
 * the speed menu and a Keyboard shortcuts button, and the shortcuts themselves (`?` opens
 * their list). With JavaScript only: without it the browser's native controls are the
 * player, and the speed is set on Edit Profile.
 *
 * `playbackRate` is the learner's saved speed (null for a visitor: this browser remembers it).
 */
export function LessonControls({
  videoRef,
  playbackRate,
}: {
  videoRef: RefObject<HTMLVideoElement | null>
  playbackRate: number | null
}) {
  const hydrated = useHydrated()
  const [video, setVideo] = useState<HTMLVideoElement | null>(null)
  useEffect(() => setVideo(videoRef.current), [videoRef])
  const speed = usePlaybackRate(video, playbackRate)
  const [helpOpen, setHelpOpen] = useState(false)
  const openHelp = useCallback(() => setHelpOpen(true), [])

  usePlayerShortcuts(video, {
    onHelp: openHelp,
    onSpeedStep: speed.step,
    onCaptions: () => video?.parentElement?.querySelector<HTMLButtonElement>('[data-captions-toggle]')?.click(),
    onFullscreen: () => toggleFullscreen(video),
  })

  if (!hydrated) return null
  return (
    <>
      <div className="absolute left-2 top-2 z-10 flex gap-2" data-lesson-controls>
        <PlaybackSpeedMenu control={speed} />
        <button
          type="button"
          onClick={openHelp}
          aria-haspopup="dialog"
          title={`${SHORTCUTS_TITLE} (?)`}
          className="hidden min-h-11 min-w-11 items-center justify-center rounded-full bg-ink-950/70 px-3 text-sm font-bold text-white ring-1 ring-inset ring-white/40 hover:bg-ink-950/90 sm:inline-flex"
        >
          <span className="sr-only">{SHORTCUTS_TITLE}</span>
          <KeyboardIcon />
        </button>
      </div>
      <ShortcutsHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
    </>
  )
}

/** Full screen for the player's box (its CC button and speed menu stay), or back. */
function toggleFullscreen(video: HTMLVideoElement | null) {
  const box = video?.parentElement
  if (!video || !box) return
  if (document.fullscreenElement) {
    document.exitFullscreen().catch(() => undefined)
  } else if (box.requestFullscreen) {
    box.requestFullscreen().catch(() => undefined)
  } else {
    // iOS Safari: only the video itself goes full screen.
    ;(video as HTMLVideoElement & { webkitEnterFullscreen?: () => void }).webkitEnterFullscreen?.()
  }
}

function KeyboardIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" className="h-5 w-5" aria-hidden="true">
      <rect x="2.5" y="6" width="19" height="12" rx="2" />
      <path strokeLinecap="round" d="M6 10h.01M9.5 10h.01M13 10h.01M16.5 10h.01M8 14h8" />
    </svg>
  )
}
