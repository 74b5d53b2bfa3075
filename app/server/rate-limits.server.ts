import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit'
import { hitWindow, resetWindow, sweepWindows, unhitWindow, type WindowHit } from '../../db/rate-windows'
import type { Tx } from '../../db/kysely'
import { asServiceRole } from './db.server'

/**
 * The app's rate limits (the /api front door, the email check) count in
 * Postgres, not in this process: in server mode every core runs its own
 * process and a fleet runs many, and a count per process would allow N times
 * the attempts (docs/decisions/0038-several-processes.md). The stand-in's
 * Auth limits are counted the same way.
 */
export interface WindowCounter {
  hit(key: string, windowMs: number): Promise<WindowHit>
  unhit(key: string): Promise<void>
  reset(key: string): Promise<void>
}

const SWEEP_EVERY = 1000

/** Windows in `public.rate_limits`, each statement run by `asService` (a transaction as the service role). */
export function postgresWindowCounter(asService: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>): WindowCounter {
  let hits = 0
  return {
    async hit(key, windowMs) {
      const hit = await asService((tx) => hitWindow(tx, key, windowMs))
      if (++hits % SWEEP_EVERY === 0) void asService(sweepWindows).catch(() => {})
      return hit
    },
    unhit: (key) => asService((tx) => unhitWindow(tx, key)),
    reset: (key) => asService((tx) => resetWindow(tx, key)),
  }
}

/** The app's counter: its database, as the service role. */
export const postgresCounter: WindowCounter = postgresWindowCounter((work) => asServiceRole('rate limit: count a request', work))

/** Windows in this process's memory: for tests of the front door alone, never for serving. */
export function memoryCounter(): WindowCounter {
  const windows = new Map<string, { count: number; resetAt: number }>()
  return {
    async hit(key, windowMs) {
      const now = Date.now()
      let window = windows.get(key)
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + windowMs }
        windows.set(key, window)
      }
      window.count++
      return { count: window.count, resetAt: new Date(window.resetAt) }
    },
    async unhit(key) {
      const window = windows.get(key)
      if (window) window.count = Math.max(0, window.count - 1)
    },
    async reset(key) {
      windows.delete(key)
    },
  }
}

/** At most `limit` requests per key per `windowMs`, counted under `name`. */
export class WindowLimiter {
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly name: string,
    private readonly counter: WindowCounter = postgresCounter,
  ) {}

  /** False when `key` has used up its window (this request is counted either way). */
  async take(key: string): Promise<boolean> {
    const { count } = await this.counter.hit(`${this.name}:${key}`, this.windowMs)
    return count <= this.limit
  }
}

/** An express-rate-limit store over a WindowCounter; `prefix` names the limiter. */
export function counterStore(prefix: string, counter: WindowCounter = postgresCounter): Store {
  let windowMs = 60_000
  return {
    prefix,
    localKeys: false,
    init(options: Options) {
      windowMs = options.windowMs
    },
    async increment(key: string): Promise<ClientRateLimitInfo> {
      const { count, resetAt } = await counter.hit(`${prefix}:${key}`, windowMs)
      return { totalHits: count, resetTime: resetAt }
    },
    decrement: (key: string) => counter.unhit(`${prefix}:${key}`),
    resetKey: (key: string) => counter.reset(`${prefix}:${key}`),
  }
}
