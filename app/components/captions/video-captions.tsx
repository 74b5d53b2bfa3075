import { Link } from '@remix-run/react'
import type { CueView } from '~/lib/caption-types'
import type { Chapter } from '~/lib/schemas/chapters'
import { Transcript } from './transcript'

interface VideoCaptionsProps {
  videoId: string
  captions: { tracks: unknown[]; transcript: { label: string; cues: CueView[] } | null; canEdit: boolean }
  /** The video's chapters: the transcript's lines are grouped under them. */
  chapters?: readonly Chapter[]
}

/** Under the video: the creator's way to its captions, and the transcript for everyone. */
export function VideoCaptions({ videoId, captions, chapters }: VideoCaptionsProps) {
  return (
    <>
      {captions.canEdit ? (
        <p className="mt-3 text-sm">
          <Link to={`/video/${videoId}/captions`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            {captions.tracks.length ? 'Manage captions' : 'Add captions'}
          </Link>
        </p>
      ) : null}
      {captions.transcript ? (
        <Transcript videoId={videoId} label={captions.transcript.label} cues={captions.transcript.cues} chapters={chapters} />
      ) : null}
    </>
  )
}
