import { useEffect, useState, type MutableRefObject } from 'react'
import { connectionHints, isMeteredConnection, keepsMedia } from '~/lib/reel-preload'

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
 * The reel viewer's media around the clip in view (ADR 0051), once hydrated:
 *
 * - the next clip, once its first data is in, is seeked to 0 while paused, so
 *   its first frame is decoded and drawn (instead of the poster) before the
 *   swipe: `play()` then only has to start the clock;
 * - a clip two or more away from the one in view that still holds media (it
 *   played, or was the next one) is emptied: paused and `load()`ed again with
 *   `preload="none"`, which drops its buffers and decoder. So at most the
 *   previous, current and next clips hold media.
 */
export function useClipMedia({
  ids,
  current,
  hydrated,
  metered,
  videos,
}: {
  ids: readonly string[]
  current: number
  hydrated: boolean
  metered: boolean
  videos: MutableRefObject<Map<string, HTMLVideoElement>>
}) {
  const key = ids.join(' ')
  useEffect(() => {
    if (!hydrated) return
    ids.forEach((id, index) => {
      const video = videos.current.get(id)
      if (!video || keepsMedia(index, current)) return
      if (video.readyState > HTMLMediaElement.HAVE_NOTHING || video.networkState === HTMLMediaElement.NETWORK_LOADING) {
        // `preload` is "none" by now (React committed it before this effect): load() empties the element.
        video.pause()
        video.load()
      }
    })
    const next = ids[current + 1] ? videos.current.get(ids[current + 1]!) : undefined
    if (!next || metered) return
    const showFirstFrame = () => {
      // Only while it still waits at the top: a seek to 0 makes the browser decode and draw that frame.
      if (next.paused && next.currentTime === 0 && !next.seeking) next.currentTime = 0
    }
    if (next.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
      showFirstFrame()
      return
    }
    next.addEventListener('loadeddata', showFirstFrame, { once: true })
    return () => next.removeEventListener('loadeddata', showFirstFrame)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `ids`
  }, [key, current, hydrated, metered, videos])
}
