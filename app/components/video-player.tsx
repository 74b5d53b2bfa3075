import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState, type ReactNode } from 'react'
import { flushSync } from 'react-dom'
import { CaptionsToggle } from '~/components/captions/captions-toggle'
import { parseYouTubeId, resizedImage, youTubeEmbedUrl } from '~/lib/media-urls'
import { LessonControls } from './video/lesson-controls'
import { pageViewUrl, useWatchReporter } from './video/use-watch-reporter'
import { firstRenditionConfig, rememberEstimate } from './video/first-rendition'
import { carryOn, elementState, startPositionFor } from './video/hls-handoff'
import { HLS_WORKER_PATH, loadHls, warmHls } from './video/warm-hls'

/**
 * The one video player of Lumen (video page, reel viewer, previews).
 *
 * Server HTML: a plain `<video controls playsInline poster>` with a
 * `<source type="video/mp4">` child, so the video plays with JavaScript off.
 *
 * In the browser it upgrades itself, in this order:
 * 1. Media Source Extensions available (Chromium, Firefox, Safari 17+) →
 *    hls.js (its light build: no subtitles, alternate audio or DRM, which
 *    Lumen's renditions don't use), loaded with a dynamic import so pages
 *    without a player don't carry it, attached to the HLS master playlist;
 *    until the first `play` it buffers only the first segment (unless
 *    `preload="auto"`; with `preload="none"` it is attached only when the
 *    learner reaches for the player, ADR 0057), then as far ahead as hls.js does by default;
 * 2. native HLS (`canPlayType('application/vnd.apple.mpegurl')`, iOS Safari
 *    without MSE) → the master playlist as the element's `src`;
 * 3. otherwise the MP4 source stays.
 * Captions (ADR 0026): the server HTML has `<track>` elements (JavaScript off, MP4, native
 * HLS). A player that draws captions natively and has tracks loads the full hls.js instead
 * of the light build, and its master playlist's subtitle renditions replace the `<track>`
 * elements before it is attached (never both: no duplicate text tracks); every other engine
 * asks for the master without them (`?subtitles=none`) and keeps the `<track>` elements.
 * The engine in use is on the element as `data-engine` ("mp4" | "hls.js" |
 * "native-hls") for tests and debugging. hls.js is destroyed on unmount or
 * when the URLs change. A fatal error (after hls.js's own one-time recovery)
 * shows an overlay with "Try again".
 *
 * The ref is the `<video>` element, so a caller (the reel viewer) can
 * `play()`, `pause()` or read `currentTime`.
 *
 * @example
 * <VideoPlayer videoId={v.id} title={v.title} hlsUrl={urls.hlsUrl} mp4Url={urls.mp4Url} posterUrl={urls.posterUrl} />
 */
export interface VideoPlayerProps {
  /** The video's id (used as a stable key and in `data-video-id`). */
  videoId: string
  /** Accessible name of the player, e.g. the video's title. */
  title: string
  /** HLS master playlist (`/media/videos/<id>/hls/master.m3u8`). */
  hlsUrl?: string | null
  /** Progressive MP4 (`/media/videos/<id>/video.mp4`), the no-JS and last-resort source. */
  mp4Url?: string | null
  /** Poster image. */
  posterUrl?: string | null
  autoPlay?: boolean
  /** Required by browsers for `autoPlay` to work without a user gesture. */
  muted?: boolean
  loop?: boolean
  /** Where playback starts, in seconds (a quote's moment): `#t=` on the MP4, hls.js's start position. */
  startAt?: number | null
  /** Default "metadata"; use "auto" for a clip that is about to be shown (the next reel), "none" off-screen. */
  preload?: 'none' | 'metadata' | 'auto'
  /** The page's main player: its HLS master playlist and its poster are fetched with the page (`<link rel=preload>`, ADR 0027, 0030). */
  eager?: boolean
  /** Default true. */
  controls?: boolean
  /** How the picture fills the box: "contain" (default, letterboxed) or "cover" (reels). */
  fit?: 'contain' | 'cover'
  /** Classes for the outer box (it is `relative`, the video fills it). Default: a 16:9 black box. */
  className?: string
  onEnded?: () => void
  onPlay?: () => void
  onPause?: () => void
  /** Report playback progress, so the view counts once enough was watched (video page, reels). */
  reportProgress?: boolean
  /** Without JavaScript, count the page view (a `<noscript>` image; the video page only). */
  countPageView?: boolean
  /**
   * Caption tracks, as `<track kind="captions">` elements in the server HTML (JavaScript off, MP4,
   * native HLS, the reel viewer); with hls.js and `captionsDisplay: 'native'` the master playlist's
   * subtitle renditions replace them (ADR 0026).
   */
  captions?: readonly PlayerCaptionTrack[]
  /** Show captions from the start (the learner asked for them); the remembered choice wins. */
  captionsOn?: boolean
  /** Where the CC button sits (classes positioning it over the player; default the top right corner). */
  captionsButtonClassName?: string
  /** Who draws the cues with JavaScript: the browser (default) or the page (the reel viewer's ReelCaption). */
  captionsDisplay?: 'native' | 'overlay'
  /** No media for now: the MP4 `<source>` is left out (the reel viewer's clips away from the one in view, ADR 0051). */
  unloaded?: boolean
  /** The lesson player (video page): speed menu, keyboard shortcuts and their help (ADR 0043); the learner's saved speed, null for a visitor. */
  lessonControls?: { playbackRate: number | null }
}

export interface PlayerCaptionTrack {
  src: string
  language: string
  label: string
}

export type PlaybackEngine = 'mp4' | 'hls.js' | 'native-hls'

/**
 * hls.js's buffer before the first `play` (ADR 0031): any buffered time is enough, so it fetches the first
 * segment and stops. What the player starts with is there, and a visitor who never plays does not
 * download minutes of video.
 */
const PRE_PLAY_BUFFER = { maxBufferLength: 1, maxMaxBufferLength: 1 } as const

/** The widest a poster is sent: a desktop player's width, which a phone's 1080 px screen needs almost all of. */
const POSTER_WIDTH = 1280

export const VideoPlayer = forwardRef<HTMLVideoElement | null, VideoPlayerProps>(function VideoPlayer(
  {
    videoId,
    title,
    hlsUrl,
    mp4Url,
    posterUrl,
    autoPlay = false,
    muted = false,
    loop = false,
    startAt = null,
    preload = 'metadata',
    eager = false,
    controls = true,
    fit = 'contain',
    className = 'aspect-video w-full overflow-hidden rounded-card bg-ink-950',
    onEnded,
    onPlay,
    onPause,
    reportProgress = false,
    countPageView = false,
    captions = [],
    captionsOn = false,
    captionsButtonClassName,
    captionsDisplay = 'native',
    lessonControls,
    unloaded = false,
  },
  ref,
) {
  // WebP, at most 1280 px wide (ADR 0030).
  const poster = posterUrl ? resizedImage(posterUrl, POSTER_WIDTH) : undefined
  const videoRef = useRef<HTMLVideoElement | null>(null)
  useImperativeHandle(ref, () => videoRef.current as HTMLVideoElement, [])
  useWatchReporter(videoRef, videoId, reportProgress)
  const [engine, setEngine] = useState<PlaybackEngine>('mp4')
  const [failed, setFailed] = useState(false)
  const [attempt, setAttempt] = useState(0)
  // Who offers the caption tracks: the `<track>` elements, or hls.js from the master playlist.
  const [captionsVia, setCaptionsVia] = useState<'elements' | 'hls.js'>('elements')
  const inManifest = captions.length > 0 && captionsDisplay === 'native'
  // Read when a source is attached; a later change (a transcript link followed in place) seeks instead.
  const startAtRef = useRef(startAt)
  // Whether hls.js drives the element: before its metadata is in, hls.js would seek to the start position
  // it was made with once it is, over any seek made now.
  const hlsAttached = useRef(false)
  useEffect(() => {
    const video = videoRef.current
    if (startAt === startAtRef.current || startAt === null || !video) return
    startAtRef.current = startAt
    if (hlsAttached.current && video.readyState < HTMLMediaElement.HAVE_METADATA) setAttempt((n) => n + 1)
    else video.currentTime = startAt
  }, [startAt])

  // Read when hls.js is attached; a later "auto" (a clip about to be shown) lets it buffer ahead at once.
  const preloadRef = useRef(preload)
  preloadRef.current = preload
  const raiseBuffer = useRef<(() => void) | null>(null)
  useEffect(() => {
    if (preload === 'auto') raiseBuffer.current?.()
  }, [preload])

  // React sets `muted` as a property only on the client; keep it in sync. On mount only a muted prop is
  // applied: the visitor may have muted the element (and pressed play) before hydration.
  const mutedApplied = useRef(false)
  useEffect(() => {
    if (videoRef.current && (mutedApplied.current || muted)) videoRef.current.muted = muted
    mutedApplied.current = true
  }, [muted])

  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    let cancelled = false
    let destroy: (() => void) | undefined
    setFailed(false)

    const onError = () => {
      if (!cancelled) setFailed(true)
    }

    async function attach(video: HTMLVideoElement) {
      if (!hlsUrl) {
        setCaptionsVia('elements')
        setEngine('mp4')
        if (attempt > 0) video.load()
        return
      }
      const hasMse =
        typeof window !== 'undefined' &&
        ('MediaSource' in window || 'ManagedMediaSource' in window || 'WebKitMediaSource' in window)
      if (hasMse) {
        // The first segment travels while hls.js loads (ADR 0027).
        if (!startAtRef.current) warmHls(hlsUrl)
        const { default: Hls } = await loadHls({ subtitles: inManifest })
        if (cancelled) return
        if (Hls.isSupported()) {
          // `preload="none"` (the video page): hls.js takes the element over only when the learner reaches for
          // it — a pointer or a key on the player, `play()`, or play pressed — and not with the page (ADR 0057):
          // attached, it shows the controls' loading spinner until media comes, and its first segment's tasks
          // were the page's longest after hydration. Until then the element is the server's, asking for nothing.
          let taken = false
          const takeOver = () => {
            if (cancelled || taken) return
            taken = true
            // hls.js's subtitle renditions take over: the `<track>` elements (the captions until now, so the
            // toggle works before play too) go before it makes its own.
            if (inManifest) flushSync(() => setCaptionsVia('hls.js'))
            // Start at the rung that fits the player and the bandwidth this browser measured before (or reports),
            // with no test download, and let the ABR climb or fall from there (ADR 0036).
            // Where the element is now (play may have been pressed on the MP4, a chapter may have set
            // `currentTime`, which reads back the moment asked for until there is media): hls.js carries on there.
            const handoff = elementState(video)
            const waiting = preloadRef.current !== 'auto' && !handoff.playing
            const hls = new Hls({
              // Segments parsed and remuxed off the main thread (see HLS_WORKER_PATH).
              workerPath: HLS_WORKER_PATH,
              // Our playlists carry no interstitials (ads); the controller that plays them calls `play()` itself
              // once attached if it saw a `play` event, over a pause pressed just before its `pause` event fired.
              enableInterstitialPlayback: false,
              ...firstRenditionConfig(),
              startPosition: startPositionFor(handoff, startAtRef.current),
              // Until it plays, only the first segment (ADR 0031): hls.js would otherwise buffer up to
              // 60 MB or 10 minutes ahead for a visitor who only opened the page.
              ...(waiting ? PRE_PLAY_BUFFER : {}),
            })
            const bufferAhead = () => {
              hls.config.maxBufferLength = Hls.DefaultConfig.maxBufferLength
              hls.config.maxMaxBufferLength = Hls.DefaultConfig.maxMaxBufferLength
            }
            if (waiting) {
              video.addEventListener('play', bufferAhead, { once: true })
              raiseBuffer.current = bufferAhead
            }
            let recoveredNetwork = false
            let recoveredMedia = false
            hls.on(Hls.Events.ERROR, (_event, data) => {
              if (!data.fatal) return
              if (data.type === Hls.ErrorTypes.NETWORK_ERROR && !recoveredNetwork) {
                recoveredNetwork = true
                hls.startLoad()
              } else if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recoveredMedia) {
                recoveredMedia = true
                hls.recoverMediaError()
              } else if (!cancelled) {
                setFailed(true)
              }
            })
            hls.on(Hls.Events.FRAG_LOADED, () => rememberEstimate(hls.bandwidthEstimate))
            hls.loadSource(inManifest ? hlsUrl : withoutSubtitles(hlsUrl!))
            hls.attachMedia(video)
            carryOn(video, handoff)
            hlsAttached.current = true
            destroy = () => {
              hlsAttached.current = false
              video.removeEventListener('play', bufferAhead)
              raiseBuffer.current = null
              hls.destroy()
            }
          }
          setEngine('hls.js')
          if (preloadRef.current !== 'none' || !video.paused) {
            takeOver()
            return
          }
          // The start (a resume position, `?t=`) reads back from `currentTime` before there is media, as it did
          // once hls.js had its first segment; a seek before play replaces it.
          if (startAtRef.current) video.currentTime = startAtRef.current
          const INTENT = ['pointerdown', 'keydown', 'play'] as const
          const nativePlay = video.play
          const reached = () => {
            for (const type of INTENT) video.removeEventListener(type, reached)
            Reflect.deleteProperty(video, 'play')
            takeOver()
          }
          for (const type of INTENT) video.addEventListener(type, reached)
          // A script's `play()` (a chapter, a note, the shortcuts, the resume offer) attaches first, so the
          // promise it gets is the one that plays (attaching afterwards would reject it).
          video.play = () => {
            reached()
            return nativePlay.call(video)
          }
          // A later `preload="auto"` takes over at once.
          raiseBuffer.current = reached
          destroy = () => {
            for (const type of INTENT) video.removeEventListener(type, reached)
            Reflect.deleteProperty(video, 'play')
            raiseBuffer.current = null
          }
          return
        }
      }
      setCaptionsVia('elements')
      if (video.canPlayType('application/vnd.apple.mpegurl')) {
        // The `<track>` elements are the captions here: the master without its subtitle renditions.
        const src = withoutSubtitles(hlsUrl)
        video.src = startAtRef.current ? `${src}#t=${startAtRef.current}` : src
        video.addEventListener('error', onError)
        setEngine('native-hls')
        destroy = () => {
          video.removeEventListener('error', onError)
          video.removeAttribute('src')
          video.load()
        }
        return
      }
      setEngine('mp4')
      if (attempt > 0) video.load()
    }

    // Errors of the MP4 <source> fire on the source element, not the video.
    const source = video.querySelector('source')
    source?.addEventListener('error', onError)
    attach(video).catch(() => {
      // hls.js failed to load (offline, blocked): the MP4 source still plays.
      if (!cancelled) {
        setCaptionsVia('elements')
        setEngine('mp4')
      }
    })
    return () => {
      cancelled = true
      source?.removeEventListener('error', onError)
      destroy?.()
    }
  }, [hlsUrl, mp4Url, attempt, inManifest])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  const nothingToPlay = !hlsUrl && !mp4Url

  return (
    <div className={`relative ${className}`} data-video-id={videoId}>
      {eager && hlsUrl ? <link rel="preload" href={hlsUrl} as="fetch" crossOrigin="anonymous" /> : null}
      {/* A poster is fetched only once the player is laid out, and at low priority; the page's main one is its largest paint. */}
      {eager && poster ? <link rel="preload" href={poster} as="image" {...({ fetchpriority: 'high' } as object)} /> : null}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption -- the tracks are the `captions` prop; a video without any has none to offer */}
      <video
        ref={videoRef}
        className={`absolute inset-0 h-full w-full ${fit === 'cover' ? 'object-cover' : 'object-contain'}`}
        controls={controls}
        playsInline
        poster={poster}
        preload={preload}
        autoPlay={autoPlay}
        muted={muted}
        loop={loop}
        aria-label={title}
        data-engine={engine}
        data-captions={captions.length > 0 ? captionsVia : undefined}
        onEnded={onEnded}
        onPlay={onPlay}
        onPause={onPause}
      >
        {mp4Url && !unloaded ? <source src={startAt ? `${mp4Url}#t=${startAt}` : mp4Url} type="video/mp4" /> : null}
        {(captionsVia === 'elements' ? captions : []).map((track, index) => (
          <track
            key={track.src}
            kind="captions"
            src={track.src}
            srcLang={track.language}
            label={track.label}
            default={captionsOn && index === 0}
          />
        ))}
        <p className="p-4 text-sm text-white">
          Your browser cannot play this video.{' '}
          {mp4Url ? (
            <a className="underline" href={mp4Url}>
              Download it
            </a>
          ) : null}
        </p>
      </video>
      {countPageView ? <PageViewPixel videoId={videoId} noscript /> : null}
      {captions.length > 0 ? (
        <CaptionsToggle
          videoRef={videoRef}
          tracks={captions}
          defaultLanguage={captionsOn ? captions[0]!.language : null}
          className={captionsButtonClassName}
          display={captionsDisplay}
        />
      ) : null}
      {lessonControls ? <LessonControls videoRef={videoRef} playbackRate={lessonControls.playbackRate} /> : null}
      {failed || nothingToPlay ? (
        <PlayerOverlay>
          <p className="font-semibold">
            {nothingToPlay ? 'This video is not available yet.' : 'This video could not be played.'}
          </p>
          {nothingToPlay ? null : (
            <>
              <p className="text-sm text-ink-300">Check your connection and try again.</p>
              <button type="button" className="btn-primary mt-2" onClick={retry}>
                Try again
              </button>
            </>
          )}
        </PlayerOverlay>
      ) : null}
    </div>
  )
})

/** The master playlist without the caption tracks' subtitle renditions (ADR 0026). */
function withoutSubtitles(hlsUrl: string): string {
  return `${hlsUrl}${hlsUrl.includes('?') ? '&' : '?'}subtitles=none`
}

/**
 * Counts a page view (once per viewer, video and hour, on the server). Inside
 * `<noscript>` it loads only when JavaScript is off — with JavaScript the
 * player's progress reports count instead. YouTube embeds report nothing, so
 * they use it without `<noscript>`.
 */
function PageViewPixel({ videoId, noscript = false }: { videoId: string; noscript?: boolean }) {
  const img = <img src={pageViewUrl(videoId)} alt="" width={1} height={1} className="absolute h-px w-px opacity-0" />
  return noscript ? <noscript>{img}</noscript> : img
}

function PlayerOverlay({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="absolute inset-0 flex flex-col items-center justify-center gap-1 bg-ink-950/85 p-4 text-center text-white"
    >
      {children}
    </div>
  )
}

/**
 * A YouTube video (`external_url`), embedded from youtube-nocookie.com (no
 * cookies until the visitor plays). Anything that is not a recognised
 * YouTube link renders a plain "not available" box — never an arbitrary iframe.
 */
export function ExternalVideo({
  url,
  title,
  className = 'aspect-video w-full overflow-hidden rounded-card bg-ink-950',
  countViewOf,
}: {
  url: string
  title: string
  className?: string
  /** The video's id: count a page view of it (the embed cannot report progress). */
  countViewOf?: string
}) {
  const id = parseYouTubeId(url)
  return (
    <div className={`relative ${className}`}>
      {id ? (
        <iframe
          className="absolute inset-0 h-full w-full"
          src={youTubeEmbedUrl(id)}
          title={`${title} (YouTube video)`}
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          allowFullScreen
        />
      ) : (
        <PlayerOverlay>
          <p className="font-semibold">This video link is not supported.</p>
        </PlayerOverlay>
      )}
      {id && countViewOf ? <PageViewPixel videoId={countViewOf} /> : null}
    </div>
  )
}
