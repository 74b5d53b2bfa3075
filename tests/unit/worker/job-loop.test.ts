import { describe, expect, it, vi } from 'vitest'
import { startJobLoop, type JobHandler, type JobHandlers, type JobQueue, type JobRun } from '../../../worker/job-loop'
import type { MediaJob } from '../../../worker/queue'

/** The job loop alone: a queue in memory, handlers that do what each test needs. */

function jobOf(kind: MediaJob['kind'], id = 1): MediaJob {
  return {
    id,
    kind,
    videoId: 'v1',
    quoteId: null,
    attempts: 1,
    maxAttempts: 3,
    lockedBy: 'test',
    lockedUntil: new Date().toISOString(),
    requestId: null,
  }
}

function fakeQueue(jobs: MediaJob[], lease: 'held' | 'taken' | 'gone' = 'held') {
  const calls = { failed: [] as string[], released: [] as number[], heartbeats: 0 }
  const queue: JobQueue = {
    claim: vi.fn(async () => jobs.shift() ?? null),
    heartbeat: vi.fn(async () => {
      calls.heartbeats++
      return lease
    }),
    fail: vi.fn(async (_job: MediaJob, error: string) => {
      calls.failed.push(error)
      return { gaveUp: false, runAfter: 'later' }
    }),
    release: vi.fn(async (job: MediaJob) => {
      calls.released.push(job.id)
      return true
    }),
  }
  return { queue, calls }
}

function handler(run: (run: JobRun) => Promise<string>): JobHandler {
  return { subject: (job) => `thing ${job.videoId}`, run }
}

function loopWith(queue: JobQueue, handlers: Partial<JobHandlers>, leaseMs = 60_000) {
  const logs: string[] = []
  const noop = handler(() => Promise.reject(new Error('not this kind')))
  const loop = startJobLoop({
    queue,
    handlers: { transcode_video: noop, transcode_quote: noop, caption_video: noop, ...handlers },
    id: 'test',
    leaseMs,
    pollMs: 1000,
    listen: false,
    concurrency: 1,
    autoStart: false,
    log: (level, message) => logs.push(`${level}: ${message}`),
  })
  return { loop, logs }
}

describe('the job loop', () => {
  it('hands a claimed job to the handler of its kind and logs what became of it', async () => {
    const { queue } = fakeQueue([jobOf('caption_video')])
    const seen: string[] = []
    const { loop, logs } = loopWith(queue, {
      caption_video: handler(async ({ job, note }) => {
        seen.push(job.kind)
        note('halfway')
        return 'captions: 3 cues'
      }),
    })
    expect(await loop.runOnce()).toBe(true)
    expect(seen).toEqual(['caption_video'])
    expect(logs).toContainEqual('info: job 1 (thing v1, attempt 1/3): halfway')
    expect(logs.some((line) => line.startsWith('info: job 1 (thing v1, attempt 1/3): captions: 3 cues in '))).toBe(true)
    expect(await loop.runOnce()).toBe(false)
  })

  it('records a failure with the error, for a retry', async () => {
    const { queue, calls } = fakeQueue([jobOf('transcode_video')])
    const { loop, logs } = loopWith(queue, { transcode_video: handler(() => Promise.reject(new Error('ffmpeg exited 1'))) })
    await loop.runOnce()
    expect(calls.failed).toEqual(['ffmpeg exited 1'])
    expect(logs.some((line) => line.includes('failed: ffmpeg exited 1; retrying after later'))).toBe(true)
  })

  it('stop() aborts a running job and hands it back to the queue, not failing it', async () => {
    const { queue, calls } = fakeQueue([jobOf('transcode_video', 7)])
    let started!: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    const { loop } = loopWith(queue, {
      transcode_video: handler(
        ({ signal }) =>
          new Promise((_resolve, reject) => {
            started()
            signal.addEventListener('abort', () => reject(new Error('aborted')))
          }),
      ),
    })
    const run = loop.runOnce()
    await running
    await loop.stop()
    expect(await run).toBe(true)
    expect(calls.released).toEqual([7])
    expect(calls.failed).toEqual([])
    expect(await loop.runOnce()).toBe(false)
  })

  it('a job found gone at its heartbeat is aborted and what it wrote is cleaned up', async () => {
    const { queue, calls } = fakeQueue([jobOf('transcode_video')], 'gone')
    const cleaned: string[] = []
    const { loop, logs } = loopWith(
      queue,
      {
        transcode_video: handler(
          ({ signal, onDropped }) =>
            new Promise((_resolve, reject) => {
              onDropped(async () => void cleaned.push('segments'))
              signal.addEventListener('abort', () => reject(signal.reason))
            }),
        ),
      },
      30, // the heartbeat comes after 10 ms
    )
    await loop.runOnce()
    expect(calls.heartbeats).toBeGreaterThan(0)
    expect(cleaned).toEqual(['segments'])
    expect(calls.failed).toEqual([])
    expect(logs.some((line) => line.includes('dropped, its video was deleted meanwhile'))).toBe(true)
  })

  it('a lease taken by another worker leaves the job to it: no failure recorded, nothing cleaned', async () => {
    const { queue, calls } = fakeQueue([jobOf('transcode_video')], 'taken')
    const cleaned: string[] = []
    const { loop, logs } = loopWith(
      queue,
      {
        transcode_video: handler(
          ({ signal, onDropped }) =>
            new Promise((_resolve, reject) => {
              onDropped(async () => void cleaned.push('segments'))
              signal.addEventListener('abort', () => reject(signal.reason))
            }),
        ),
      },
      30,
    )
    await loop.runOnce()
    expect(cleaned).toEqual([])
    expect(calls.failed).toEqual([])
    expect(logs.some((line) => line.includes('lost its lease to another worker'))).toBe(true)
  })
})
