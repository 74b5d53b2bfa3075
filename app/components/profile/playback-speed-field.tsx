import { SelectField } from '~/components/ui/field'
import { PLAYBACK_RATES, playbackRateLabel } from '~/lib/playback-rate'

export const PLAYBACK_SPEED_LABEL = 'Playback speed'

const OPTIONS = PLAYBACK_RATES.map((rate) => ({
  value: String(rate),
  label: rate === 1 ? `${playbackRateLabel(rate)} (Normal)` : playbackRateLabel(rate),
}))

/**
 * Edit Profile's "Playback speed" (ADR 0043): the speed videos and sparks start at. The player's
 * speed menu saves the same setting with JavaScript; this field is the way without it.
 */
export function PlaybackSpeedField({ value, error }: { value: number | string; error?: string }) {
  return (
    <SelectField
      label={PLAYBACK_SPEED_LABEL}
      name="playbackRate"
      options={OPTIONS}
      defaultValue={String(value)}
      error={error}
      hint="Videos and sparks start at this speed. The speed menu on a video changes it too. Only you see this setting."
    />
  )
}
