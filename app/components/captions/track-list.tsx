import { Form } from '@remix-run/react'
import { captionTrackUrl, type CaptionTrackView } from '~/lib/caption-types'
import { formatCount, formatDate } from '~/lib/format'

/** A video's caption tracks with download and delete (the captions page). */
export function CaptionTrackList({ tracks }: { tracks: CaptionTrackView[] }) {
  if (tracks.length === 0) {
    return <p className="text-body mt-2">No captions yet. Add a file below and learners can turn them on in the player.</p>
  }
  return (
    <ul className="mt-3 divide-y divide-ink-100">
      {tracks.map((track) => (
        <li key={track.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-ink-900">
              {track.label}{' '}
              <span className="ml-1 rounded-full bg-ink-100 px-2 py-0.5 text-xs font-medium text-ink-600">{track.language}</span>
              {track.source === 'automatic' ? (
                <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">Automatic</span>
              ) : null}
            </p>
            <p className="text-caption">
              {formatCount(track.cueCount, 'cue')} · updated{' '}
              {formatDate(track.updatedAt)}
            </p>
          </div>
          <a href={captionTrackUrl(track.id)} download={`${track.language}.vtt`} className="btn-ghost">
            Download<span className="sr-only"> {track.label} captions</span>
          </a>
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="trackId" value={track.id} />
            <button type="submit" className="btn-ghost text-red-700 hover:bg-red-50">
              Delete<span className="sr-only"> {track.label} captions</span>
            </button>
          </Form>
        </li>
      ))}
    </ul>
  )
}
