/**
 * hls.js takes the `<video>` over from its MP4 `<source>` after a dynamic
 * import: attaching a MediaSource reloads the element, which pauses it at
 * 0:00 and rejects a pending `play()` with an AbortError. A visitor who
 * pressed play before that (right after a client-side navigation, or on the
 * native controls before hydration) would see playback stop for good. The
 * element's state is read just before hls.js attaches and carried over:
 * position (hls.js's `startPosition`), playing or not, muted, volume and
 * rate (which a reload resets to the default rate).
 */
export interface ElementState {
  /** Where the element is, in seconds; 0 before anything played. */
  time: number
  /** Play was pressed (or autoplay started) and not paused since. */
  playing: boolean
  muted: boolean
  volume: number
  rate: number
}

export function elementState(video: HTMLVideoElement): ElementState {
  return {
    time: Number.isFinite(video.currentTime) ? video.currentTime : 0,
    playing: !video.paused && !video.ended,
    muted: video.muted,
    volume: video.volume,
    rate: video.playbackRate,
  }
}

/** hls.js's `startPosition`: where the element is, else `fallback` (a quote's moment, or -1 for the start). */
export function startPositionFor(state: ElementState, fallback: number | null): number {
  return state.time > 0 ? state.time : (fallback ?? -1)
}

/** Called right after `attachMedia`: the reloaded element carries on as it was. */
export function carryOn(video: HTMLVideoElement, state: ElementState): void {
  video.muted = state.muted
  video.volume = state.volume
  // The reload sets the rate back to the default one once it starts: set it again when metadata is in.
  if (state.rate !== 1) {
    video.addEventListener(
      'loadedmetadata',
      () => {
        if (video.playbackRate === video.defaultPlaybackRate) video.playbackRate = state.rate
      },
      { once: true },
    )
  }
  // A new play(), pending until hls.js has the first segment; the one the reload rejected was the caller's.
  if (state.playing) video.play().catch(() => undefined)
}
