import hlsWorkerScript from 'hls.js/dist/hls.worker.js?url'

/**
 * Playback start (ADR 0027): what a player needs before its first
 * frame, fetched early into the browser's HTTP cache, so that hls.js (or the
 * browser) finds it there instead of asking the network one request after
 * another.
 *
 * - `loadHls()`: the hls.js chunk (light, or full for caption renditions), shared
 *   by every caller (a page with a player can start it before hydration, in
 *   parallel with the rest), and the script of hls.js's worker alongside.
 * - `warmHls(master)`: the master playlist, its lowest rendition's playlist
 *   and that rendition's first segment — what the player starts with (it
 *   starts at the lowest rung and climbs, see video-player.tsx). Media
 *   answers are cacheable (`private`, playlists 60 s, segments a year), so
 *   hls.js's own requests hit the cache, or wait for these if still in flight.
 *
 * Each URL is fetched once per page; failures are ignored (the player asks
 * again and reports errors itself).
 */
const started = new Set<string>()

/**
 * hls.js's transmuxer worker, a hashed asset of ours (`worker-src 'self'`). The ES module builds of
 * hls.js carry no inline worker: without `workerPath` every segment is parsed and remuxed on the
 * page's main thread (50–170 ms a segment in Chromium here, the long tasks Lighthouse counted on a
 * video page). Pass it to every `new Hls(...)`.
 */
export const HLS_WORKER_PATH: string = hlsWorkerScript

const hlsModules: { light: Promise<typeof import('hls.js/light')> | null; full: Promise<typeof import('hls.js')> | null } = {
  light: null,
  full: null,
}

/**
 * The light build (no subtitles) for most players; the full build when the master carries
 * caption renditions for hls.js to offer (ADR 0026), loaded only then.
 */
export function loadHls(options: { subtitles?: boolean } = {}): Promise<typeof import('hls.js')> {
  const build = options.subtitles ? 'full' : 'light'
  const loading = (hlsModules[build] ??= build === 'full' ? import('hls.js') : import('hls.js/light'))
  // Its worker's script travels alongside, into the HTTP cache (an immutable asset), instead of after.
  warmOnce(HLS_WORKER_PATH)
  // A failed load (offline) may be retried by the next caller.
  loading.catch(() => (hlsModules[build] = null))
  return loading
}

function warmOnce(url: string): void {
  if (typeof window === 'undefined' || started.has(url)) return
  started.add(url)
  fetchBody(url).catch(() => started.delete(url))
}

async function fetchText(url: string): Promise<string | null> {
  const response = await fetch(url, { credentials: 'same-origin' })
  return response.ok ? response.text() : null
}

async function fetchBody(url: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' })
  // Read it whole: a body that is not consumed is not (completely) cached.
  if (response.ok) await response.arrayBuffer()
}

/** The variant with the lowest BANDWIDTH in a master playlist, as an absolute URL. */
export function lowestVariant(master: string, base: string): string | null {
  const lines = master.split(/\r?\n/)
  let best: { bandwidth: number; uri: string } | null = null
  for (let i = 0; i < lines.length; i++) {
    const match = /^#EXT-X-STREAM-INF:.*?\bBANDWIDTH=(\d+)/.exec(lines[i]!)
    if (!match) continue
    const uri = lines.slice(i + 1).find((line) => line.trim() && !line.startsWith('#'))
    if (uri && (!best || Number(match[1]) < best.bandwidth)) best = { bandwidth: Number(match[1]), uri: uri.trim() }
  }
  return best ? new URL(best.uri, base).href : null
}

/** A media playlist's first segment (and its init segment, for fMP4), as absolute URLs. */
export function firstSegments(playlist: string, base: string): string[] {
  const urls: string[] = []
  for (const line of playlist.split(/\r?\n/)) {
    const map = /^#EXT-X-MAP:.*?URI="([^"]+)"/.exec(line)
    if (map) urls.push(new URL(map[1]!, base).href)
    else if (line.trim() && !line.startsWith('#')) {
      urls.push(new URL(line.trim(), base).href)
      break
    }
  }
  return urls
}

export function warmHls(masterUrl: string): void {
  if (typeof window === 'undefined') return
  const master = new URL(masterUrl, window.location.href).href
  if (started.has(master)) return
  started.add(master)
  void (async () => {
    const text = await fetchText(master)
    const variant = text && lowestVariant(text, master)
    if (!variant) return
    const playlist = await fetchText(variant)
    if (!playlist) return
    await Promise.all(firstSegments(playlist, variant).map(fetchBody))
  })().catch(() => {})
}
