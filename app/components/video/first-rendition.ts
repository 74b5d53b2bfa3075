/**
 * Which rendition the first playback starts at (docs/decisions/0036-first-rendition-and-hand-over.md).
 * hls.js picks it (`startLevel: -1`, no bandwidth test download) from
 * `abrEwmaDefaultEstimate` — the highest rung whose first segment arrives in
 * time — capped to the player's size (`capLevelToPlayerSize`). The estimate
 * given is the one this browser measured while playing before (hls.js's own,
 * kept in localStorage), else the connection's downlink the browser reports
 * (a 0.7 share of it), else a conservative 1 Mbit/s (360p).
 */
export const DEFAULT_ESTIMATE = 1_000_000
/** A measurement from the HTTP cache can be absurd: never start from more than this. */
export const MAX_ESTIMATE = 20_000_000
const DOWNLINK_SHARE = 0.7
const KEY = 'lumen:bandwidth'
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000

interface Sources {
  storage?: Pick<Storage, 'getItem'> | null
  /** `navigator.connection.downlink`, in Mbit/s, where the browser has it. */
  downlink?: number | null
  now?: number
}

/** The bandwidth estimate (bit/s) hls.js starts from. */
export function startEstimate(sources: Sources = browserSources()): number {
  const now = sources.now ?? Date.now()
  try {
    const stored = JSON.parse(sources.storage?.getItem(KEY) ?? 'null') as { bps?: unknown; at?: unknown } | null
    if (stored && typeof stored.bps === 'number' && typeof stored.at === 'number' && now - stored.at < MAX_AGE_MS) {
      if (stored.bps > 0) return Math.min(stored.bps, MAX_ESTIMATE)
    }
  } catch {
    // Unreadable: as if nothing was stored.
  }
  if (sources.downlink && sources.downlink > 0) return Math.min(sources.downlink * 1_000_000 * DOWNLINK_SHARE, MAX_ESTIMATE)
  return DEFAULT_ESTIMATE
}

/** Keeps hls.js's estimate (measured on real segment downloads) for the next first playback. */
export function rememberEstimate(bps: number, storage: Pick<Storage, 'setItem'> | null = safeLocalStorage()): void {
  if (!storage || !Number.isFinite(bps) || bps <= 0) return
  try {
    storage.setItem(KEY, JSON.stringify({ bps: Math.round(bps), at: Date.now() }))
  } catch {
    // Full or refused (private mode): the next playback estimates again.
  }
}

/** The hls.js settings for the first rendition. */
export function firstRenditionConfig() {
  return {
    capLevelToPlayerSize: true,
    startLevel: -1,
    testBandwidth: false,
    abrEwmaDefaultEstimate: startEstimate(),
  } as const
}

function browserSources(): Sources {
  const connection =
    typeof navigator === 'undefined' ? undefined : (navigator as { connection?: { downlink?: number } }).connection
  return { storage: safeLocalStorage(), downlink: connection?.downlink ?? null }
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null
  }
}
