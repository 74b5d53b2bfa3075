import { PlaybackSpeedMenu } from './playback-speed-menu'
import { usePlaybackRate } from './use-playback-rate'
import { usePlayerShortcuts } from './use-player-shortcuts'

/**
 * The reel viewer's speed (ADR 0043): a clip's round speed menu in its rail, the learner's
 * speed applied to its video, and — on the current clip — the `<`/`>` keys. The reel's
 * other keys stay its own (↑/↓ move between clips). Rendered with JavaScript only.
 */
export function ReelSpeed({
  video,
  playbackRate,
  active,
}: {
  video: HTMLVideoElement | null
  /** The learner's saved speed; null for a visitor (this browser remembers it). */
  playbackRate: number | null
  active: boolean
}) {
  const speed = usePlaybackRate(video, playbackRate)
  usePlayerShortcuts(video, { onSpeedStep: speed.step }, { enabled: active, set: 'speed' })
  return <PlaybackSpeedMenu control={speed} look="round" />
}
