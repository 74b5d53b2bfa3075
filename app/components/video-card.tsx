import { Link } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { BoltIcon, FilmIcon, LockIcon } from '~/components/icons'
import { LIMITS } from '~/lib/catalog'
import { formatDuration, truncate } from '~/lib/format'
import { responsiveImage } from '~/lib/media-urls'
import type { VideoCardItem } from '~/lib/video-types'
import { ReportControl } from './report-dialog'
import { UserAvatar } from './user-avatar'
import { WatchProgressBar } from './video/watch-progress-bar'

/**
 * A video or spark in a grid (docs/product.md: Video card): thumbnail with its duration,
 * title, creator, the description cut to 80 characters, and the report
 * control. The whole card opens /video/<id>: the title link is stretched over
 * the card, so there is one link per card for keyboards and screen readers,
 * and the creator link and report control sit above it. Spark cards are
 * portrait. A search hit inside the captions (ADR 0019) shows the line said
 * and its moment, and the card opens the video there (`?t=`). A video the
 * learner started has a thin progress bar along its thumbnail (ADR 0034).
 * A card from a ranked sparks feed (For You, Following: ADR 0045) says in one
 * line why it is there, the same line the reel viewer shows on the clip.
 */
export type VideoCardData = Pick<
  VideoCardItem,
  'id' | 'title' | 'description' | 'type' | 'isPublic' | 'thumbnailUrl' | 'durationSeconds' | 'creator' | 'category'
> &
  Partial<Pick<VideoCardItem, 'said' | 'progress'>> & {
    /** Why the card is in a ranked sparks feed ("Because you follow maya.creates"). */
    reason?: { text: string } | null
  }

/**
 * What a card shows of a list's item, and nothing more: a page's loader sends its cards
 * through this, so the page's data (serialised into the HTML, and again for every "Load
 * more") carries no media URLs, sizes, counters or dates the card does not show, and the
 * description already cut to the card's length. The API keeps the whole item.
 */
export function cardData<T extends VideoCardData>(item: T): VideoCardData {
  return {
    id: item.id,
    title: item.title,
    description: truncate(item.description, LIMITS.cardDescription),
    type: item.type,
    isPublic: item.isPublic,
    thumbnailUrl: item.thumbnailUrl,
    durationSeconds: item.durationSeconds,
    creator: { id: item.creator.id, username: item.creator.username, avatarUrl: item.creator.avatarUrl },
    category: { id: item.category.id, name: item.category.name },
    ...(item.said ? { said: item.said } : {}),
    ...(item.progress ? { progress: item.progress } : {}),
    ...(item.reason ? { reason: { text: item.reason.text } } : {}),
  }
}

type CardPage = { items: VideoCardData[]; nextCursor: string | null }

/** A page of cards, trimmed by `cardData` (null stays null: the page failed to load). */
export function cardPage(page: CardPage): CardPage
export function cardPage(page: CardPage | null): CardPage | null
export function cardPage(page: CardPage | null): CardPage | null {
  return page && { items: page.items.map(cardData), nextCursor: page.nextCursor }
}

export function VideoCard({
  video,
  eager = false,
  priority = false,
  headingLevel = 2,
}: {
  video: VideoCardData
  /** Load the thumbnail at once (the first row) instead of lazily. */
  eager?: boolean
  /** The page's first card: its thumbnail is likely the largest paint, fetched before other images (Lighthouse LCP). */
  priority?: boolean
  headingLevel?: 2 | 3
}) {
  const spark = video.type === 'spark'
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const description = truncate(video.description, LIMITS.cardDescription)
  return (
    <article
      className="card group relative flex flex-col overflow-hidden transition-shadow hover:shadow-lg [&:has(.card-link:focus-visible)]:shadow-card [&:has(.card-link:focus-visible)]:ring-2 [&:has(.card-link:focus-visible)]:ring-brand-500 [&:has(.card-link:focus-visible)]:ring-offset-2"
      data-video-card={video.id}
    >
      <div className={`relative overflow-hidden bg-ink-900 ${spark ? 'aspect-[9/16]' : 'aspect-video'}`}>
        <Thumbnail url={video.thumbnailUrl} spark={spark} eager={eager || priority} priority={priority} />
        <div className="pointer-events-none absolute inset-x-0 bottom-0 h-16 bg-gradient-to-t from-black/50 to-transparent" />
        {video.durationSeconds !== null ? (
          <span className="absolute bottom-2 right-2 rounded-md bg-black/75 px-1.5 py-0.5 text-xs font-semibold tabular-nums text-white">
            <span className="sr-only">Duration </span>
            {formatDuration(video.durationSeconds)}
          </span>
        ) : null}
        {video.progress ? <WatchProgressBar progress={video.progress} /> : null}
        <div className="absolute left-2 top-2 flex gap-1.5">
          {spark ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-spark-400 px-2 py-0.5 text-xs font-bold text-ink-950">
              <BoltIcon /> Spark
            </span>
          ) : null}
          {video.isPublic ? null : (
            <span className="inline-flex items-center gap-1 rounded-full bg-ink-950/80 px-2 py-0.5 text-xs font-semibold text-white">
              <LockIcon /> Private
            </span>
          )}
        </div>
      </div>
      <div className={`flex flex-1 gap-3 ${spark ? 'p-3' : 'p-4'}`}>
        {spark ? null : (
          <div className="shrink-0">
            <UserAvatar user={{ username: video.creator.username, avatarUrl: video.creator.avatarUrl }} size="md" />
          </div>
        )}
        <div className="min-w-0 flex-1">
          {video.reason ? (
            <p className="mb-1 truncate text-xs font-semibold text-brand-700" data-card-reason title={video.reason.text}>
              {video.reason.text}
            </p>
          ) : null}
          <Heading className={`${spark ? 'text-sm' : 'text-base'} line-clamp-2 font-semibold leading-snug text-ink-900`}>
            <Link
              to={video.said ? `/video/${video.id}?t=${video.said.startSeconds}` : `/video/${video.id}`}
              prefetch="intent"
              className="card-link after:absolute after:inset-0 after:content-[''] focus-visible:outline-none focus-visible:ring-0 focus-visible:ring-offset-0"
            >
              {video.title}
            </Link>
          </Heading>
          <p className="mt-1 truncate text-sm text-ink-600">
            <Link to={`/creator/${video.creator.id}`} className="relative z-10 font-medium hover:text-brand-700 hover:underline">
              {video.creator.username}
            </Link>
            {spark ? null : <span className="text-ink-500"> · {video.category.name}</span>}
          </p>
          {description ? <p className={`mt-1.5 text-sm text-ink-500 ${spark ? 'line-clamp-2' : ''}`}>{description}</p> : null}
          {video.said ? (
            <p className="mt-2 rounded-lg bg-brand-50 px-2.5 py-1.5 text-sm text-ink-700" data-said-at={video.said.startSeconds}>
              <span className="font-semibold text-brand-700">Said at {formatDuration(video.said.startSeconds)}:</span>{' '}
              <span className={spark ? 'line-clamp-3' : 'line-clamp-2'}>“{truncate(video.said.text, 160)}”</span>
            </p>
          ) : null}
        </div>
        <div className="relative z-10 -mr-2 -mt-2 self-start">
          <ReportControl contentType="video" contentId={video.id} contentLabel={video.title} authorId={video.creator.id} />
        </div>
      </div>
    </article>
  )
}

type ThumbnailState = 'loading' | 'shown' | 'missing' | 'private'

/** How wide a card is at each breakpoint of `VideoGrid`, so the browser picks the smallest width that stays sharp. */
const CARD_SIZES = {
  video: '(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw',
  spark: '(min-width: 1024px) 240px, (min-width: 640px) 33vw, 50vw',
}

/**
 * The poster, over a placeholder that shows through when there is none or it
 * fails (docs/product.md, Rules and messages: 'Private Video' when Storage answers 401/403, else
 * 'Thumbnail Missing'). Decorative (alt=""): the title names the card. The
 * image may fail before React is listening (server-rendered HTML), so the
 * effect also checks an image that already finished without pixels.
 *
 * Storage sends it resized to the card (`responsiveImage`); should that
 * fail (a Supabase project without image transformations), the original is
 * tried before the placeholder.
 */
function Thumbnail({ url, spark, eager, priority }: { url: string | null; spark: boolean; eager: boolean; priority: boolean }) {
  const [state, setState] = useState<ThumbnailState>(url ? 'loading' : 'missing')
  const [original, setOriginal] = useState(false)
  const imgRef = useRef<HTMLImageElement>(null)
  const image = url ? (original ? { src: url } : responsiveImage(url)) : null

  const check = useRef(async (src: string) => {
    try {
      const response = await fetch(src, { method: 'HEAD', cache: 'no-store' })
      setState(response.status === 401 || response.status === 403 ? 'private' : 'missing')
    } catch {
      setState('missing')
    }
  })
  const fail = () => {
    if (!url) return
    if (image?.srcSet) setOriginal(true)
    else void check.current(url)
  }
  const failRef = useRef(fail)
  failRef.current = fail

  useEffect(() => {
    setState(url ? 'loading' : 'missing')
    setOriginal(false)
    const img = imgRef.current
    if (url && img?.complete) {
      if (img.naturalWidth === 0) failRef.current()
      else setState('shown')
    }
  }, [url])

  return (
    <>
      <div
        className={`absolute inset-0 flex flex-col items-center justify-center gap-2 p-4 text-center ${
          spark
            ? 'bg-gradient-to-br from-spark-500 via-rose-500 to-brand-700'
            : 'bg-gradient-to-br from-brand-700 via-brand-900 to-ink-950'
        }`}
        aria-hidden={state === 'shown' || state === 'loading' ? true : undefined}
      >
        {state === 'private' ? <LockIcon className="h-7 w-7 text-white/80" /> : <FilmIcon />}
        <span className="text-xs font-semibold uppercase tracking-wider text-white/85">
          {state === 'private' ? 'Private Video' : 'Thumbnail Missing'}
        </span>
      </div>
      {image && state !== 'missing' && state !== 'private' ? (
        <img
          ref={imgRef}
          src={image.src}
          srcSet={image.srcSet}
          sizes={image.srcSet ? CARD_SIZES[spark ? 'spark' : 'video'] : undefined}
          alt=""
          loading={eager ? 'eager' : 'lazy'}
          // React 18 does not know `fetchPriority` yet; the plain attribute passes through.
          {...(priority ? ({ fetchpriority: 'high' } as object) : {})}
          decoding="async"
          className="absolute inset-0 h-full w-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
          onLoad={() => setState('shown')}
          onError={fail}
        />
      ) : null}
    </>
  )
}
