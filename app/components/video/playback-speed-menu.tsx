import { useId } from 'react'
import { PLAYBACK_RATES, parsePlaybackRate, playbackRateLabel } from '~/lib/playback-rate'
import type { PlaybackRateControl } from './use-playback-rate'

export const PLAYBACK_SPEED_MENU_LABEL = 'Playback speed'

const LOOKS = {
  pill: 'min-h-11 bg-ink-950/70 py-0 pl-3 pr-8 text-sm ring-1 ring-white/40 hover:bg-ink-950/90 focus:ring-2 focus:ring-white',
  round:
    'h-11 w-11 appearance-none bg-black/45 p-0 text-center text-xs ring-1 ring-white/15 backdrop-blur [text-align-last:center] hover:bg-black/65',
} as const

/**
 * The player's speed menu (ADR 0043): a native `<select>` over the player, 0.5× to 2×
 * by 0.25 — keyboard and screen reader ready, the phone's own picker on touch. Rendered
 * only with JavaScript (without it the browser's own controls are the player; the speed
 * is set on Edit Profile).
 */
export function PlaybackSpeedMenu({
  control,
  className = '',
  look = 'pill',
}: {
  control: PlaybackRateControl
  className?: string
  /** A pill over the lesson player, or a round button in the reel viewer's rail. */
  look?: 'pill' | 'round'
}) {
  const id = useId()
  return (
    <span className={`${className} z-10 inline-flex`}>
      <label htmlFor={id} className="sr-only">
        {PLAYBACK_SPEED_MENU_LABEL}
      </label>
      <select
        id={id}
        value={String(control.rate)}
        onChange={(event) => {
          const rate = parsePlaybackRate(event.currentTarget.value)
          if (rate !== null) control.choose(rate)
        }}
        title={PLAYBACK_SPEED_MENU_LABEL}
        data-playback-speed
        className={`${LOOKS[look]} cursor-pointer rounded-full border-0 font-bold tabular-nums text-white ring-inset [&>option]:bg-white [&>option]:text-ink-900`}
      >
        {PLAYBACK_RATES.map((rate) => (
          <option key={rate} value={String(rate)}>
            {rate === 1 && look === 'pill' ? `${playbackRateLabel(rate)} Normal` : playbackRateLabel(rate)}
          </option>
        ))}
      </select>
    </span>
  )
}
