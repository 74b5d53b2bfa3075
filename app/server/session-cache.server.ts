import pg from 'pg'
import { componentLogger } from '../../ops/log'
import type { DatabaseHandle } from '../../db/connect'

/**
 * The session check off the hot path, with revocation kept
 * (docs/decisions/0033-session-cache-pushed-invalidation.md).
 *
 * What `readSessionUser` learns from the database — the session is live, and
 * the profile's role, verification, username and avatar — is kept per session
 * for a short while, and dropped the moment the database says it changed: a
 * trigger sends the user's id on the `lumen_session_changed` channel when a
 * session ends or the profile's rights change, and every process listens.
 *
 * On PGlite (one process, the database inside it) notifications are
 * delivered in-process and cannot be lost.
 *
 * An entry is served only while the channel is known to be working: on
 * PostgreSQL a heartbeat goes over the listening connection every
 * HEARTBEAT_MS, and entries are served only until HEALTHY_FOR_MS after the
 * last heartbeat that came back was sent. Notifications committed before a
 * heartbeat is sent reach us before its answer, so a notification that is lost
 * (connection dropped, silently or not) leaves cached entries served for at
 * most HEALTHY_FOR_MS; after that, and until the channel is back and confirmed,
 * every request asks the database as before. Losing the connection also
 * drops every entry.
 *
 * A read that started before a notification arrived is not stored (the
 * generation counter): its answer may predate the change.
 *
 * The bell's unread count rides on the same channel's health
 * (docs/decisions/0062-unread-count-with-the-session-cache.md): kept per user,
 * dropped when a trigger on `public.notifications` sends the recipient's id on
 * `lumen_unread_changed`, which the same connection listens to (so the same
 * heartbeat vouches for it), with a generation counter of its own.
 */
export interface CachedSession {
  username: string
  role: 'user' | 'creator' | 'admin'
  isVerified: boolean
  avatarPath: string | null
}

interface Entry {
  userId: string
  value: CachedSession
  expiresAt: number
}

export const CHANNEL = 'lumen_session_changed'
/** A user's unread notifications changed (one arrived, was read or went): their count is dropped. */
export const UNREAD_CHANNEL = 'lumen_unread_changed'
/** Longest an entry lives even with the channel healthy (bounds any mistake in what is notified). */
export const MAX_AGE_MS = 30_000
/** Most sessions kept; the oldest entry goes first. */
export const MAX_ENTRIES = 5_000
export const HEARTBEAT_MS = 200
/** Entries are served until this long after the last answered heartbeat was sent. */
export const HEALTHY_FOR_MS = 600
/** A heartbeat not answered in this long ends the connection (and a new one is made). */
const HEARTBEAT_TIMEOUT_MS = 2_000

export class SessionCache {
  private readonly entries = new Map<string, Entry>()
  private readonly byUser = new Map<string, Set<string>>()
  private generation = 0
  private healthyUntil = 0
  /** Unread counts per user id, oldest first; their own generation, so a busy bell does not hold sessions back. */
  private readonly unread = new Map<string, { count: number; expiresAt: number }>()
  private unreadGeneration = 0

  constructor(private readonly now: () => number = Date.now) {}

  /** The generation to hand back to `store`: a read begun now. */
  begin(): number {
    return this.generation
  }

  /** Whether entries may be served at all (the channel is confirmed listening). */
  healthy(): boolean {
    return this.now() < this.healthyUntil
  }

  get(key: string): CachedSession | undefined {
    if (!this.healthy()) return undefined
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (this.now() >= entry.expiresAt) {
      this.remove(key, entry.userId)
      return undefined
    }
    return entry.value
  }

  /** Keeps what a read begun at `generation` found — unless anything was invalidated since, or the channel is not healthy. */
  store(key: string, userId: string, value: CachedSession, generation: number, expiresAt = Infinity): void {
    if (generation !== this.generation || !this.healthy()) return
    const until = Math.min(this.now() + MAX_AGE_MS, expiresAt)
    if (until <= this.now()) return
    this.remove(key, userId)
    while (this.entries.size >= MAX_ENTRIES) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry]
      this.remove(oldest, entry.userId)
    }
    this.entries.set(key, { userId, value, expiresAt: until })
    let keys = this.byUser.get(userId)
    if (!keys) this.byUser.set(userId, (keys = new Set()))
    keys.add(key)
  }

  /** A notification: everything cached for the user goes, and reads in flight are not stored. */
  invalidateUser(userId: string): void {
    this.generation++
    for (const key of this.byUser.get(userId) ?? []) this.entries.delete(key)
    this.byUser.delete(userId)
  }

  /** The generation to hand back to `storeUnread`: a count begun now. */
  beginUnread(): number {
    return this.unreadGeneration
  }

  /** The user's unread count, while the channel is healthy and nothing changed it since it was read. */
  getUnread(userId: string): number | undefined {
    if (!this.healthy()) return undefined
    const entry = this.unread.get(userId)
    if (!entry) return undefined
    if (this.now() >= entry.expiresAt) {
      this.unread.delete(userId)
      return undefined
    }
    return entry.count
  }

  /** Keeps a count begun at `generation` — unless any count was invalidated since, or the channel is not healthy. */
  storeUnread(userId: string, count: number, generation: number): void {
    if (generation !== this.unreadGeneration || !this.healthy()) return
    this.unread.delete(userId)
    while (this.unread.size >= MAX_ENTRIES) this.unread.delete(this.unread.keys().next().value as string)
    this.unread.set(userId, { count, expiresAt: this.now() + MAX_AGE_MS })
  }

  /**
   * The user's unread count changed: from their notification on UNREAD_CHANNEL, or at once from
   * this process's own action that changed it (its notification to us comes later).
   */
  invalidateUnread(userId: string): void {
    this.unreadGeneration++
    this.unread.delete(userId)
  }

  /** The channel was lost (or is being replaced): nothing cached is trusted any longer. */
  down(): void {
    this.generation++
    this.unreadGeneration++
    this.healthyUntil = 0
    this.entries.clear()
    this.byUser.clear()
    this.unread.clear()
  }

  /** The channel answered a heartbeat sent at `sentAt`: entries may be served until HEALTHY_FOR_MS after it. */
  confirmed(sentAt: number, healthyFor = HEALTHY_FOR_MS): void {
    this.healthyUntil = Math.max(this.healthyUntil, sentAt + healthyFor)
  }

  get size(): number {
    return this.entries.size
  }

  get unreadSize(): number {
    return this.unread.size
  }

  private remove(key: string, userId: string): void {
    this.entries.delete(key)
    const keys = this.byUser.get(userId)
    keys?.delete(key)
    if (keys && keys.size === 0) this.byUser.delete(userId)
  }
}

export interface SessionListener {
  stop(): Promise<void>
}

const log = componentLogger('session-cache')

/** What a notification on either channel does to `cache`. */
function deliver(cache: SessionCache, channel: string, payload: string | undefined): void {
  if (!payload) return
  if (channel === CHANNEL) cache.invalidateUser(payload)
  else if (channel === UNREAD_CHANNEL) cache.invalidateUnread(payload)
}

/**
 * Listens on CHANNEL and UNREAD_CHANNEL for `cache`: on PGlite through the instance itself (one
 * process, nothing to lose: healthy once listening); on PostgreSQL over a
 * connection of its own, with heartbeats, reconnecting after a loss.
 */
export async function listenForInvalidation(handle: DatabaseHandle, cache: SessionCache): Promise<SessionListener> {
  if (handle.kind === 'pglite' && handle.lite) {
    const off = handle.lite.onNotification((channel, payload) => deliver(cache, channel, payload))
    // Through the pool, which holds PGlite's one session exclusively: a LISTEN sent
    // beside the pool could land inside another caller's transaction and be rolled back with it.
    await handle.pool.query(`listen ${CHANNEL}`)
    await handle.pool.query(`listen ${UNREAD_CHANNEL}`)
    cache.confirmed(0, Infinity)
    return {
      stop: async () => {
        cache.down()
        off()
      },
    }
  }
  return listenOnPostgres(handle.pool.options as pg.ClientConfig, cache)
}

function listenOnPostgres(config: pg.ClientConfig, cache: SessionCache): SessionListener {
  let stopped = false
  let client: pg.Client | undefined
  let timer: NodeJS.Timeout | undefined
  let failures = 0

  const lost = (client_: pg.Client, reason: string) => {
    if (client !== client_) return
    client = undefined
    cache.down()
    client_.removeAllListeners('notification')
    client_.end().catch(() => undefined)
    if (stopped) return
    failures++
    if (failures === 1 || failures % 20 === 0)
      log.warn({ reason, failures }, 'session invalidation channel lost: checking every request until it is back')
    schedule(Math.min(250 * failures, 5_000))
  }

  const schedule = (delay: number) => {
    clearTimeout(timer)
    timer = setTimeout(() => void run(), delay)
    timer.unref()
  }

  const run = async () => {
    if (stopped) return
    if (!client) {
      const next = new pg.Client({ ...config, application_name: 'lumen-session-listener' })
      next.on('error', (error) => lost(next, error.message))
      next.on('end', () => lost(next, 'connection ended'))
      next.on('notification', (message) => deliver(cache, message.channel, message.payload))
      client = next
      try {
        await next.connect()
        await next.query(`listen ${CHANNEL}`)
        await next.query(`listen ${UNREAD_CHANNEL}`)
      } catch (error) {
        lost(next, (error as Error).message)
        return
      }
      if (stopped) return void next.end().catch(() => undefined)
      // Anything cached before this connection listened may have missed a notification.
      cache.down()
    }
    const current = client
    const sentAt = Date.now()
    let timeout: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        current.query('select 1'),
        new Promise((_, reject) => {
          timeout = setTimeout(() => reject(new Error('heartbeat not answered')), HEARTBEAT_TIMEOUT_MS)
        }),
      ])
      if (client !== current) return
      failures = 0
      cache.confirmed(sentAt)
      schedule(HEARTBEAT_MS)
    } catch (error) {
      lost(current, (error as Error).message)
    } finally {
      clearTimeout(timeout)
    }
  }

  void run()
  return {
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      cache.down()
      const current = client
      client = undefined
      await current?.end().catch(() => undefined)
    },
  }
}
