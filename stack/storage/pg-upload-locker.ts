import type { Lock, Locker, RequestRelease } from '@tus/server'
import pg from 'pg'
import { ERRORS } from './errors'
import { UploadLocker } from './upload-locker'

/**
 * One request at a time per resumable upload across every process on the
 * database, as Supabase Storage's PgLocker does: in server mode each core
 * runs its own process (and a fleet many), and two PATCHes of one upload on
 * two processes must never append at once.
 *
 * A lock is first taken in this process (UploadLocker: event-driven, asks a
 * local holder to let go), then as a Postgres session advisory lock on a
 * connection of its own, held until the request ends. Waiting for a holder
 * in another process: a NOTIFY asks it to let go (its process LISTENs and
 * calls the holder's requestRelease, as the in-process locker does), then
 * `pg_advisory_lock` waits in Postgres itself, bounded by `lock_timeout`;
 * if the lock is still held then, 423 Locked, which tus-js-client retries.
 * A process that dies loses its connections, and with them its locks.
 *
 * The lock connections come from a pool of their own, so that uploads in
 * progress never starve the queries that finish them.
 */
const CHANNEL = 'lumen_tus_release'

export class PgUploadLocker implements Locker {
  private readonly local: UploadLocker
  private readonly locks: pg.Pool
  /** Uploads whose lock this process holds in Postgres, with their holder's requestRelease. */
  private readonly held = new Map<string, RequestRelease>()
  private listener: Promise<pg.PoolClient | null> | undefined
  private closed = false

  constructor(
    pool: pg.Pool,
    private readonly waitMs = 5_000,
    maxLocks = 50,
  ) {
    this.local = new UploadLocker(waitMs)
    this.locks = new pg.Pool({ ...pool.options, max: maxLocks, idleTimeoutMillis: 10_000 })
    // A lock connection that breaks is dropped; its lock is gone with it (another process may take it).
    this.locks.on('error', () => {})
  }

  newLock(id: string): Lock {
    return new PgUploadLock(id, this)
  }

  /** @internal */
  async acquire(id: string, requestRelease: RequestRelease, signal: AbortSignal): Promise<pg.PoolClient> {
    const deadline = Date.now() + this.waitMs
    await this.local.acquire(id, requestRelease, signal)
    let client: pg.PoolClient | undefined
    try {
      await this.listen()
      client = await this.locks.connect()
      const key = lockKey(id)
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [key])
      if (!rows[0]!.locked) {
        // Another process holds it: ask it to let go, then wait in Postgres, no longer than the deadline.
        await client.query('select pg_notify($1, $2)', [CHANNEL, id])
        const remaining = deadline - Date.now()
        if (remaining <= 0 || signal.aborted) throw ERRORS.resourceLocked()
        const pid = (client as pg.PoolClient & { processID: number }).processID
        const abort = () => void this.locks.query('select pg_cancel_backend($1)', [pid]).catch(() => {})
        signal.addEventListener('abort', abort, { once: true })
        try {
          await client.query(`set lock_timeout = ${Math.max(1, Math.floor(remaining))}`)
          await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [key])
        } catch (error) {
          // 55P03 lock_not_available (lock_timeout), 57014 canceled (aborted): still held elsewhere.
          const code = (error as { code?: string }).code
          if (code === '55P03' || code === '57014') throw ERRORS.resourceLocked()
          throw error
        } finally {
          signal.removeEventListener('abort', abort)
          await client.query('set lock_timeout = 0').catch(() => {})
        }
      }
      this.held.set(id, requestRelease)
      return client
    } catch (error) {
      client?.release(true)
      this.local.release(id)
      throw error
    }
  }

  /** @internal */
  async release(id: string, client: pg.PoolClient): Promise<void> {
    this.held.delete(id)
    try {
      await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [lockKey(id)])
      client.release()
    } catch {
      // The connection is gone, and the lock with it.
      client.release(true)
    } finally {
      this.local.release(id)
    }
  }

  /** LISTEN for other processes' release requests, once. */
  private listen(): Promise<pg.PoolClient | null> {
    this.listener ??= this.locks
      .connect()
      .then(async (client) => {
        client.on('notification', (message) => {
          const release = message.payload ? this.held.get(message.payload) : undefined
          if (release) void Promise.resolve(release()).catch(() => {})
        })
        const lost = () => {
          // Listen again on the next lock.
          this.listener = undefined
          client.release(true)
        }
        client.on('error', lost)
        await client.query(`LISTEN ${CHANNEL}`)
        if (this.closed) lost()
        return client
      })
      .catch(() => {
        this.listener = undefined
        return null
      })
    return this.listener
  }

  async close(): Promise<void> {
    this.closed = true
    const listener = await this.listener
    listener?.release(true)
    await this.locks.end()
  }
}

class PgUploadLock implements Lock {
  private client: pg.PoolClient | undefined

  constructor(
    private readonly id: string,
    private readonly locker: PgUploadLocker,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    this.client = await this.locker.acquire(this.id, requestRelease, signal)
  }

  async unlock(): Promise<void> {
    const client = this.client
    if (!client) return
    this.client = undefined
    await this.locker.release(this.id, client)
  }
}

/** What the advisory lock key of an upload is hashed from (`hashtextextended(…, 0)`): its id, in a namespace of its own. */
function lockKey(id: string): string {
  return `tus:${id}`
}
