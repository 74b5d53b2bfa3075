import { randomBytes } from 'node:crypto'
import { createWriteStream, openAsBlob } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { createClient } from '@supabase/supabase-js'
import { sql } from 'kysely'
import type pg from 'pg'
import type { Tx } from '../db/kysely'
import { nodeRealtimeOptions } from '../db/supabase-node'
import { describeMediaTools, resolveMediaTools, type MediaTools } from '../media/tools'
import { DEFAULT_LEASE_MS, JobGoneError, LeaseLostError, MediaQueue, type BackoffOptions, type MediaJob } from './queue'
import { loadTarget, markTargetComplete, markTargetFailed, markTargetReady, posterPathFor, type MediaTarget } from './targets'
import {
  masterVariantNames,
  mp4NameFor,
  planRenditions,
  splitPhases,
  transcodeVideo,
  type OutputFile,
  type Rendition,
  type TranscodeOptions,
  type TranscodeResult,
} from './transcode'
import { MAX_VIDEO_BYTES, MESSAGES, validateVideoFile } from '../media/validate-upload'
import { componentLogger, withLogContext } from '../ops/log'
import { reconcile } from './reconcile'
import { queueCaptionJob, runCaptionJob } from './auto-captions'
import { resolveSpeechEngine, type SpeechEngine } from '../media/speech'

/**
 * The media worker: takes jobs from the queue, downloads the upload from
 * Storage, judges it (ffprobe), transcodes it (HLS ladder, MP4, poster),
 * uploads the results to Storage and publishes the video — all as the
 * service role, the one identity allowed to write bucket `media` and the
 * server-owned columns. In embedded mode it runs inside the app's process
 * on the PGlite pool (polling); in server mode `npm run worker` runs it as
 * its own process, as many as wanted, woken by LISTEN media_jobs.
 */

export type WorkerLog = (level: 'info' | 'warn' | 'error', message: string) => void

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

const STOPPING = Symbol('media worker stopping')
/** Job folders are `lumen-media-<pid>-job<id>-<random>` in the temp folder. */
const WORK_DIR_PREFIX = 'lumen-media-'

/**
 * Removes the job folders of worker processes that no longer exist (killed
 * mid-job, their `finally` never ran). A live process's folders are left
 * alone, whoever it is.
 */
export async function sweepAbandonedWorkDirs(tempRoot: string): Promise<string[]> {
  const removed: string[] = []
  for (const name of await readdir(tempRoot).catch(() => [] as string[])) {
    const pid = Number(new RegExp(`^${WORK_DIR_PREFIX}(\\d+)-job\\d+-`).exec(name)?.[1])
    if (!pid || pid === process.pid || isAlive(pid)) continue
    await rm(path.join(tempRoot, name), { recursive: true, force: true })
    removed.push(name)
  }
  return removed
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

interface ActiveJob {
  job: MediaJob
  controller: AbortController
  settled: Promise<void>
}

/** JSON lines (ops/log.ts); inside a job they carry its jobId and the requestId of the upload that queued it. */
const workerLogger = componentLogger('media-worker')
const defaultLog: WorkerLog = (level, message) => workerLogger[level](message)

/** How often a running worker refreshes its row in public.worker_heartbeats (read by /readyz). */
export const HEARTBEAT_MS = 10_000

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
  const queue = new MediaQueue(options.pool, options.backoff)
  const storage = createClient(options.supabaseUrl, options.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  }).storage

  const active = new Set<ActiveJob>()
  let stopping = false
  let stopped = () => {}
  const stoppedSignal = new Promise<void>((resolve) => (stopped = resolve))
  // Idle loops wait here until a timer, a notification or stop() wakes them.
  const waiters = new Set<() => void>()
  const wakeUp = () => {
    for (const waiter of [...waiters]) waiter()
  }
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      waiters.add(done)
    })

  // Every runOnce() under way, so that stop() can wait for them all (tests call it directly).
  const runs = new Set<Promise<boolean>>()

  function runOnce(): Promise<boolean> {
    const run = takeAndWork()
    runs.add(run)
    void run.finally(() => runs.delete(run)).catch(() => {})
    return run
  }

  async function takeAndWork(): Promise<boolean> {
    if (stopping) return false
    const job = await queue.claim(id, leaseMs)
    if (!job) return false
    if (stopping) {
      // stop() came while the claim was on its way: hand the job straight back.
      await queue.release(job).catch(() => false)
      return true
    }
    const controller = new AbortController()
    const entry: ActiveJob = { job, controller, settled: Promise.resolve() }
    entry.settled = withLogContext({ requestId: job.requestId ?? undefined, jobId: job.id, workerId: id }, () =>
      work(job, controller),
    ).finally(() => active.delete(entry))
    active.add(entry)
    await entry.settled
    return true
  }

  /** Runs a claimed job to one of its ends; never throws. */
  async function work(job: MediaJob, controller: AbortController): Promise<void> {
    const started = Date.now()
    const subject =
      job.kind === 'caption_video'
        ? `captions of video ${job.videoId}`
        : job.videoId
          ? `video ${job.videoId}`
          : `quote ${job.quoteId}`
    const label = `job ${job.id} (${subject}, attempt ${job.attempts}/${job.maxAttempts})`
    const uploaded: PlannedObject[] = []
    const stopHeartbeat = keepLease(job, controller)
    log('info', `${label}: started`)
    try {
      const outcome =
        job.kind === 'caption_video'
          ? await captionJob(job, controller.signal)
          : await transcodeJob(job, controller.signal, uploaded, (message) => log('info', `${label}: ${message}`))
      log('info', `${label}: ${outcome} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    } catch (error) {
      const reason: unknown = controller.signal.reason
      if (reason === STOPPING) {
        const released = await queue.release(job).catch(() => false)
        log('info', `${label}: stopped; ${released ? 'handed back to the queue' : 'left for its lease to expire'}`)
      } else if (reason instanceof JobGoneError || error instanceof JobGoneError) {
        // Deleted while we worked: what we uploaded for it belongs to nothing.
        await removeObjects(uploaded)
        log('info', `${label}: dropped, its ${job.videoId ? 'video' : 'quote'} was deleted meanwhile`)
      } else if (reason instanceof LeaseLostError || error instanceof LeaseLostError) {
        log('warn', `${label}: lost its lease to another worker; leaving the job to it`)
      } else {
        const message = error instanceof Error ? error.message : String(error)
        try {
          const { gaveUp, runAfter } = await queue.fail(job, message)
          log('warn', `${label}: failed: ${message}${gaveUp ? ' — no attempts left' : `; retrying after ${runAfter}`}`)
        } catch (failError) {
          log('error', `${label}: failed (${message}) and could not record it (${String(failError)}); its lease will expire`)
        }
      }
    } finally {
      stopHeartbeat()
    }
  }

  /** Extends the lease every third of it; aborts the job when another worker has it now. */
  function keepLease(job: MediaJob, controller: AbortController): () => void {
    let timer: NodeJS.Timeout | undefined
    let stopped = false
    const beat = async () => {
      try {
        const lease = await queue.heartbeat(job, leaseMs)
        if (lease === 'taken') controller.abort(new LeaseLostError(job))
        if (lease === 'gone') controller.abort(new JobGoneError(job))
      } catch (error) {
        log('warn', `job ${job.id}: heartbeat failed (${String(error)}); trying again`)
      }
      if (!stopped && !controller.signal.aborted) timer = setTimeout(beat, leaseMs / 3)
    }
    timer = setTimeout(beat, leaseMs / 3)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }

  /** Phase 2's pass: the rungs `rest`, no poster, the top rung's MP4 when it is among them (ADR 0025). */
  function phase2Options(rest: Rendition[], plan: Rendition[], publishedMaster: string | Promise<string>): TranscodeOptions {
    return {
      renditions: rest,
      poster: false,
      // The top rung's MP4 replaces phase 1's; a published top rung has its video.mp4 already
      // (uploaded before the master that lists it).
      mp4: rest.includes(plan.at(-1)!) ? 'video.mp4' : null,
      publishedMaster,
      tools,
      preset: options.preset,
    }
  }

  /**
   * The job's work; returns what became of it, throws when it should be tried again.
   *
   * Two phases when the ladder has more than one rung (ADR 0025): phase 1
   * makes one rung (up to 360p) with the poster and an MP4 of it, uploads
   * them, master playlist last, and publishes the video at once (ready,
   * `more_qualities_pending`), the job still running; phase 2 (started with
   * phase 1, its ffmpeg at a lower CPU priority) makes the
   * other rungs in one pass, uploads them, then a master that lists them all
   * (last again), and completes the job with the top rung's MP4. An attempt
   * that finds the video already published (a worker died or stopped in
   * phase 2) does phase 2 only, for the rungs the published master lacks.
   */
  async function transcodeJob(
    job: MediaJob,
    signal: AbortSignal,
    uploaded: PlannedObject[],
    note: (message: string) => void,
  ): Promise<string> {
    const target = await queue.asService((tx) => loadTarget(tx, job))
    if (!target) {
      await queue.complete(job, undefined, 'its video or quote no longer exists')
      return 'nothing to do: its video or quote no longer exists'
    }

    const workDir = await mkdtemp(path.join(tempRoot, `${WORK_DIR_PREFIX}${process.pid}-job${job.id}-`))
    try {
      const source = path.join(workDir, 'source')
      const downloaded = await download(target.sourcePath, source, signal)
      const validation = downloaded
        ? await validateVideoFile(source, { type: target.purpose, maxBytes, tools, signal })
        : { ok: false as const, message: target.purpose === 'quote' ? MESSAGES.quoteTooLarge : MESSAGES.videoTooLarge }
      if (!validation.ok) {
        // The upload itself is wrong: trying again cannot help. Tell the uploader and close the job.
        await queue.complete(job, (tx) => markTargetFailed(tx, job, validation.message), validation.message)
        return `refused: ${validation.message}`
      }
      const probe = validation.probe
      const video = probe.video!
      const plan = planRenditions(video.width, video.height, { bitRate: probe.bitRate, codec: video.codec })
      const describe = (result: TranscodeResult) =>
        result.renditions.map((rendition) => `${rendition.width}x${rendition.height}`).join(', ')
      const finalMp4 = `${target.mediaPrefix}/video.mp4`
      // Once the whole ladder is published, the speech in it is written down by a job of its own
      // (worker/auto-captions.ts), in the transaction that completes this one.
      const queueCaptions = async (tx: Tx) => {
        if (speech && target.kind === 'video' && probe.hasAudio) await queueCaptionJob(tx, target.id)
      }

      let masterText: string
      let publishedMp4: string | null
      // Phase 2 of a first attempt: started with phase 1, at a lower CPU priority (below).
      let phase2: Promise<TranscodeResult> | null = null
      if (!target.published) {
        // Phase 1 (the only one for a ladder of one rung).
        const { first, rest } = splitPhases(plan)
        const posterPath = posterPathFor(target)
        // A video keeps the thumbnail its creator chose; a video response always gets a poster of its own.
        const makePoster = target.kind === 'quote' || !target.thumbnailPath || target.thumbnailPath === posterPath
        const top = plan.at(-1)!
        // Phase 2 encodes alongside phase 1 at a lower priority: phase 1's ffmpeg leaves most of a
        // core idle (ffmpeg 5.1 decodes, splits and scales in one thread), which phase 2 takes
        // without slowing it; its master waits for the one phase 1 publishes (ADR 0025).
        const phase1Master = deferred<string>()
        const stopPhase2 = new AbortController()
        if (rest.length) {
          phase2 = transcodeVideo(source, probe, path.join(workDir, 'rest'), {
            ...phase2Options(rest, plan, phase1Master.promise),
            signal: AbortSignal.any([signal, stopPhase2.signal]),
            niceness: PHASE2_NICENESS,
          })
          // Settled below; a failure while phase 1 still runs must not go unhandled meanwhile.
          phase2.catch(() => {})
        }
        try {
          const result = await transcodeVideo(source, probe, path.join(workDir, 'first'), {
            renditions: [first],
            poster: makePoster ? { width: top.width, height: top.height } : false,
            mp4: mp4NameFor(first, plan),
            signal,
            tools,
            preset: options.preset,
          })
          await uploadResult(target, result, posterPath, signal, uploaded)
          signal.throwIfAborted()
          const media = {
            hlsPath: `${target.mediaPrefix}/${result.master}`,
            mp4Path: `${target.mediaPrefix}/${result.mp4!}`,
            posterPath: result.poster ? posterPath : null,
            durationSeconds: probe.durationSeconds,
            width: video.width,
            height: video.height,
            sizeBytes: probe.sizeBytes,
            morePending: rest.length > 0,
          }
          const files = result.files.length
          if (!rest.length) {
            await queue.complete(job, async (tx) => {
              await markTargetReady(tx, target, media)
              await queueCaptions(tx)
            })
            return `ready: ${describe(result)}, ${files} files, ${probe.durationSeconds.toFixed(1)} s of video`
          }
          await queue.checkpoint(job, (tx) => markTargetReady(tx, target, media))
          note(`playable: ${describe(result)} published, ${files} files; ${rest.length} more renditions coming`)
          masterText = await readFile(path.join(result.dir, result.master), 'utf8')
          publishedMp4 = media.mp4Path
          phase1Master.resolve(masterText)
        } catch (error) {
          // Phase 1 failed or was stopped: phase 2 stops too, and is waited for (its ffmpeg gone, its folder removed).
          stopPhase2.abort()
          phase1Master.reject(error)
          await phase2?.catch(() => {})
          throw error
        }
      } else {
        masterText = await downloadText(target.published.hlsPath, signal)
        publishedMp4 = target.published.mp4Path
      }

      // Phase 2: the rungs the published master does not list yet.
      const listed = new Set(masterVariantNames(masterText))
      const rest = plan.filter((rendition) => !listed.has(rendition.name))
      let outcome = `ready: ${plan.map((rendition) => `${rendition.width}x${rendition.height}`).join(', ')} were published already`
      if (rest.length) {
        const result = await (phase2 ??
          transcodeVideo(source, probe, path.join(workDir, 'rest'), { ...phase2Options(rest, plan, masterText), signal }))
        signal.throwIfAborted()
        await uploadResult(target, result, posterPathFor(target), signal, uploaded)
        outcome = `ready: ${describe(result)} added, ${result.files.length} files, ${probe.durationSeconds.toFixed(1)} s of video`
      }
      signal.throwIfAborted()
      await queue.complete(job, async (tx) => {
        await markTargetComplete(tx, target, { mp4Path: finalMp4 })
        await queueCaptions(tx)
      })
      if (publishedMp4 && publishedMp4 !== finalMp4) {
        // Phase 1's MP4 is no longer named by the row; players that loaded it keep what they have.
        await removeObjects([{ bucket: 'media', name: publishedMp4, file: { path: '', contentType: 'video/mp4', sizeBytes: 0 } }])
      }
      return outcome
    } finally {
      await rm(workDir, { recursive: true, force: true })
    }
  }

  /** A `caption_video` job: the speech of a published video as an automatic track (worker/auto-captions.ts). */
  async function captionJob(job: MediaJob, signal: AbortSignal): Promise<string> {
    if (!speech) {
      await queue.complete(job, undefined, 'automatic captions are off on this worker')
      return 'nothing to do: automatic captions are off on this worker'
    }
    return runCaptionJob(job, signal, {
      queue,
      speech,
      tools,
      workDirPrefix: path.join(tempRoot, `${WORK_DIR_PREFIX}${process.pid}-job${job.id}-`),
      download,
    })
  }

  /** Uploads a transcode's files: variants, segments, the MP4 and the poster first, the master playlist (the way in) last. */
  async function uploadResult(
    target: MediaTarget,
    result: TranscodeResult,
    posterPath: string,
    signal: AbortSignal,
    uploaded: PlannedObject[],
  ) {
    const uploads = result.files.map((file) => objectFor(target, file, posterPath))
    const [master, rest] = partition(uploads, (upload) => upload.file.path === result.master)
    await uploadAll(rest, result.dir, signal, uploaded)
    await uploadAll(master, result.dir, signal, uploaded)
  }

  /** A small text object of bucket `media` (a published master playlist). */
  async function downloadText(objectName: string, signal: AbortSignal): Promise<string> {
    const { data, error } = await storage.from('media').download(objectName, {}, { signal })
    if (error) throw new Error(`could not download media/${objectName}: ${error.message}`)
    return data.text()
  }

  /** Streams the upload to `file`; false when it is larger than any upload may be. */
  async function download(objectName: string, file: string, signal: AbortSignal): Promise<boolean> {
    const { data, error } = await storage.from('uploads').download(objectName, {}, { signal }).asStream()
    if (error) throw new Error(`could not download uploads/${objectName}: ${error.message}`)
    let received = 0
    let tooLarge = false
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length
        if (received > maxBytes) {
          tooLarge = true
          callback(new Error('upload larger than the limit'))
        } else callback(null, chunk)
      },
    })
    try {
      await pipeline(Readable.fromWeb(data as WebReadableStream), limit, createWriteStream(file), { signal })
    } catch (pipelineError) {
      if (tooLarge) return false
      throw pipelineError
    }
    return true
  }

  interface PlannedObject {
    file: OutputFile
    bucket: 'media' | 'thumbnails'
    name: string
  }

  function objectFor(target: MediaTarget, file: OutputFile, posterPath: string): PlannedObject {
    if (file.path === 'poster.jpg' && target.kind === 'video') return { file, bucket: 'thumbnails', name: posterPath }
    return { file, bucket: 'media', name: `${target.mediaPrefix}/${file.path}` }
  }

  /** Uploads with `upsert`: a job run twice writes the same names again, never a second copy. */
  async function uploadAll(objects: PlannedObject[], dir: string, signal: AbortSignal, uploaded: PlannedObject[]) {
    let next = 0
    let failure: { error: unknown } | undefined
    const lane = async () => {
      while (next < objects.length && !failure) {
        try {
          signal.throwIfAborted()
          const object = objects[next++]!
          const body = await openAsBlob(path.join(dir, object.file.path), { type: object.file.contentType })
          const { error } = await storage
            .from(object.bucket)
            .upload(object.name, body, { contentType: object.file.contentType, upsert: true })
          if (error) throw new Error(`could not upload ${object.bucket}/${object.name}: ${error.message}`)
          uploaded.push(object)
        } catch (error) {
          failure ??= { error }
        }
      }
    }
    // Four at a time; on a failure the others finish their current upload and stop, so that
    // `uploaded` is complete when this returns (a dropped job removes exactly those).
    await Promise.all(Array.from({ length: Math.min(4, objects.length) }, lane))
    if (failure) throw failure.error
  }

  /** Best effort: what cannot be removed now is logged, never thrown. */
  async function removeObjects(objects: PlannedObject[]) {
    for (const bucket of ['media', 'thumbnails'] as const) {
      const names = objects.filter((object) => object.bucket === bucket).map((object) => object.name)
      if (!names.length) continue
      const { error } = await storage
        .from(bucket)
        .remove(names)
        .catch((thrown: unknown) => ({ error: thrown instanceof Error ? thrown : new Error(String(thrown)) }))
      if (error) log('warn', `could not remove ${names.length} orphaned objects from ${bucket}: ${error.message}`)
    }
  }

  // LISTEN on a connection of its own; any notification wakes the idle loops.
  async function listenLoop() {
    while (!stopping) {
      try {
        const client = await options.pool.connect()
        const lost = new Promise<void>((resolve) => {
          client.on('error', () => resolve())
          client.on('end', () => resolve())
        })
        client.on('notification', wakeUp)
        try {
          await client.query('LISTEN media_jobs')
          wakeUp() // jobs queued while nobody listened
          await Promise.race([lost, stoppedSignal])
        } finally {
          client.release(true)
        }
      } catch (error) {
        if (!stopping) log('warn', `LISTEN media_jobs failed (${String(error)}); polling every ${pollMs} ms meanwhile`)
      }
      if (!stopping) await idle(pollMs)
    }
  }

  async function loop() {
    while (!stopping) {
      let worked = false
      try {
        worked = await runOnce()
      } catch (error) {
        log('warn', `could not take a job: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (!worked && !stopping) await idle(pollMs)
    }
  }

  /** This worker's row in public.worker_heartbeats, refreshed every HEARTBEAT_MS while it runs. */
  async function beat() {
    await queue.asService((tx) =>
      tx
        .insertInto('worker_heartbeats')
        .values({ worker_id: id })
        .onConflict((oc) => oc.column('worker_id').doUpdateSet({ seen_at: sql<string>`now()` }))
        .execute(),
    )
  }
  async function heartbeatLoop() {
    while (!stopping) {
      await beat().catch((error: unknown) => log('warn', `heartbeat not recorded: ${String(error)}`))
      if (!stopping) await idle(HEARTBEAT_MS)
    }
    await queue.asService((tx) => tx.deleteFrom('worker_heartbeats').where('worker_id', '=', id).execute()).catch(() => {})
  }

  async function sweepOnce() {
    const shared = (options.pool.options.max ?? 10) > 1
    const client = shared ? await options.pool.connect() : undefined
    try {
      if (client) {
        const { rows } = await client.query<{ locked: boolean }>(
          "select pg_try_advisory_lock(hashtext('lumen reconcile')) as locked",
        )
        if (!rows[0]?.locked) return
      }
      try {
        const report = await reconcile({ pool: options.pool, storageDir: options.sweep?.storageDir })
        for (const finding of report.findings) {
          log('warn', `sweep ${finding.fixed ? 'fixed' : 'found'} [${finding.check}] ${finding.detail}`)
        }
        log('info', `sweep done: ${report.findings.length} found`)
      } finally {
        await client?.query("select pg_advisory_unlock(hashtext('lumen reconcile'))")
      }
    } finally {
      client?.release()
    }
  }
  async function sweepLoop() {
    const interval = options.sweep?.intervalMs ?? 60 * 60_000
    let next = Date.now() + Math.min(interval, 60_000)
    while (!stopping) {
      if (Date.now() >= next) {
        await sweepOnce().catch((error: unknown) => log('warn', `sweep failed: ${String(error)}`))
        next = Date.now() + interval
      }
      if (!stopping) await idle(Math.max(0, next - Date.now()))
    }
  }

  const loops: Promise<void>[] = []
  let listening: Promise<void> = Promise.resolve()
  if (options.autoStart ?? true) {
    loops.push(heartbeatLoop())
    if (options.sweep) loops.push(sweepLoop())
    void sweepAbandonedWorkDirs(tempRoot).then(
      (removed) => removed.length && log('info', `removed ${removed.length} job folders left by stopped processes`),
      (error: unknown) => log('warn', `could not sweep old job folders: ${String(error)}`),
    )
    if (listen) listening = listenLoop()
    for (let slot = 0; slot < concurrency; slot++) loops.push(loop())
    log(
      'info',
      `${id} started: ${concurrency} at a time, ${listen ? 'LISTEN media_jobs and polling' : 'polling'} every ${pollMs} ms; ${describeMediaTools(tools)}; automatic captions ${speech ? `by ${speech.binary}` : 'off'}`,
    )
  }

  return {
    id,
    runOnce,
    async stop({ graceMs = 0 } = {}) {
      if (!stopping) {
        stopping = true
        stopped()
        wakeUp()
      }
      const running = () => Promise.allSettled([...active].map((entry) => entry.settled))
      if (graceMs > 0 && active.size) {
        let timer: NodeJS.Timeout | undefined
        await Promise.race([running(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))])
        clearTimeout(timer)
      }
      for (const entry of active) entry.controller.abort(STOPPING)
      await running()
      await Promise.allSettled([...runs, ...loops, listening])
    },
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))]
}

/** Phase 2's ffmpeg runs at this nice value while phase 1's runs at the normal one. */
const PHASE2_NICENESS = 10

/** A promise with its settle functions; a rejection nobody awaits is not reported as unhandled. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve
    reject = onReject
  })
  promise.catch(() => {})
  return { promise, resolve, reject }
}
