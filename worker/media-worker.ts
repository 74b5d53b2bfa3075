import { randomBytes } from 'node:crypto'
import { hostname, tmpdir } from 'node:os'
import { createClient } from '@supabase/supabase-js'
import type pg from 'pg'
import { nodeRealtimeOptions } from '../db/supabase-node'
import { resolveSpeechEngine, type SpeechEngine } from '../media/speech'
import { describeMediaTools, resolveMediaTools, type MediaTools } from '../media/tools'
import { MAX_VIDEO_BYTES } from '../media/validate-upload'
import { componentLogger } from '../ops/log'
import { heartbeatTask, sweepAbandonedWorkDirs, sweepTask, workDirPrefix } from './housekeeping'
import { startJobLoop, type BackgroundTask, type JobHandlers, type WorkerLog } from './job-loop'
import { captionJobHandler } from './jobs/captions'
import { emailJob, emailTask } from './jobs/email'
import { EmailOutbox } from './email-outbox'
import type { MailTransport } from '../stack/mail'
import { transcodeJobHandler } from './jobs/transcode'
import { DEFAULT_LEASE_MS, MediaQueue, type BackoffOptions } from './queue'
import { createStorageIO } from './storage-io'

export { HEARTBEAT_MS, sweepAbandonedWorkDirs } from './housekeeping'
export type { WorkerLog } from './job-loop'

/**
 * The media worker: takes jobs from the queue, downloads the upload from
 * Storage, judges it (ffprobe), transcodes it (HLS ladder, MP4, poster),
 * uploads the results to Storage and publishes the video — all as the
 * service role, the one identity allowed to write bucket `media` and the
 * server-owned columns. In embedded mode it runs inside the app's process
 * on the PGlite pool (polling); in server mode `npm run worker` runs it as
 * its own process, as many as wanted, woken by LISTEN media_jobs.
 *
 * This file only puts the pieces together: the job loop (worker/job-loop.ts:
 * claim, lease, stop), one handler per job kind (worker/jobs/), Storage I/O
 * (worker/storage-io.ts) and housekeeping (worker/housekeeping.ts). A new
 * job kind is a value of `media_jobs.kind` and a handler in `handlers` below.
 */

export interface MediaWorkerOptions {
  pool: pg.Pool
  /** Storage is reached over its HTTP API with the service role key: the stand-in or a real Supabase. */
  supabaseUrl: string
  serviceRoleKey: string
  /** Names this worker in `media_jobs.locked_by`; default host:pid:random. */
  workerId?: string
  /** Jobs at once (each ffmpeg already uses every core; more helps while others download or upload). */
  concurrency?: number
  /** How often to look for due jobs when nothing wakes the worker; default 10 s with LISTEN, 2 s without. */
  pollMs?: number
  /** How long a job stays ours without a heartbeat; default 60 s. */
  leaseMs?: number
  /** Wait on LISTEN media_jobs; default when the pool has more than one connection (a server, not PGlite). */
  listen?: boolean
  /** Take jobs in the background; false leaves it to runOnce() (tests). Default true. */
  autoStart?: boolean
  /** Where jobs download and transcode; default the OS temp folder. */
  tempDir?: string
  maxBytes?: number
  backoff?: BackoffOptions
  tools?: MediaTools
  /**
   * The offline recogniser for automatic captions (media/speech.ts); default the one
   * installed, if any. With one, every transcoded video with audio gets a caption job.
   */
  speech?: SpeechEngine | null
  /** x264 preset for the ladder. */
  preset?: string
  log?: WorkerLog
  /**
   * The periodic reconciliation sweep (worker/reconcile.ts): every
   * `intervalMs` (default 1 h), one worker at a time (an advisory lock on a
   * server). `storageDir` is the stand-in's storage folder, when Storage is ours.
   */
  sweep?: { storageDir?: string; intervalMs?: number }
  /**
   * Notification emails (worker/jobs/email.ts): the outbox drained through
   * `transport`, links to `siteUrl`, unsubscribe links signed with `secret`.
   * Without it, emails wait in public.email_outbox for a worker that has it.
   */
  email?: { transport: MailTransport; siteUrl: string; secret: string; digestEveryMs?: number }
}

export interface MediaWorker {
  readonly id: string
  /** Takes one due job and works it to the end; false when none was due. */
  runOnce(): Promise<boolean>
  /**
   * Stops taking jobs; waits up to `graceMs` (default 0) for the running
   * ones, then kills their ffmpeg and hands them back to the queue (if that
   * write fails, their lease runs out and another worker takes them). Once
   * it resolves, no child process of this worker is left. Calling it again
   * (a second Ctrl-C) cuts the first call's grace short.
   */
  stop(options?: { graceMs?: number }): Promise<void>
}

/** JSON lines (ops/log.ts); inside a job they carry its jobId and the requestId of the upload that queued it. */
const workerLogger = componentLogger('media-worker')
const defaultLog: WorkerLog = (level, message) => workerLogger[level](message)

export function startMediaWorker(options: MediaWorkerOptions): MediaWorker {
  const id = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  const log = options.log ?? defaultLog
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
  const listen = options.listen ?? (options.pool.options.max ?? 10) > 1
  const pollMs = options.pollMs ?? (listen ? 10_000 : 2_000)
  const concurrency = Math.max(1, options.concurrency ?? 1)
  const tempRoot = options.tempDir ?? tmpdir()
  const maxBytes = options.maxBytes ?? MAX_VIDEO_BYTES
  const tools = options.tools ?? resolveMediaTools()
  const speech = options.speech === undefined ? resolveSpeechEngine() : options.speech
  const autoStart = options.autoStart ?? true
  const queue = new MediaQueue(options.pool, options.backoff)
  const storage = createStorageIO({
    storage: createClient(options.supabaseUrl, options.serviceRoleKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    }).storage,
    maxBytes,
    warn: (message) => log('warn', message),
  })
  const jobFolder = (jobId: number) => workDirPrefix(tempRoot, jobId)

  const transcode = transcodeJobHandler({
    queue,
    storage,
    tools,
    maxBytes,
    preset: options.preset,
    workDirPrefix: jobFolder,
    queueCaptions: Boolean(speech),
  })
  const handlers: JobHandlers = {
    transcode_video: transcode,
    transcode_quote: transcode,
    caption_video: captionJobHandler({ queue, speech, tools, storage, workDirPrefix: jobFolder }),
  }

  const background: BackgroundTask[] = [heartbeatTask(queue, id, log)]
  if (options.sweep) background.push(sweepTask(options.pool, options.sweep, log))
  if (options.email) {
    const job = emailJob({
      outbox: new EmailOutbox(options.pool, options.backoff),
      transport: options.email.transport,
      siteUrl: options.email.siteUrl,
      secret: options.email.secret,
      workerId: id,
      leaseMs,
      log,
    })
    background.push(emailTask(job, { pollMs, digestEveryMs: options.email.digestEveryMs, log }))
  }
  const loop = startJobLoop({
    queue,
    pool: options.pool,
    handlers,
    id,
    leaseMs,
    pollMs,
    listen,
    concurrency,
    log,
    autoStart,
    background,
  })

  if (autoStart) {
    void sweepAbandonedWorkDirs(tempRoot).then(
      (removed) => removed.length && log('info', `removed ${removed.length} job folders left by stopped processes`),
      (error: unknown) => log('warn', `could not sweep old job folders: ${String(error)}`),
    )
    log(
      'info',
      `${id} started: ${concurrency} at a time, ${listen ? 'LISTEN media_jobs and polling' : 'polling'} every ${pollMs} ms; ${describeMediaTools(tools)}; automatic captions ${speech ? `by ${speech.binary}` : 'off'}; notification emails ${options.email ? `by ${options.email.transport.kind}` : 'off'}`,
    )
  }

  return { id, runOnce: loop.runOnce, stop: loop.stop }
}
