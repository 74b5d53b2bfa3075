import { useEffect, type RefObject } from 'react'

/** Where the player sends its progress reports (app/routes/_watch+/views.report.ts). */
export const WATCH_REPORT_URL = '/views/report'
/** How often a playing video reports, in seconds of wall-clock time. */
const REPORT_EVERY_MS = 4000
/**
 * A `timeupdate` step is watching when the media clock moved no more than the wall clock
 * allows (at the playback rate, plus this slack); a longer jump is a seek. Bounded by the
 * wall clock rather than a fixed step, so a busy device whose `timeupdate`s come seconds
 * apart still gets its watching credited (a fixed 1.5 s cap dropped it, and the view with it).
 */
const STEP_SLACK_SECONDS = 0.5
/** A position that moved less than this since the last report (a pause right after one) is not sent again on its own. */
const POSITION_STEP_SECONDS = 1
/**
 * While the video plays, the 4-second reports carry the position only once it moved this far since the
 * last one sent (every third report at normal speed), so that a learner's resume point costs one write
 * per ~10 s of video rather than one per report (ADR 0056); the first report, pause, end, hiding and
 * leaving the page always carry it.
 */
export const PLAYING_POSITION_STEP_SECONDS = 10

/**
 * Reports how much of the video this page actually played (ADR
 * 0015): one watch session per mount, a report when playback starts, every
 * 4 s while it plays, and on pause, end and when the page is hidden. Each
 * report says the seconds played since the last one and which tenths of the
 * video were played; the server credits no more than the wall clock allows
 * and decides when a view counts. Seeks are not counted as watching. Each
 * report also says where playback is (`position`), which the server keeps as
 * a signed-in learner's resume point (ADR 0034): so a seek while paused is
 * reported on leaving the page, once playback has started. While playing, the
 * periodic reports carry it every ~10 s of video (ADR 0056).
 */
export function useWatchReporter(videoRef: RefObject<HTMLVideoElement | null>, videoId: string, enabled: boolean) {
  useEffect(() => {
    const video = videoRef.current
    if (!enabled || !video || typeof window === 'undefined') return
    const session = window.crypto?.randomUUID?.()
    if (!session) return
    let started = false
    let pending = 0
    let tenths = 0
    let sentTenths = 0
    // Where playback was when last reported (a signed-in learner's resume point, ADR 0034); only once this
    // page has played: a page left unplayed must not overwrite the saved position with where it sat.
    let sentPosition = -1
    let hasPlayed = false
    let last = video.currentTime
    let lastAt = performance.now()
    let chain: Promise<unknown> = Promise.resolve()

    const body = (played: number, position: number | null) => {
      const params = new URLSearchParams({ session, video: videoId, played: played.toFixed(3), tenths: String(tenths) })
      if (position !== null) params.set('position', position.toFixed(3))
      if (video.duration > 0 && Number.isFinite(video.duration)) params.set('duration', video.duration.toFixed(3))
      return params
    }

    const send = (beacon = false, periodic = false) => {
      const played = Math.min(pending, 600)
      const position = video.currentTime
      const carry = hasPlayed && (!periodic || positionDue(sentPosition, position))
      const moved = carry && Math.abs(position - sentPosition) >= POSITION_STEP_SECONDS
      if (started && played <= 0 && tenths === sentTenths && !moved) return
      started = true
      pending -= played
      sentTenths = tenths
      if (carry) sentPosition = position
      const payload = body(played, carry ? position : null)
      if (beacon && typeof navigator.sendBeacon === 'function') {
        navigator.sendBeacon(WATCH_REPORT_URL, payload)
        return
      }
      chain = chain
        .then(() => fetch(WATCH_REPORT_URL, { method: 'POST', body: payload, keepalive: true, credentials: 'same-origin' }))
        .then((response) => {
          if (response.status >= 500) pending += played
        })
        .catch(() => {
          pending += played
        })
    }

    const onTimeUpdate = () => {
      const now = video.currentTime
      const step = now - last
      const wall = (performance.now() - lastAt) / 1000
      last = now
      lastAt = performance.now()
      if (video.seeking || step <= 0 || step > wall * Math.max(video.playbackRate, 1) + STEP_SLACK_SECONDS) return
      pending += step
      if (video.duration > 0 && Number.isFinite(video.duration)) {
        const tenth = Math.min(9, Math.floor((now / video.duration) * 10))
        tenths |= 1 << tenth
        if (now - step <= 0.5) tenths |= 1
      }
    }
    const onSeeked = () => {
      last = video.currentTime
      lastAt = performance.now()
    }
    const onPlay = () => {
      hasPlayed = true
      last = video.currentTime
      lastAt = performance.now()
      if (!started) send()
    }
    const flush = () => send()
    const onHide = () => {
      if (document.visibilityState === 'hidden') send(true)
    }
    const onPageHide = () => send(true)

    video.addEventListener('timeupdate', onTimeUpdate)
    video.addEventListener('seeked', onSeeked)
    video.addEventListener('play', onPlay)
    video.addEventListener('pause', flush)
    video.addEventListener('ended', flush)
    document.addEventListener('visibilitychange', onHide)
    window.addEventListener('pagehide', onPageHide)
    const timer = window.setInterval(() => {
      if (!video.paused) send(false, true)
    }, REPORT_EVERY_MS)
    if (!video.paused) onPlay()
    return () => {
      window.clearInterval(timer)
      video.removeEventListener('timeupdate', onTimeUpdate)
      video.removeEventListener('seeked', onSeeked)
      video.removeEventListener('play', onPlay)
      video.removeEventListener('pause', flush)
      video.removeEventListener('ended', flush)
      document.removeEventListener('visibilitychange', onHide)
      window.removeEventListener('pagehide', onPageHide)
      if (started) send(true)
    }
  }, [videoRef, videoId, enabled])
}

/**
 * Whether a periodic report (the video playing) carries the position: the first one, or once it moved
 * PLAYING_POSITION_STEP_SECONDS since the last position sent (either way: a seek back counts too).
 */
export function positionDue(sentPosition: number, position: number): boolean {
  return sentPosition < 0 || Math.abs(position - sentPosition) >= PLAYING_POSITION_STEP_SECONDS
}

/** The no-JavaScript view: an image the browser loads only when scripts are off (inside `<noscript>`). */
export function pageViewUrl(videoId: string): string {
  return `/views/page/${encodeURIComponent(videoId)}`
}
