import type pg from 'pg'
import { withLogContext } from '../ops/log'
import { JobGoneError, LeaseLostError, type MediaJob, type MediaQueue } from './queue'

/**
 * The job loop: takes due jobs from the queue (`claim`), keeps their lease
 * while they run (a heartbeat every third of it), hands each to the handler
 * of its kind, and records how it ended (done, failed and retried later,
 * dropped, lost to another worker, handed back on stop). Idle, it waits for
 * LISTEN media_jobs (on a server) or a poll timer. What a job does is its
 * handler's business (worker/jobs/); the loop knows only `JobHandler`.
 */

export type WorkerLog = (level: 'info' | 'warn' | 'error', message: string) => void

/** What a handler is given for one claimed job. */
export interface JobRun {
  job: MediaJob
  /** Aborted when the job must stop: stop(), a lost lease, the job gone. */
  signal: AbortSignal
  /** A line in the worker's log about this job. */
  note(message: string): void
  /**
   * Runs when the job turns out to be gone (its video or quote deleted meanwhile): removes what
   * was written for it. Registered as the work goes; run once, after the handler has returned.
   */
  onDropped(cleanup: () => Promise<void>): void
}

/** One kind of job: what it is about (for the log) and its work. */
export interface JobHandler {
  /** "video <id>", "captions of video <id>": the job's subject in log lines. */
  subject(job: MediaJob): string
  /** Works the job; resolves with what became of it, throws when it should be tried again. */
  run(run: JobRun): Promise<string>
}

export type JobHandlers = Record<MediaJob['kind'], JobHandler>

/** A background task of the worker (heartbeat row, reconciliation sweep), run until stop. */
export type BackgroundTask = (loop: { idle(ms: number): Promise<void>; stopping(): boolean }) => Promise<void>

/** What the loop needs of the queue (worker/queue.ts's MediaQueue). */
export type JobQueue = Pick<MediaQueue, 'claim' | 'heartbeat' | 'fail' | 'release'>

export interface JobLoopOptions {
  queue: JobQueue
  /** For LISTEN, on a connection of its own (only with `listen`). */
  pool?: pg.Pool
  handlers: JobHandlers
  /** Names this worker in `media_jobs.locked_by`. */
  id: string
  leaseMs: number
  pollMs: number
  listen: boolean
  concurrency: number
  log: WorkerLog
  /** Take jobs in the background; false leaves it to runOnce() (tests). */
  autoStart: boolean
  /** Run alongside the loop while it takes jobs (only with autoStart). */
  background?: BackgroundTask[]
}

export interface JobLoop {
  /** Takes one due job and works it to the end; false when none was due. */
  runOnce(): Promise<boolean>
  /**
   * Stops taking jobs; waits up to `graceMs` (default 0) for the running ones, then aborts them
   * and hands them back to the queue (if that write fails, their lease runs out and another
   * worker takes them). Calling it again cuts the first call's grace short.
   */
  stop(options?: { graceMs?: number }): Promise<void>
}

/** The abort reason of a job stopped by stop(). */
export const STOPPING = Symbol('media worker stopping')

interface ActiveJob {
  job: MediaJob
  controller: AbortController
  settled: Promise<void>
}

export function startJobLoop(options: JobLoopOptions): JobLoop {
  const { queue, id, leaseMs, pollMs, log } = options
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
    const handler = options.handlers[job.kind]
    const label = `job ${job.id} (${handler.subject(job)}, attempt ${job.attempts}/${job.maxAttempts})`
    const cleanups: Array<() => Promise<void>> = []
    const stopHeartbeat = keepLease(job, controller)
    log('info', `${label}: started`)
    try {
      const outcome = await handler.run({
        job,
        signal: controller.signal,
        note: (message) => log('info', `${label}: ${message}`),
        onDropped: (cleanup) => cleanups.push(cleanup),
      })
      log('info', `${label}: ${outcome} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    } catch (error) {
      const reason: unknown = controller.signal.reason
      if (reason === STOPPING) {
        const released = await queue.release(job).catch(() => false)
        log('info', `${label}: stopped; ${released ? 'handed back to the queue' : 'left for its lease to expire'}`)
      } else if (reason instanceof JobGoneError || error instanceof JobGoneError) {
        // Deleted while we worked: what we wrote for it belongs to nothing.
        for (const cleanup of cleanups) await cleanup().catch(() => {})
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
    let done = false
    const beat = async () => {
      try {
        const lease = await queue.heartbeat(job, leaseMs)
        if (lease === 'taken') controller.abort(new LeaseLostError(job))
        if (lease === 'gone') controller.abort(new JobGoneError(job))
      } catch (error) {
        log('warn', `job ${job.id}: heartbeat failed (${String(error)}); trying again`)
      }
      if (!done && !controller.signal.aborted) timer = setTimeout(beat, leaseMs / 3)
    }
    timer = setTimeout(beat, leaseMs / 3)
    return () => {
      done = true
      clearTimeout(timer)
    }
  }

  // LISTEN on a connection of its own; any notification wakes the idle loops.
  async function listenLoop() {
    while (!stopping) {
      try {
        const client = await options.pool!.connect()
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

  const loops: Promise<void>[] = []
  let listening: Promise<void> = Promise.resolve()
  if (options.autoStart) {
    for (const task of options.background ?? []) loops.push(task({ idle, stopping: () => stopping }))
    if (options.listen) listening = listenLoop()
    for (let slot = 0; slot < Math.max(1, options.concurrency); slot++) loops.push(loop())
  }

  return {
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
