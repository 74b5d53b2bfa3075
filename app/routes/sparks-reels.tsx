import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { BoltIcon } from '~/components/icons'
import { REEL_EMPTY, ReelViewer, type ReelItem, type ReelWindow } from '~/components/reel-viewer'
import { filterQuery } from '~/components/video-grid'
import { countVideos, listVideos, listVideosFrom, type VideoCardItem } from '~/server/feed.server'
import type { ShellHandle } from '~/root'
import { browseQuery } from '~/lib/browse'
import { captionsOnByDefault, listPlayerTracks } from '~/server/captions.server'
import { jsonWithHeaders, loadFailure } from '~/server/http/responses.server'
import type { JwtClaims } from '~/server/db.server'
import { requireUser } from '~/server/permissions.server'

/** Sparks per load; the viewer asks for more when two clips remain. */
const REEL_PAGE_SIZE = 8
/** With `?start=`, this many earlier sparks are loaded above the starting clip. */
const REEL_BEFORE = 10
const REELS_FAILED = 'Failed to load sparks. Please try again later.'

/** The shell hides its header, bottom bar and Feedback button on this full-screen route. */
export const handle: ShellHandle = { immersive: true }

/**
 * GET /sparks-reels?search=&category=&start=<id> — the reel viewer over the
 * same list as /sparks (spec: Sparks). `start` opens at one spark (with up to
 * ten before it); `cursor` answers the viewer's fetcher with the next sparks
 * (`{ page }`). Login required.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const { filters, cursor, start } = browseQuery(request.url)
  try {
    if (cursor) {
      const page = await listVideos(claims, { type: 'spark', ...filters, cursor, limit: REEL_PAGE_SIZE })
      const items = await toReelItems(claims, page.items)
      return jsonWithHeaders(
        { page: { items, nextCursor: page.nextCursor }, window: null, filters, captionsOn: false },
        200,
        headers,
      )
    }
    let window: ReelWindow | null = null
    if (start) {
      const found = await listVideosFrom(claims, {
        type: 'spark',
        ...filters,
        startId: start,
        before: REEL_BEFORE,
        limit: REEL_PAGE_SIZE,
      })
      if (found) {
        window = {
          items: await toReelItems(claims, found.items),
          nextCursor: found.nextCursor,
          firstPosition: found.position,
          total: found.total,
          startIndex: Math.max(
            0,
            found.items.findIndex((item) => item.id === start),
          ),
        }
      }
    }
    if (!window) {
      const page = await listVideos(claims, { type: 'spark', ...filters, limit: REEL_PAGE_SIZE })
      const total = page.nextCursor ? await countVideos(claims, { type: 'spark', ...filters }) : page.items.length
      window = {
        items: await toReelItems(claims, page.items),
        nextCursor: page.nextCursor,
        firstPosition: 1,
        total,
        startIndex: 0,
      }
    }
    const captionsOn = await captionsOnByDefault(claims)
    return jsonWithHeaders({ page: null, window, filters, captionsOn }, 200, headers)
  } catch (error) {
    console.warn('[reels] could not load sparks:', error instanceof Error ? error.message : error)
    const failure = loadFailure(error)
    return jsonWithHeaders({ page: null, window: null, filters, captionsOn: false }, failure.status, headers, failure.headers)
  }
}

/** Only what the viewer shows travels to the browser: with each clip's caption tracks, placed for reels. */
async function toReelItems(claims: JwtClaims, items: VideoCardItem[]): Promise<ReelItem[]> {
  const tracks = await listPlayerTracks(
    claims,
    items.map((item) => item.id),
    { placement: 'reel' },
  )
  return items.map(({ id, title, description, thumbnailUrl, mp4Url, hlsUrl, creator, durationSeconds, width, height }) => ({
    id,
    title,
    description,
    thumbnailUrl,
    mp4Url,
    hlsUrl,
    creator,
    durationSeconds,
    width,
    height,
    captions: tracks[id] ?? [],
  }))
}

/** A report from the spark menu changes nothing the viewer shows; reloading would restart the clips. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.startsWith('/report') ? false : defaultShouldRevalidate

export default function SparksReelsPage() {
  const { window, filters, captionsOn } = useLoaderData<typeof loader>()
  const backHref = `/sparks${filterQuery(filters)}`
  if (!window || window.items.length === 0) {
    return (
      <div className="fixed inset-0 z-40 flex flex-col items-center justify-center gap-4 bg-ink-950 px-6 text-center text-white">
        <span
          className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-white/10 text-spark-300"
          aria-hidden="true"
        >
          <BoltIcon className="h-8 w-8" />
        </span>
        <h1 className="text-title" role={window ? undefined : 'alert'}>
          {window ? REEL_EMPTY : REELS_FAILED}
        </h1>
        <p className="max-w-sm text-sm text-white/70">
          {window
            ? filters.search || filters.category || filters.captions
              ? 'No spark matches these filters. Try another search or category.'
              : 'Short clips from creators will appear here as soon as they are published.'
            : 'Check your connection and try again.'}
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          <Link to={backHref} className="btn bg-white/10 text-white hover:bg-white/20">
            Back to Sparks
          </Link>
          {window ? null : (
            <Link to={`/sparks-reels${filterQuery(filters)}`} className="btn-primary">
              Try again
            </Link>
          )}
        </div>
      </div>
    )
  }
  return (
    <>
      <h1 className="sr-only">Sparks reels</h1>
      <ReelViewer
        key={`${filters.search}|${filters.category}|${filters.captions}|${window.items[window.startIndex]?.id ?? ''}`}
        initial={window}
        captionsOn={captionsOn}
        backHref={backHref}
        pageHref={(cursor) => `/sparks-reels${filterQuery(filters, { cursor })}`}
      />
    </>
  )
}

export const meta: MetaFunction = () => [{ title: 'Sparks reels — Lumen' }]

export function ErrorBoundary() {
  return (
    <div className="fixed inset-0 z-40 flex flex-col items-center justify-center gap-4 bg-ink-950 px-6 text-center text-white">
      <h1 className="text-title">{REELS_FAILED}</h1>
      <Link to="/sparks" className="btn bg-white/10 text-white hover:bg-white/20">
        Back to Sparks
      </Link>
    </div>
  )
}
