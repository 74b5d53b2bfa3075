import { useEffect, useState, type MutableRefObject } from 'react'
import { connectionHints, isMeteredConnection } from '~/lib/reel-preload'

/** HTMLMediaElement's HAVE_CURRENT_DATA (spelled out: not every DOM has the constants). */
const HAVE_CURRENT_DATA = 2

/**
 * Whether the connection looks metered or slow (ADR 0051), read when the
 * viewer hydrates and again whenever the browser says it changed. False on the
 * server and where the browser gives no hints.
 */
export function useMeteredConnection(): boolean {
  const [metered, setMetered] = useState(() => isMeteredConnection(connectionHints()))
  useEffect(() => {
    const connection = connectionHints()
    if (!connection || typeof connection.addEventListener !== 'function') return
    const onChange = () => setMetered(isMeteredConnection(connection))
    onChange()
    connection.addEventListener('change', onChange)
    return () => connection.removeEventListener('change', onChange)
  }, [])
  return metered
}

/**
 * The next clip's first frame, drawn before the swipe (ADR 0051): once its
 * first data is in, the next clip is seeked to 0 while paused, so the browser
 * decodes and draws that frame (instead of the poster) and `play()` then only
 * has to start the clock. Not on a metered connection, where nothing of the
 * next clip is fetched ahead.
 *
 * (Clips two or more away from the one in view hold no media at all: the reel
 * viewer gives them a fresh `<video>` without a source, see `unloaded`. It is
 * not emptied with `load()`: Chromium ignores `preload="none"` on an element
 * once a script has called `load()` on it, and would fetch it again.)
 */
export function useNextClipFrame({
  nextId,
  hydrated,
  metered,
  videos,
}: {
  nextId: string | null
  hydrated: boolean
  metered: boolean
  videos: MutableRefObject<Map<string, HTMLVideoElement>>
}) {
  useEffect(() => {
    const next = hydrated && !metered && nextId ? videos.current.get(nextId) : undefined
    if (!next) return
    const showFirstFrame = () => {
      // Only while it still waits at the top: a seek to 0 makes the browser decode and draw that frame.
      if (next.paused && next.currentTime === 0 && !next.seeking) next.currentTime = 0
    }
    if (next.readyState >= HAVE_CURRENT_DATA) {
      showFirstFrame()
      return
    }
    next.addEventListener('loadeddata', showFirstFrame, { once: true })
    return () => next.removeEventListener('loadeddata', showFirstFrame)
  }, [nextId, hydrated, metered, videos])
}
