import { Link } from '@remix-run/react'
import { SearchBox } from '~/components/search-box'
import { Alert } from '~/components/ui/alert'
import type { VideoCardItem } from '~/lib/video-types'

/**
 * /create-quote without a `videoId` (docs/product.md, Rules and messages: 'No video selected to
 * quote'): the message, and a search (a GET form, so it works without
 * JavaScript) whose results each open the create page for that video.
 */
export function VideoPicker({ message, search, results }: { message?: string; search: string; results: VideoCardItem[] }) {
  return (
    <section aria-labelledby="picker-title" className="flex flex-col gap-4">
      {message ? <Alert tone="info">{message}</Alert> : null}
      <h2 id="picker-title" className="text-heading">
        Pick a video to quote
      </h2>
      <SearchBox action="/create-quote" value={search} label="Search videos to quote" />
      {results.length === 0 ? (
        <p className="text-caption rounded-card border border-dashed border-ink-300 px-4 py-8 text-center">
          No videos match your search.
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Videos to quote">
          {results.map((video) => (
            <li key={video.id}>
              <Link
                to={`/create-quote?videoId=${encodeURIComponent(video.id)}`}
                className="card flex min-h-11 items-center gap-3 p-3 hover:shadow-md"
              >
                {video.thumbnailUrl ? (
                  <img
                    src={video.thumbnailUrl}
                    alt=""
                    className="h-14 w-24 shrink-0 rounded-lg bg-ink-100 object-cover"
                    loading="lazy"
                  />
                ) : (
                  <span aria-hidden="true" className="h-14 w-24 shrink-0 rounded-lg bg-ink-100" />
                )}
                <span className="min-w-0">
                  <span className="block truncate text-sm font-semibold text-ink-900">{video.title}</span>
                  <span className="block truncate text-caption">
                    {video.type === 'spark' ? 'Spark' : 'Video'} · {video.creator.username}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
