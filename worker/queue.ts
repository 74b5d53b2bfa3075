import { Kysely, PostgresDialect, sql } from 'kysely'
import type pg from 'pg'
import { runAs, type DB, type Tx } from '../db/kysely'
import { markTargetFailed, type MediaJobRef } from './targets'

/**
 * The media queue: `public.media_jobs`, taken with `FOR UPDATE SKIP LOCKED`
 * so any number of workers on any machines share it without taking a job
 * twice. A taken job carries a lease (`locked_until`) that its worker's
 * heartbeat keeps extending; a worker that dies stops extending it, and
 * once it has passed the job is open again. Failures come back after an
 * exponential backoff until `max_attempts`. Every time is the database's
 * `now()`, so the workers' clocks never matter. All of it as the service
 * role: the queue is no user's business (RLS on, no grants to API roles).
 */

export interface MediaJob extends MediaJobRef {
  kind: 'transcode_video' | 'transcode_quote' | 'caption_video'
  /** Including the one just started. */
  attempts: number
  maxAttempts: number
  lockedBy: string
  lockedUntil: string
  /** The request that queued the job (its upload), for the logs. */
  requestId: string | null
}

export interface BackoffOptions {
  baseMs?: number
  maxMs?: number
}

export const DEFAULT_LEASE_MS = 60_000
const DEFAULT_BACKOFF = { baseMs: 10_000, maxMs: 10 * 60_000 }

/** The message the uploader sees when every attempt failed for reasons of ours. */
export const GAVE_UP_MESSAGE = "We couldn't process this video. Please try uploading it again."

/** 10 s, 20 s, 40 s, … capped: the wait before the attempt after `attempts` failed ones. */
export function backoffDelayMs(attempts: number, options: BackoffOptions = {}): number {
  const { baseMs, maxMs } = { ...DEFAULT_BACKOFF, ...options }
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1))
}

/** The job is gone: its video or quote was deleted (the job with it, by cascade). */
export class JobGoneError extends Error {
  constructor(job: MediaJob) {
    super(`media job ${job.id} no longer exists: its ${job.videoId ? 'video' : 'quote'} was deleted`)
    this.name = 'JobGoneError'
  }
}

/** The job was taken by another worker after this one's lease ran out. */
export class LeaseLostError extends Error {
  constructor(job: MediaJob) {
    super(`media job ${job.id}: the lease of ${job.lockedBy} has passed and another worker may have it`)
    this.name = 'LeaseLostError'
  }
}

export class MediaQueue {
  /** Over the caller's pool, which stays theirs to close (never call `db.destroy()`). */
  readonly db: Kysely<DB>

  constructor(
    pool: pg.Pool,
    private readonly backoff: BackoffOptions = {},
  ) {
    this.db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
  }

  /** One transaction as the service role (the media worker acts for no user). */
  asService<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return runAs(this.db, 'service_role', { role: 'service_role' }, work)
  }

  /**
   * Takes the oldest due job: a queued one whose `run_after` has come, or a
   * running one whose lease has passed (its worker died). Returns null when
   * none is due. A dead worker's job that had used its last attempt is
   * failed here instead of being run again.
   */
  async claim(workerId: string, leaseMs = DEFAULT_LEASE_MS): Promise<MediaJob | null> {
    return this.asService(async (tx) => {
      for (;;) {
        const due = await tx
          .selectFrom('media_jobs')
          .select(['id', 'status', 'attempts', 'max_attempts'])
          .where('status', 'in', ['queued', 'running'])
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', sql<string>`now()`)]),
              eb.and([eb('status', '=', 'running'), eb('locked_until', '<', sql<string>`now()`)]),
            ]),
          )
          .orderBy('run_after')
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst()
        if (!due) return null

        if (due.status === 'running' && due.attempts >= due.max_attempts) {
          const failed = await tx
            .updateTable('media_jobs')
            .set({
              status: 'failed',
              locked_by: null,
              locked_until: null,
              last_error: sql<string>`concat_ws(E'\n', last_error, 'its worker stopped during the last attempt (lease expired)')`,
            })
            .where('id', '=', due.id)
            .returning(['id', 'kind', 'video_id', 'quote_id'])
            .executeTakeFirstOrThrow()
          await markTargetFailed(tx, refOf(failed), GAVE_UP_MESSAGE)
          continue
        }

        const taken = await tx
          .updateTable('media_jobs')
          .set((eb) => ({
            status: 'running',
            locked_by: workerId,
            locked_until: sql<string>`now() + make_interval(secs => ${leaseMs / 1000})`,
            attempts: eb('attempts', '+', 1),
          }))
          .where('id', '=', due.id)
          .returningAll()
          .executeTakeFirstOrThrow()
        return {
          ...refOf(taken),
          kind: taken.kind as MediaJob['kind'],
          attempts: taken.attempts,
          maxAttempts: taken.max_attempts,
          lockedBy: taken.locked_by!,
          lockedUntil: taken.locked_until!,
          requestId: taken.request_id,
        }
      }
    })
  }

  /** Extends the lease: `held` while the job is still ours, else whether another worker `taken` it or it is `gone`. */
  async heartbeat(job: MediaJob, leaseMs = DEFAULT_LEASE_MS): Promise<'held' | 'taken' | 'gone'> {
    return this.asService(async (tx) => {
      const row = await tx
        .updateTable('media_jobs')
        .set({ locked_until: sql<string>`now() + make_interval(secs => ${leaseMs / 1000})` })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('locked_by', '=', job.lockedBy)
        .returning('locked_until')
        .executeTakeFirst()
      if (row) {
        job.lockedUntil = row.locked_until!
        return 'held'
      }
      return (await jobExists(tx, job)) ? 'taken' : 'gone'
    })
  }

  /**
   * Marks the job done and runs `publish` (the video's update) in the same
   * transaction, so a video is never ready while its job is open nor the
   * other way round. `note` is kept in `last_error` (a refused upload says
   * why). Changes nothing and throws LeaseLostError when the job is no
   * longer this worker's, JobGoneError when it no longer exists.
   */
  async complete(job: MediaJob, publish?: (tx: Tx) => Promise<void>, note: string | null = null): Promise<void> {
    await this.asService(async (tx) => {
      const row = await tx
        .updateTable('media_jobs')
        .set({ status: 'done', locked_by: null, locked_until: null, last_error: note })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('locked_by', '=', job.lockedBy)
        .returning('id')
        .executeTakeFirst()
      if (!row) throw (await jobExists(tx, job)) ? new LeaseLostError(job) : new JobGoneError(job)
      await publish?.(tx)
    })
  }

  /**
   * Runs `publish` (phase 1's update: the video plays, more is coming) in a
   * transaction that first checks the job is still this worker's, leaving
   * it running: the same guard as `complete`, without closing the job.
   */
  async checkpoint(job: MediaJob, publish: (tx: Tx) => Promise<void>): Promise<void> {
    await this.asService(async (tx) => {
      const row = await tx
        .selectFrom('media_jobs')
        .select('id')
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('locked_by', '=', job.lockedBy)
        .forUpdate()
        .executeTakeFirst()
      if (!row) throw (await jobExists(tx, job)) ? new LeaseLostError(job) : new JobGoneError(job)
      await publish(tx)
    })
  }

  /**
   * Records a failed attempt: back to `queued` after the backoff, or
   * `failed` (and the video with it) when it was the last attempt. Returns
   * whether the job gave up. Does nothing when the job is no longer ours.
   */
  async fail(job: MediaJob, error: string): Promise<{ gaveUp: boolean; runAfter: string | null }> {
    return this.asService(async (tx) => {
      const delayMs = backoffDelayMs(job.attempts, this.backoff)
      const row = await tx
        .updateTable('media_jobs')
        .set({
          status: sql<string>`case when attempts >= max_attempts then 'failed' else 'queued' end`,
          run_after: sql<string>`now() + make_interval(secs => ${delayMs / 1000})`,
          locked_by: null,
          locked_until: null,
          last_error: error.slice(0, 4000),
        })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('locked_by', '=', job.lockedBy)
        .returning(['id', 'kind', 'video_id', 'quote_id', 'status', 'run_after'])
        .executeTakeFirst()
      if (!row) return { gaveUp: false, runAfter: null }
      const gaveUp = row.status === 'failed'
      if (gaveUp) await markTargetFailed(tx, refOf(row), GAVE_UP_MESSAGE)
      return { gaveUp, runAfter: gaveUp ? null : row.run_after }
    })
  }

  /**
   * Hands a job back at once, its attempt not counted: this worker is
   * stopping, the job did nothing wrong. (A worker that dies instead leaves
   * it to its lease.)
   */
  async release(job: MediaJob): Promise<boolean> {
    return this.asService(async (tx) => {
      const row = await tx
        .updateTable('media_jobs')
        .set((eb) => ({
          status: 'queued',
          run_after: sql<string>`now()`,
          attempts: sql<number>`greatest(${eb.ref('attempts')} - 1, 0)`,
          locked_by: null,
          locked_until: null,
        }))
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('locked_by', '=', job.lockedBy)
        .returning('id')
        .executeTakeFirst()
      return Boolean(row)
    })
  }
}

async function jobExists(tx: Tx, job: MediaJob): Promise<boolean> {
  return Boolean(await tx.selectFrom('media_jobs').select('id').where('id', '=', job.id).executeTakeFirst())
}

function refOf(row: { id: number; kind: string; video_id: string | null; quote_id: string | null }): MediaJobRef {
  return { id: row.id, kind: row.kind, videoId: row.video_id, quoteId: row.quote_id }
}
