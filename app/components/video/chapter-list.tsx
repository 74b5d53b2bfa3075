import { Link } from '@remix-run/react'
import { chapterIndexAt, formatClock, type Chapter } from '~/lib/schemas/chapters'
import { seekTo, usePlayerTime } from './player-marks'

/**
 * The video page's list of chapters (ADR 0042): each a `?t=` link, so it works without
 * JavaScript (the page starts the player there); with it, a click seeks in place and the
 * chapter playing is marked.
 */
export function ChapterList({
  videoId,
  chapters,
  startAt,
}: {
  videoId: string
  chapters: readonly Chapter[]
  startAt: number | null
}) {
  const time = usePlayerTime(videoId, startAt ?? 0, chapters.length > 0)
  const current = chapterIndexAt(chapters, time)
  if (!chapters.length) return null
  return (
    <section aria-labelledby="chapters-heading" className="card mt-6 p-4 sm:p-5">
      <h2 id="chapters-heading" className="text-heading">
        Chapters
      </h2>
      <ol className="mt-3 space-y-0.5" aria-labelledby="chapters-heading">
        {chapters.map((chapter, index) => (
          <li key={chapter.start}>
            <Link
              to={`?t=${chapter.start}`}
              preventScrollReset
              onClick={(event) => seekTo(event, videoId, chapter.start)}
              aria-current={index === current ? 'true' : undefined}
              data-chapter-at={chapter.start}
              className={`flex gap-3 rounded-lg px-2 py-1.5 text-sm transition-colors hover:bg-ink-100 ${
                index === current ? 'bg-brand-50 text-ink-950 ring-1 ring-inset ring-brand-200' : 'text-ink-700'
              }`}
            >
              <span className="w-14 shrink-0 font-mono text-xs leading-5 text-brand-700">{formatClock(chapter.start)}</span>
              <span className="font-medium">{chapter.title}</span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  )
}
