import { Link } from '@remix-run/react'
import { EmptyState } from '~/components/video-grid'
import { noteClock, type VideoNotesGroup } from '~/lib/schemas/notes'

/**
 * Profile → Notes: every private note of the learner, by video (the video
 * noted most recently first), each time a `?t=` link to that moment. Export
 * all, or one video's, as a Markdown file: plain download links.
 */
export function NotesPanel({ groups }: { groups: VideoNotesGroup[] }) {
  if (groups.length === 0) {
    return (
      <EmptyState
        title="No notes yet"
        message="Add notes at moments of a video from its page. Only you can see them."
        action={{ href: '/feed', label: 'Browse the feed' }}
      />
    )
  }
  return (
    <section aria-labelledby="notes-title" id="notes">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="notes-title" className="text-heading">
            Notes
          </h2>
          <p className="text-caption mt-0.5">Only you can see your notes.</p>
        </div>
        <a href="/notes/export" download className="btn-secondary" data-testid="export-all-notes">
          Export all as Markdown
        </a>
      </div>
      <ul className="mt-4 flex flex-col gap-4" aria-label="Your notes by video">
        {groups.map((group) => (
          <li key={group.video.id} className="card p-4" data-notes-video={group.video.id}>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h3 className="break-words text-base font-semibold text-ink-900">
                  <Link to={`/video/${group.video.id}`} className="hover:text-brand-700 hover:underline">
                    {group.video.title}
                  </Link>
                </h3>
                <p className="text-caption">{group.video.creator}</p>
              </div>
              <a
                href={`/notes/export?videoId=${group.video.id}`}
                download
                className="inline-flex min-h-11 items-center rounded-full px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50"
              >
                Export<span className="sr-only"> notes on “{group.video.title}”</span>
              </a>
            </div>
            <ol className="mt-2 flex flex-col gap-1" aria-label={`Notes on “${group.video.title}”`}>
              {group.notes.map((note) => (
                <li key={note.id} className="flex items-start gap-3">
                  <Link
                    to={`/video/${group.video.id}?t=${note.atSeconds}`}
                    className="inline-flex min-h-11 min-w-14 shrink-0 items-center justify-center rounded-lg font-mono text-sm font-semibold text-brand-700 hover:bg-brand-50"
                    aria-label={`Play from ${noteClock(note.atSeconds)}`}
                  >
                    {noteClock(note.atSeconds)}
                  </Link>
                  <p className="min-w-0 flex-1 whitespace-pre-line break-words py-2.5 text-sm text-ink-800">{note.body}</p>
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ul>
    </section>
  )
}
