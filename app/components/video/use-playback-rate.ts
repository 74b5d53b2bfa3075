import { useCallback, useEffect, useRef, useState } from 'react'
import { isPlaybackRate, parsePlaybackRate, stepPlaybackRate, type PlaybackRate } from '~/lib/playback-rate'

/**
 * The learner's playback speed on one `<video>` (ADR 0043).
 *
 * Where it starts: the speed chosen earlier in this tab (a save may still be on its
 * way), else the profile's (`saved`, signed in) or, for a visitor (`saved` null), the
 * one this browser remembers; else 1×. It is set as the element's `playbackRate` and
 * `defaultPlaybackRate` — a reload of the element (hls.js attaching, `load()`) resets
 * the rate to the default one, so it holds over that too (see hls-handoff.ts).
 *
 * A choice — the speed menu, the `<`/`>` keys, or the browser's own speed menu on the
 * native controls (also one made before the page's scripts ran) — is applied to every
 * player on the page, remembered in this browser, and for a signed-in learner saved to
 * their profile (POST /profile/playback-speed, once the choosing settles).
 */
const STORAGE_KEY = 'lumen:playback-rate'
const CHANGE_EVENT = 'lumen:playback-rate-change'
export const PLAYBACK_SPEED_URL = '/profile/playback-speed'
/** Quick `>` presses are saved once, when they stop. */
const SAVE_DELAY_MS = 400

let chosenInThisTab: PlaybackRate | null = null
let pendingSave: ReturnType<typeof setTimeout> | null = null

export interface PlaybackRateControl {
  rate: PlaybackRate
  /** The learner chose a speed: apply it everywhere, remember it, save it. */
  choose: (rate: PlaybackRate) => void
  /** One step faster (1) or slower (-1). */
  step: (direction: 1 | -1) => void
}

export function usePlaybackRate(video: HTMLVideoElement | null, saved: number | null): PlaybackRateControl {
  const [rate, setRate] = useState<PlaybackRate>(() => initialRate(saved))
  const rateRef = useRef(rate)
  const signedIn = saved !== null

  // The state may start on the server's guess (no storage there): read the browser's once it runs.
  useEffect(() => {
    const start = initialRate(saved)
    rateRef.current = start
    setRate(start)
    // Only on mount: later loader data (a revalidation) must not undo a choice being saved.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const choose = useCallback(
    (next: PlaybackRate) => {
      rateRef.current = next
      setRate(next)
      chosenInThisTab = next
      writeLocal(next)
      window.dispatchEvent(new CustomEvent(CHANGE_EVENT, { detail: next }))
      if (signedIn) scheduleSave(next)
    },
    [signedIn],
  )

  const step = useCallback((direction: 1 | -1) => choose(stepPlaybackRate(rateRef.current, direction)), [choose])

  // A speed chosen on the native controls before the page's scripts ran is the learner's choice.
  const adopted = useRef<HTMLVideoElement | null>(null)
  useEffect(() => {
    if (!video || adopted.current === video) return
    adopted.current = video
    const now = video.playbackRate
    if (now !== video.defaultPlaybackRate && now !== rateRef.current && isPlaybackRate(now)) choose(now)
  }, [video, choose])

  useEffect(() => {
    // A newer choice is on its way (the render after it applies it).
    if (!video || rateRef.current !== rate) return
    video.defaultPlaybackRate = rate
    video.playbackRate = rate
  }, [video, rate])

  useEffect(() => {
    if (!video) return
    // The browser's own speed menu (native controls): a step of ours is the learner's choice too.
    const onRateChange = () => {
      const now = video.playbackRate
      if (now !== rateRef.current && isPlaybackRate(now)) choose(now)
    }
    // Another player on the page changed the speed: follow it.
    const onOtherPlayer = (event: Event) => {
      const next = parsePlaybackRate((event as CustomEvent<unknown>).detail)
      if (next === null || next === rateRef.current) return
      rateRef.current = next
      setRate(next)
    }
    video.addEventListener('ratechange', onRateChange)
    window.addEventListener(CHANGE_EVENT, onOtherPlayer)
    return () => {
      video.removeEventListener('ratechange', onRateChange)
      window.removeEventListener(CHANGE_EVENT, onOtherPlayer)
    }
  }, [video, choose])

  return { rate, choose, step }
}

function initialRate(saved: number | null): PlaybackRate {
  if (chosenInThisTab !== null) return chosenInThisTab
  if (saved !== null) return parsePlaybackRate(saved) ?? 1
  return readLocal() ?? 1
}

function scheduleSave(rate: PlaybackRate) {
  if (pendingSave) clearTimeout(pendingSave)
  pendingSave = setTimeout(() => {
    pendingSave = null
    // A failed save leaves the speed in this browser and tab; Edit Profile shows the stored one.
    fetch(PLAYBACK_SPEED_URL, {
      method: 'POST',
      body: new URLSearchParams({ playbackRate: String(rate) }),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined)
  }, SAVE_DELAY_MS)
}

function readLocal(): PlaybackRate | null {
  try {
    return parsePlaybackRate(window.localStorage.getItem(STORAGE_KEY))
  } catch {
    return null
  }
}

function writeLocal(rate: PlaybackRate) {
  try {
    window.localStorage.setItem(STORAGE_KEY, String(rate))
  } catch {
    // Private mode without storage: the choice lasts for this tab only.
  }
}

/** For tests: forget the speed chosen in this tab. */
export function forgetPlaybackRateChoice() {
  chosenInThisTab = null
  if (pendingSave) clearTimeout(pendingSave)
  pendingSave = null
}
