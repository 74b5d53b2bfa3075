import { Link, useFetcher, useLocation } from '@remix-run/react'
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react'
import {
  ChatIcon,
  ChevronLeftSmallIcon,
  MoreIcon,
  MutedIcon,
  PauseIcon,
  PlayIcon,
  SolidIcon,
  SoundIcon,
} from '~/components/icons'
import { LIMITS } from '~/lib/catalog'
import { truncate } from '~/lib/format'
import { resizedImage } from '~/lib/media-urls'
import type { VideoCardItem } from '~/lib/video-types'
import type { SparkQuestion as SparkQuestionData } from '~/lib/schemas/checkpoints'
import { feedbackPageHref } from './feedback-widget'
import { QuickReportButton } from './report-dialog'
import { useFetcherAnswer } from './use-fetcher-answer'
import { useHydrated } from './use-hydrated'
import { ReelCaption } from './captions/reel-caption'
import { CommentSheet, ReelActions } from './reels/reel-actions'
import { NotInterestedForm } from './reels/not-interested'
import { useMeteredConnection, useNextClipFrame } from './reels/use-clip-media'
import { clipPreload, keepsMedia } from '~/lib/reel-preload'
import type { VideoPageComment } from '~/lib/video-page'
import { VideoPlayer, type PlayerCaptionTrack } from './video-player'
import { ReelSpeed } from './video/reel-speed'
import { SparkQuestion } from './checkpoints/spark-question'
import { UserAvatar } from './user-avatar'
import { ReelLessonLink } from '~/components/video/spark-lessons'
import type { LessonLink } from '~/lib/schemas/spark-lesson'

/**
 * The full-screen vertical reel viewer (docs/product.md: Sparks; swipe threshold 10 px,
 * reel hint 5 s).
 *
 * Without JavaScript: a column of clips, each filling the viewport (100dvh),
 * with CSS scroll snapping so scrolling moves clip by clip; the column is
 * focusable, so Page Down / Page Up / Space move it too, and the hint says so
 * (not "swipe": there is no swipe handling). Every clip is a plain
 * `<video controls preload="none" poster>` with its MP4, whose native controls
 * take the bottom of the clip: the creator, title and buttons sit above them.
 * The previous/next buttons are links to the neighbouring clip's anchor.
 *
 * Landscape clips are letterboxed, never cropped; portrait ones fill the
 * screen (`reelFit`). Long unbroken words in titles and descriptions wrap
 * inside the clip's column.
 *
 * With JavaScript: the clip in view plays (muted autoplay, as browsers allow;
 * a tap unmutes), the others pause; the next clip is buffered with its first
 * frame drawn before the swipe — nothing ahead on a metered connection — and at
 * most the previous, current and next clips hold media (ADR 0051); a swipe of more
 * than 10 px (pointer events: touch, pen or a mouse drag), the previous/next
 * buttons and ArrowUp/ArrowDown/PageUp/PageDown move one clip; more sparks
 * load when two clips remain. Sparks play as progressive MP4: they are under
 * a minute, and a plain file starts at once and needs no player per clip.
 *
 * Captions (ADR 0019): each clip's tracks are `<track>` elements. With
 * JavaScript the page draws the current cue itself above the creator and title,
 * clear of the buttons (ReelCaption); a CC button sits at the top right, and a
 * choice made on one clip applies to all of them. Without JavaScript the browser
 * draws them: a captioned clip is shown whole (`contain`, as `cover` would cut
 * the cues off) and its WebVTT places the cues above the title (`?placement=reel`).
 */
export type ReelItem = Pick<
  VideoCardItem,
  | 'id'
  | 'title'
  | 'description'
  | 'thumbnailUrl'
  | 'mp4Url'
  | 'hlsUrl'
  | 'creator'
  | 'durationSeconds'
  | 'width'
  | 'height'
  | 'likeCount'
  | 'commentCount'
> & {
  hasLiked: boolean
  /** Whether the caller follows the clip's creator; null on their own clips (no Follow). */
  followsCreator: boolean | null
  /** Caption tracks whose cues are placed above the title, clear of the buttons (`?placement=reel`). */
  captions?: PlayerCaptionTrack[]
  /** Why the clip is in the feed ("Because you follow maya.creates"), in the ranked feeds (ADR 0045). */
  reason?: string | null
  /** The question the spark ends with (ADR 0049): no key, and whether the caller answered it right already. */
  checkpoint?: SparkQuestionData | null
  /** The lesson the clip leads to ("Watch the full lesson", ADR 0050), when the caller can see it. */
  lesson?: LessonLink | null
}

export interface ReelWindow {
  items: ReelItem[]
  nextCursor: string | null
  /** The 1-based position of `items[0]` in the whole list. */
  firstPosition: number
  total: number
  /** Which item to open at. */
  startIndex: number
}

export const REEL_HINT = 'Swipe or use ↑ ↓ to move between sparks'
/** Without JavaScript there is no swipe handling: the list scrolls, clip by clip (scroll snapping). */
export const REEL_HINT_NO_JS = 'Scroll, or press Page Down / Page Up, to move between sparks'
export const REEL_HINT_MS = 5000
export const REEL_EMPTY = 'No sparks available yet'
export const REEL_FAILED = 'Failed to load sparks. Please try again later.'

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect

export function reelAnchor(id: string): string {
  return `reel-${id}`
}

/**
 * How a clip fills its frame: a portrait clip fills it (`cover`: at most a
 * sliver of the sides is lost to the screen's shape); a landscape or square one
 * — or one whose size is unknown — is shown whole (`contain`, letterboxed over
 * a blurred copy of its poster), never cropped. Without JavaScript a captioned
 * clip is shown whole too, as the browser draws its cues inside the picture.
 */
export function reelFit(item: Pick<ReelItem, 'width' | 'height' | 'captions'>, hydrated: boolean): 'cover' | 'contain' {
  const portrait = Boolean(item.width && item.height && item.height > item.width)
  if (!portrait) return 'contain'
  return item.captions?.length && !hydrated ? 'contain' : 'cover'
}

export function ReelViewer({
  initial,
  backHref,
  pageHref,
  captionsOn = false,
  playbackRate = null,
  openComments = null,
  filtersQuery = '',
  siteUrl = '',
  tabs = null,
}: {
  /** The For You / Following tabs, shown at the top (the ranked feeds only). */
  tabs?: ReactNode
  /** The site's address, for the Share link shown without JavaScript. */
  siteUrl?: string
  initial: ReelWindow
  /** The comment sheet the page was opened with (`?comments=<id>`, the no-JS way to open it). */
  openComments?: { videoId: string; list: VideoPageComment[] } | null
  /** The list's filters as a query string (`?search=…` or ''), kept by the clip's forms and links. */
  filtersQuery?: string
  /** The learner asked for captions on by default (profile); the CC choice they made wins. */
  captionsOn?: boolean
  /** The learner's saved playback speed (ADR 0043); null for a visitor (this browser remembers it). */
  playbackRate?: number | null
  /** Where the back button goes (the sparks grid with the same filters). */
  backHref: string
  /** The URL whose loader answers `{ page }` with the sparks after `cursor`. */
  pageHref: (cursor: string) => string
}) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<{ page: { items: ReelItem[]; nextCursor: string | null } | null }>()
  const [items, setItems] = useState(initial.items)
  const [nextCursor, setNextCursor] = useState(initial.nextCursor)
  const [current, setCurrent] = useState(initial.startIndex)
  const [muted, setMuted] = useState(true)
  const [paused, setPaused] = useState(false)
  const [hintVisible, setHintVisible] = useState(true)
  /** Clips marked Not interested in this visit, with the message shown on them. */
  const [dismissed, setDismissed] = useState<Record<string, string>>({})
  const scrollerRef = useRef<HTMLDivElement>(null)
  const videos = useRef(new Map<string, HTMLVideoElement>())
  const handled = useRef<unknown>(null)
  /** The last page load failed: "Try again", or moving on from the last clip, asks again. */
  const [moreFailed, setMoreFailed] = useState(false)
  const retryMore = useCallback(() => {
    handled.current = null
    setMoreFailed(false)
  }, [])
  const swipe = useRef<{ pointerId: number; y: number } | null>(null)
  const currentRef = useRef(current)
  currentRef.current = current
  const [sheet, setSheet] = useState<{ id: string; opener: HTMLElement | null } | null>(
    openComments ? { id: openComments.videoId, opener: null } : null,
  )
  const commentsFetcher = useFetcher<{ comments: { videoId: string; list: VideoPageComment[] } | null }>()
  const actionHref = `/sparks-reels${filtersQuery}`
  const clipHref = (id: string, extra = '') =>
    `/sparks-reels${filtersQuery ? `${filtersQuery}&` : '?'}start=${encodeURIComponent(id)}${extra}#${reelAnchor(id)}`

  const loadComments = useCallback(
    (id: string) => commentsFetcher.load(`/sparks-reels?commentsOf=${encodeURIComponent(id)}`),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the fetcher's load is stable enough; its identity changes every render
    [],
  )
  const openSheet = useCallback(
    (id: string, opener: HTMLElement) => {
      setSheet({ id, opener })
      loadComments(id)
    },
    [loadComments],
  )
  const closeSheet = useCallback(() => {
    setSheet((open) => {
      // Focus goes back to the Comments button that opened the sheet.
      open?.opener?.focus()
      return null
    })
  }, [])
  const onCommented = useCallback(() => {
    const id = sheet?.id
    if (!id) return
    setItems((known) => known.map((item) => (item.id === id ? { ...item, commentCount: item.commentCount + 1 } : item)))
    loadComments(id)
  }, [sheet?.id, loadComments])
  const sheetItem = sheet ? items.find((item) => item.id === sheet.id) : undefined
  const fetched = commentsFetcher.data?.comments
  const sheetComments =
    sheet && fetched?.videoId === sheet.id ? fetched.list : sheet && openComments?.videoId === sheet.id ? openComments.list : null

  // Once the last page is in, what is loaded is the whole list: the count the server made can be off
  // (clips published or removed since, a clip opened by its link that comes again later and is dropped).
  const total =
    nextCursor === null
      ? initial.firstPosition - 1 + items.length
      : Math.max(initial.total, initial.firstPosition - 1 + items.length)

  // Open at the requested clip (the no-JS page relies on the #reel-<id> anchor instead).
  useIsomorphicLayoutEffect(() => {
    const scroller = scrollerRef.current
    if (scroller) scroller.scrollTop = initial.startIndex * scroller.clientHeight
  }, [initial.startIndex])

  useEffect(() => {
    const timer = setTimeout(() => setHintVisible(false), REEL_HINT_MS)
    return () => clearTimeout(timer)
  }, [])

  /** Where a programmatic move is heading: scroll positions on the way there are not "the current clip". */
  const heading = useRef<number | null>(null)

  const goTo = useCallback(
    (index: number) => {
      const scroller = scrollerRef.current
      if (!scroller) return
      const target = Math.min(Math.max(index, 0), items.length - 1)
      const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches
      heading.current = target
      // The clip starts now, not after React's render and effects: its first frame is what the viewer waits for
      // (it is buffered already, see `preload` below). The effect below then pauses the others (ADR 0027).
      const clip = items[target]
      const video = clip ? videos.current.get(clip.id) : undefined
      if (video && target !== currentRef.current && video.paused) video.play().catch(() => {})
      setCurrent(target)
      scroller.scrollTo({ top: target * scroller.clientHeight, behavior: reduced ? 'auto' : 'smooth' })
    },
    [items],
  )

  /**
   * One clip up or down from where the viewer is, or is already heading (quick repeated presses add up).
   * Down from the last clip after a failed page load asks for that page again.
   */
  const step = useCallback(
    (delta: number) => {
      const target = (heading.current ?? currentRef.current) + delta
      if (target >= items.length && moreFailed) retryMore()
      goTo(target)
    },
    [goTo, items.length, moreFailed, retryMore],
  )

  // Which clip is in view, whatever moved it (wheel, scrollbar, a fragment link, our own moves).
  useEffect(() => {
    const scroller = scrollerRef.current
    if (!scroller) return
    let frame = 0
    let settle: ReturnType<typeof setTimeout> | undefined
    const update = () => {
      const index = Math.min(Math.max(Math.round(scroller.scrollTop / Math.max(scroller.clientHeight, 1)), 0), items.length - 1)
      if (index !== currentRef.current) setCurrent(index)
    }
    // The end of any scroll, ours included: the position is the truth again.
    const finish = () => {
      heading.current = null
      update()
    }
    const hasScrollEnd = 'onscrollend' in window
    const onScroll = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        if (heading.current === null) update()
      })
      if (!hasScrollEnd) {
        clearTimeout(settle)
        settle = setTimeout(finish, 400)
      }
    }
    scroller.addEventListener('scroll', onScroll, { passive: true })
    scroller.addEventListener('scrollend', finish)
    return () => {
      scroller.removeEventListener('scroll', onScroll)
      scroller.removeEventListener('scrollend', finish)
      cancelAnimationFrame(frame)
      clearTimeout(settle)
    }
  }, [items.length])

  // The current clip plays, the others pause (and rewind, so each starts from the top).
  useEffect(() => {
    if (!hydrated) return
    items.forEach((item, index) => {
      const video = videos.current.get(item.id)
      if (!video) return
      if (index === current) {
        video.muted = muted
        if (paused) video.pause()
        else {
          video.play().catch((error: unknown) => {
            // Refused without a gesture (sound on): show it paused; an interrupted play() is no failure.
            if ((error as { name?: string }).name === 'NotAllowedError') setPaused(true)
          })
        }
      } else {
        video.pause()
        if (video.currentTime > 0) video.currentTime = 0
      }
    })
  }, [current, items, muted, paused, hydrated])

  useEffect(() => setPaused(false), [current])

  // Keyboard: ↑/↓ and Page Up/Down move one clip.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return
      const target = event.target as HTMLElement | null
      if (target?.closest('input, textarea, select, [contenteditable="true"], dialog[open]')) return
      if (document.querySelector('dialog[open]')) return
      if (event.key === 'ArrowDown' || event.key === 'PageDown') {
        event.preventDefault()
        step(1)
      } else if (event.key === 'ArrowUp' || event.key === 'PageUp') {
        event.preventDefault()
        step(-1)
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [step])

  // More sparks as the end comes near; one that failed is asked again when the learner asks for more.
  useEffect(() => {
    if (nextCursor && !moreFailed && fetcher.state === 'idle' && current >= items.length - 2 && handled.current !== nextCursor) {
      handled.current = nextCursor
      fetcher.load(pageHref(nextCursor))
    }
  }, [current, items.length, nextCursor, moreFailed, fetcher, pageHref])

  // The next page's answer, taken while rendering (useFetcherAnswer says why not in an effect).
  const answer = useFetcherAnswer(fetcher)
  if (answer) {
    const page = answer.page
    // No page: the loader could not read the sparks (500 or 503), or the connection dropped (clientLoader).
    if (!page) setMoreFailed(true)
    else {
      setItems((known) => {
        const ids = new Set(known.map((item) => item.id))
        const fresh = page.items.filter((item) => !ids.has(item.id))
        return fresh.length ? [...known, ...fresh] : known
      })
      setNextCursor(page.nextCursor)
    }
  }

  const interactive = (target: EventTarget | null) =>
    target instanceof Element &&
    Boolean(target.closest('a, button, summary, details, form, input, select, textarea, video[controls]'))

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!event.isPrimary || interactive(event.target)) return
    swipe.current = { pointerId: event.pointerId, y: event.clientY }
  }
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    const start = swipe.current
    swipe.current = null
    if (!start || start.pointerId !== event.pointerId) return
    const dy = start.y - event.clientY
    if (Math.abs(dy) > LIMITS.swipeThresholdPx) {
      step(dy > 0 ? 1 : -1)
    } else if (muted) {
      setMuted(false)
    } else {
      setPaused((value) => !value)
    }
  }

  const current1 = Math.min(current, items.length - 1)
  // What is fetched ahead, and which clips hold media (ADR 0051).
  const metered = useMeteredConnection()
  useNextClipFrame({ nextId: items[current1 + 1]?.id ?? null, hydrated, metered, videos })

  return (
    <div className="fixed inset-0 z-40 bg-black text-white" data-reel-viewer data-current={current1}>
      <div
        ref={scrollerRef}
        // Without JavaScript the list is scrolled by the browser: focusable, so Page Down / Page Up / Space move it.
        tabIndex={hydrated ? undefined : 0}
        role={hydrated ? undefined : 'region'}
        aria-label={hydrated ? undefined : 'Sparks, one per screen'}
        className="h-[100dvh] focus-visible:outline-none snap-y snap-mandatory overflow-y-scroll overscroll-contain [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        // Our own swipe handling replaces the browser's touch scrolling once JavaScript runs.
        style={hydrated ? { touchAction: 'none' } : undefined}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (swipe.current = null)}
      >
        {items.map((item, index) => (
          <ReelClip
            key={item.id}
            item={item}
            index={index}
            position={initial.firstPosition + index}
            total={total}
            previousId={items[index - 1]?.id ?? null}
            nextId={items[index + 1]?.id ?? null}
            active={index === current1}
            preload={clipPreload({ index, current: current1, hydrated, metered })}
            unloaded={hydrated && !keepsMedia(index, current1)}
            hydrated={hydrated}
            muted={muted}
            paused={paused}
            captionsOn={captionsOn}
            playbackRate={playbackRate}
            actionHref={actionHref}
            siteUrl={siteUrl}
            here={clipHref(item.id)}
            dismissed={dismissed[item.id] ?? null}
            onNotInterested={(message) => {
              setDismissed((known) => ({ ...known, [item.id]: message }))
              if (index === currentRef.current) step(1)
            }}
            commentsHref={clipHref(item.id, `&comments=${encodeURIComponent(item.id)}`)}
            onOpenComments={(opener) => openSheet(item.id, opener)}
            onNavigate={goTo}
            onToggleMuted={() => setMuted((value) => !value)}
            onTogglePaused={() => setPaused((value) => !value)}
            videoRef={(element) => {
              if (element) videos.current.set(item.id, element)
              else videos.current.delete(item.id)
            }}
          />
        ))}
      </div>

      {tabs ? (
        <div className="fixed inset-x-0 top-[calc(3.25rem+env(safe-area-inset-top))] z-10 flex justify-center">{tabs}</div>
      ) : null}

      <Link
        to={backHref}
        className="fixed left-3 top-[calc(0.75rem+env(safe-area-inset-top))] z-10 inline-flex h-11 items-center gap-1.5 rounded-full bg-black/45 pl-3 pr-4 text-sm font-semibold backdrop-blur hover:bg-black/65"
      >
        <ChevronLeftSmallIcon />
        <span>
          Back<span className="sr-only"> to sparks</span>
        </span>
      </Link>

      {sheet && sheetItem ? (
        <CommentSheet
          key={sheetItem.id}
          clip={sheetItem}
          comments={sheetComments}
          loading={commentsFetcher.state !== 'idle'}
          hydrated={hydrated}
          actionHref={actionHref}
          closeHref={clipHref(sheetItem.id)}
          onClose={closeSheet}
          onCommented={onCommented}
        />
      ) : null}

      {moreFailed && current1 >= items.length - 1 ? (
        <div
          role="alert"
          data-reel-more-failed
          // Below the tabs, clear of the clip's buttons on the right (a phone) and of its title below.
          className="fixed left-4 right-[5.5rem] top-[calc(7.5rem+env(safe-area-inset-top))] z-20 flex flex-wrap items-center justify-center gap-x-3 gap-y-2 rounded-2xl bg-black/70 px-4 py-3 text-center text-sm font-medium backdrop-blur sm:left-1/2 sm:right-auto sm:w-max sm:max-w-sm sm:-translate-x-1/2"
        >
          <span>{REEL_FAILED}</span>
          <button type="button" onClick={retryMore} className="btn min-h-11 bg-white/15 px-4 text-white hover:bg-white/25">
            Try again
          </button>
        </div>
      ) : null}

      {hintVisible ? (
        <p
          data-reel-hint
          // Without JavaScript a CSS animation hides the hint after 5 s; once hydrated, the timer above does.
          className={`pointer-events-none fixed inset-x-0 bottom-[calc(14rem+env(safe-area-inset-bottom))] z-10 mx-auto w-max max-w-[90vw] rounded-full bg-black/60 px-4 py-2 text-center text-sm font-medium backdrop-blur ${hydrated ? '' : 'animate-[toast-out_400ms_ease-in_5s_forwards]'}`}
        >
          {hydrated ? REEL_HINT : REEL_HINT_NO_JS}
        </p>
      ) : null}
    </div>
  )
}

function ReelClip({
  item,
  index,
  position,
  total,
  previousId,
  nextId,
  active,
  preload,
  unloaded,
  hydrated,
  muted,
  paused,
  captionsOn,
  playbackRate,
  actionHref,
  siteUrl,
  here,
  commentsHref,
  onOpenComments,
  onNavigate,
  onToggleMuted,
  onTogglePaused,
  videoRef,
  dismissed,
  onNotInterested,
}: {
  /** The message shown once the clip is marked Not interested. */
  dismissed: string | null
  onNotInterested: (message: string) => void
  actionHref: string
  siteUrl: string
  here: string
  commentsHref: string
  onOpenComments: (opener: HTMLElement) => void
  item: ReelItem
  index: number
  position: number
  total: number
  previousId: string | null
  nextId: string | null
  active: boolean
  preload: 'none' | 'metadata' | 'auto'
  /** Away from the clip in view: no media source (ADR 0051). */
  unloaded: boolean
  hydrated: boolean
  muted: boolean
  paused: boolean
  captionsOn: boolean
  playbackRate: number | null
  onNavigate: (index: number) => void
  onToggleMuted: () => void
  onTogglePaused: () => void
  videoRef: (element: HTMLVideoElement | null) => void
}) {
  const description = truncate(item.description, LIMITS.cardDescription)
  const [video, setVideo] = useState<HTMLVideoElement | null>(null)
  const captioned = Boolean(item.captions?.length)
  const fit = reelFit(item, hydrated)
  const nav =
    'inline-flex h-11 w-11 items-center justify-center rounded-full bg-black/45 ring-1 ring-inset ring-white/15 backdrop-blur transition-colors hover:bg-black/65 sm:bg-white/10 sm:hover:bg-white/20'
  // Without JavaScript the browser's own controls take the bottom of the clip: keep clear of them.
  const bottom = hydrated
    ? 'bottom-[calc(1.25rem+env(safe-area-inset-bottom))]'
    : 'bottom-[calc(5rem+env(safe-area-inset-bottom))]'
  return (
    <section
      id={reelAnchor(item.id)}
      className="relative flex h-[100dvh] snap-start snap-always items-center justify-center"
      aria-label={`Spark ${position} of ${total}: ${item.title}`}
      aria-current={active ? 'true' : undefined}
      data-reel-index={index}
      data-reel-fit={fit}
    >
      <div className="relative h-full w-full min-w-0 sm:aspect-[9/16] sm:w-auto sm:max-w-full">
        {fit === 'contain' && item.thumbnailUrl ? (
          // The letterbox: the clip's own colours, blurred, instead of flat black bars.
          <span className="absolute inset-0 overflow-hidden" aria-hidden="true">
            <img
              src={resizedImage(item.thumbnailUrl, 64)}
              alt=""
              loading="lazy"
              decoding="async"
              data-reel-backdrop
              className="h-full w-full scale-110 object-cover opacity-60 blur-2xl"
            />
          </span>
        ) : null}
        <VideoPlayer
          // A clip leaving the three near the one in view gets a fresh, empty element: its media is let go.
          key={unloaded ? 'far' : 'near'}
          ref={(element) => {
            videoRef(element)
            setVideo(element)
          }}
          videoId={item.id}
          title={item.title}
          mp4Url={item.mp4Url}
          posterUrl={item.thumbnailUrl}
          preload={preload}
          unloaded={unloaded}
          controls={!hydrated}
          muted={hydrated ? muted : false}
          loop={hydrated}
          fit={fit}
          className={`h-full w-full ${fit === 'contain' && item.thumbnailUrl ? 'bg-transparent' : 'bg-black'}`}
          reportProgress={hydrated && active}
          captions={item.captions}
          captionsOn={captionsOn}
          captionsButtonClassName="absolute right-3 top-[calc(0.75rem+env(safe-area-inset-top))]"
          captionsDisplay="overlay"
        />
        {hydrated && active && muted ? (
          // A hint only: a tap anywhere on the clip unmutes; the Unmute button is the accessible way.
          <span
            aria-hidden="true"
            className="pointer-events-none absolute left-1/2 top-16 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-black/55 px-3 py-1.5 text-xs font-semibold backdrop-blur"
          >
            <MutedIcon className="h-4 w-4" /> Tap to unmute
          </span>
        ) : null}
        {dismissed ? (
          <p
            role="status"
            className="absolute inset-x-4 top-1/3 z-10 rounded-xl bg-black/75 px-4 py-3 text-center text-sm font-semibold backdrop-blur"
            data-reel-dismissed
          >
            {dismissed}
          </p>
        ) : null}
        {hydrated && active && paused ? (
          <span className="pointer-events-none absolute inset-0 flex items-center justify-center" aria-hidden="true">
            <span className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-black/50">
              <PlayIcon className="h-8 w-8" />
            </span>
          </span>
        ) : null}

        <p
          className="absolute left-1/2 top-[calc(0.9rem+env(safe-area-inset-top))] -translate-x-1/2 rounded-full bg-black/45 px-3 py-1 text-sm font-semibold tabular-nums backdrop-blur"
          data-reel-position
        >
          <span className="sr-only">Spark </span>
          {position} / {total}
        </p>

        <div
          className={`pointer-events-none absolute inset-x-0 bg-gradient-to-t from-black/85 via-black/40 to-transparent px-4 pr-20 pt-24 ${
            hydrated ? 'bottom-0 pb-[calc(1.25rem+env(safe-area-inset-bottom))]' : 'bottom-16 pb-3'
          }`}
        >
          {hydrated && captioned ? <ReelCaption video={video} /> : null}
          {item.reason ? (
            <p className="mb-1.5 text-xs font-semibold text-spark-300 [overflow-wrap:anywhere]" data-reel-reason>
              {item.reason}
            </p>
          ) : null}
          <div className="pointer-events-auto flex min-w-0 items-center gap-2">
            <UserAvatar user={{ username: item.creator.username, avatarUrl: item.creator.avatarUrl }} />
            <Link to={`/creator/${item.creator.id}`} className="min-w-0 truncate text-sm font-semibold hover:underline">
              {item.creator.username}
            </Link>
          </div>
          <h2 className="pointer-events-auto mt-2 text-lg font-bold leading-snug [overflow-wrap:anywhere]">
            <Link to={`/video/${item.id}`} className="hover:underline">
              {item.title}
            </Link>
          </h2>
          {description ? <p className="mt-1 text-sm text-white/80 [overflow-wrap:anywhere]">{description}</p> : null}
          <ReelLessonLink lesson={item.lesson} />
        </div>

        {hydrated ? (
          // Playback, in the top row beside the CC button.
          <div className="absolute right-16 top-[calc(0.75rem+env(safe-area-inset-top))] flex gap-2">
            <button type="button" className={nav} onClick={onTogglePaused} aria-label={paused ? 'Play' : 'Pause'}>
              {paused ? <PlayIcon className="h-5 w-5" /> : <PauseIcon />}
            </button>
            <button type="button" className={nav} onClick={onToggleMuted} aria-label={muted ? 'Unmute' : 'Mute'}>
              {muted ? <MutedIcon /> : <SoundIcon />}
            </button>
          </div>
        ) : null}

        {/* The actions: a rail on the clip's right edge on a phone, beside the clip on a wider screen. */}
        <div className={`absolute right-3 flex flex-col items-center gap-2.5 sm:left-full sm:right-auto sm:ml-4 ${bottom}`}>
          <ReelActions
            clip={item}
            hydrated={hydrated}
            actionHref={actionHref}
            siteUrl={siteUrl}
            here={here}
            commentsHref={commentsHref}
            onOpenComments={onOpenComments}
          />
          {hydrated ? <ReelSpeed video={video} playbackRate={playbackRate} active={active} /> : null}
          <SparkMenu id={item.id} creatorId={item.creator.id}>
            <NotInterestedForm clip={item} actionHref={actionHref} hydrated={hydrated} nextId={nextId} onDone={onNotInterested} />
          </SparkMenu>
        </div>
        <SparkQuestion
          videoId={item.id}
          checkpoint={item.checkpoint}
          video={video}
          active={active}
          hydrated={hydrated}
          onNext={nextId ? () => onNavigate(index + 1) : null}
        />
      </div>

      <nav
        aria-label="Sparks"
        className="absolute right-3 top-[calc(4.25rem+env(safe-area-inset-top))] flex flex-col gap-3 sm:right-8 sm:top-1/2 sm:-translate-y-1/2"
      >
        <NavButton label="Previous spark" targetId={previousId} index={index - 1} onNavigate={onNavigate} className={nav}>
          <path d="M4.2 12.8a.75.75 0 0 0 1.06 0L10 8.06l4.74 4.74a.75.75 0 1 0 1.06-1.06l-5.27-5.27a.75.75 0 0 0-1.06 0L4.2 11.74a.75.75 0 0 0 0 1.06Z" />
        </NavButton>
        <NavButton label="Next spark" targetId={nextId} index={index + 1} onNavigate={onNavigate} className={nav}>
          <path d="M4.2 7.2a.75.75 0 0 1 1.06 0L10 11.94l4.74-4.74a.75.75 0 1 1 1.06 1.06l-5.27 5.27a.75.75 0 0 1-1.06 0L4.2 8.26a.75.75 0 0 1 0-1.06Z" />
        </NavButton>
      </nav>
    </section>
  )
}

/** A link to the neighbouring clip's anchor (works without JS); with JS, a smooth move. Disabled at the ends. */
function NavButton({
  label,
  targetId,
  index,
  onNavigate,
  className,
  children,
}: {
  label: string
  targetId: string | null
  index: number
  onNavigate: (index: number) => void
  className: string
  children: ReactNode
}) {
  const icon = <SolidIcon>{children}</SolidIcon>
  if (!targetId) {
    return (
      <button type="button" disabled aria-label={label} className={`${className} cursor-default opacity-35`}>
        {icon}
      </button>
    )
  }
  return (
    <a
      href={`#${reelAnchor(targetId)}`}
      aria-label={label}
      className={className}
      onClick={(event) => {
        event.preventDefault()
        onNavigate(index)
      }}
    >
      {icon}
    </a>
  )
}

/** The spark menu (a disclosure that opens without JS): its report sends 'inappropriate content' (docs/product.md, Sparks). */
function SparkMenu({ id, creatorId, children }: { id: string; creatorId: string; children?: ReactNode }) {
  const location = useLocation()
  return (
    <details className="group relative">
      <summary className="inline-flex h-11 w-11 cursor-pointer list-none items-center justify-center rounded-full bg-black/45 backdrop-blur hover:bg-black/65 [&::-webkit-details-marker]:hidden">
        <span className="sr-only">More options</span>
        <MoreIcon />
      </summary>
      <div className="absolute bottom-full right-0 mb-2 w-60 rounded-xl bg-white p-1.5 text-ink-900 shadow-2xl">
        <QuickReportButton
          contentType="video"
          contentId={id}
          authorId={creatorId}
          className="flex min-h-11 w-full items-center gap-2 rounded-lg px-3 text-left text-sm font-medium hover:bg-red-50 hover:text-red-700"
        />
        {/* The reel has the screen to itself: the Feedback control of every page lives here. */}
        <Link
          to={feedbackPageHref(`${location.pathname}${location.search}`)}
          className="flex min-h-11 w-full items-center gap-2 rounded-lg px-3 text-left text-sm font-medium hover:bg-ink-100"
        >
          <ChatIcon />
          Feedback
        </Link>
        {children}
      </div>
    </details>
  )
}
