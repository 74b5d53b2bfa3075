import { useEffect, useState } from 'react'

/**
 * The cue being said, drawn by the reel viewer in its own layout (ADR 0019): above
 * the creator and title, clear of the buttons on the right — the browser's own
 * rendering would be laid out over the whole frame under `object-fit: cover` and cut
 * off. It follows whichever captions track is in `hidden` mode (the CC button's "on"
 * in overlay mode). The text comes from the cue as a detached fragment's
 * `textContent`: entities decoded, nothing ever parsed into the page as markup.
 */
export function ReelCaption({ video }: { video: HTMLVideoElement | null }) {
  const [text, setText] = useState<string | null>(null)

  useEffect(() => {
    if (!video) return
    const tracks = video.textTracks
    let current: TextTrack | null = null
    const onCue = () => {
      const cues = current ? Array.from(current.activeCues ?? []) : []
      const lines = cues.map((cue) => (cue instanceof VTTCue ? (cue.getCueAsHTML().textContent ?? '') : '')).filter(Boolean)
      setText(lines.length ? lines.join('\n') : null)
    }
    const pick = () => {
      const next =
        Array.from(tracks).find(
          (track) => (track.kind === 'captions' || track.kind === 'subtitles') && track.mode === 'hidden',
        ) ?? null
      if (next === current) return
      current?.removeEventListener('cuechange', onCue)
      current = next
      current?.addEventListener('cuechange', onCue)
      onCue()
    }
    pick()
    tracks.addEventListener('change', pick)
    return () => {
      tracks.removeEventListener('change', pick)
      current?.removeEventListener('cuechange', onCue)
    }
  }, [video])

  if (!text) return null
  return (
    <p
      className="mb-3 w-fit max-w-full whitespace-pre-line rounded-lg bg-black/75 px-3 py-1.5 text-base font-medium leading-snug text-white"
      data-reel-caption
    >
      {text}
    </p>
  )
}
