import { Link, useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { SPARK_FEED_LABELS, SPARK_FEEDS, type NotInterestedActionData, type SparkFeed } from '~/lib/for-you'

/**
 * "Not interested" in the spark menu (ADR 0045): a plain form posted to the
 * reel viewer (`intent=not-interested`), with "Also fewer from <creator>". With
 * JavaScript it posts through a fetcher and the viewer moves on to the next
 * clip (`onDone`); without, the page answers with a redirect to the next clip.
 */
export function NotInterestedForm({
  clip,
  actionHref,
  hydrated,
  nextId,
  onDone,
}: {
  clip: { id: string; creator: { username: string } }
  actionHref: string
  hydrated: boolean
  /** The clip after this one, where the no-JS answer lands. */
  nextId: string | null
  onDone: (message: string) => void
}) {
  const fetcher = useFetcher<NotInterestedActionData>({ key: `reel-not-interested-${clip.id}` })
  const data = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (data?.ok) onDone(data.message)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [data])
  return (
    <fetcher.Form
      method="post"
      action={actionHref}
      preventScrollReset
      className="border-t border-ink-100 pt-1"
      data-not-interested
    >
      <input type="hidden" name="intent" value="not-interested" />
      <input type="hidden" name="videoId" value={clip.id} />
      {nextId ? <input type="hidden" name="next" value={nextId} /> : null}
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <label className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm hover:bg-ink-100">
        <input type="checkbox" name="creator" value="1" className="h-4 w-4 rounded border-ink-300" />
        <span className="min-w-0 [overflow-wrap:anywhere]">Also fewer from {clip.creator.username}</span>
      </label>
      <button
        type="submit"
        disabled={fetcher.state !== 'idle'}
        className="flex min-h-11 w-full items-center gap-2 rounded-lg px-3 text-left text-sm font-medium hover:bg-ink-100"
      >
        Not interested
      </button>
      {data && !data.ok ? (
        <p role="alert" className="px-3 pb-1 text-xs font-medium text-red-700">
          {data.formError}
        </p>
      ) : null}
    </fetcher.Form>
  )
}

/**
 * The For You / Following tabs: plain links (`?feed=following`), so they work
 * without JavaScript, on /sparks and in the reel viewer.
 */
export function SparkFeedTabs({
  current,
  href,
  tone = 'light',
}: {
  current: SparkFeed | null
  href: (feed: SparkFeed) => string
  tone?: 'light' | 'dark'
}) {
  const base = 'inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold'
  const active = tone === 'dark' ? 'bg-white text-ink-900' : 'bg-ink-900 text-white'
  const idle = tone === 'dark' ? 'text-white hover:bg-white/15' : 'text-ink-700 hover:bg-ink-100'
  return (
    <nav aria-label="Sparks feeds" data-spark-feeds>
      <ul
        className={`flex gap-1 rounded-full p-1 ${tone === 'dark' ? 'bg-black/45 backdrop-blur' : 'bg-ink-50 ring-1 ring-ink-100'} w-max`}
      >
        {SPARK_FEEDS.map((feed) => (
          <li key={feed}>
            <Link
              to={href(feed)}
              aria-current={current === feed ? 'page' : undefined}
              className={`${base} ${current === feed ? active : idle}`}
            >
              {SPARK_FEED_LABELS[feed]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
