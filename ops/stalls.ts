import { monitorEventLoopDelay } from 'node:perf_hooks'
import type pg from 'pg'
import { componentLogger } from './log'

/**
 * Tells the operator when this process stopped answering for a while: every `periodMs` it
 * looks at the longest the event loop was blocked (a synchronous PGlite query, a large
 * JSON, a GC pause) and the most requests that waited for a database connection, and logs
 * a warning when either passed its bound. Quiet otherwise. In embedded mode every query
 * runs on this thread, so a blocked loop is every request waiting; in server mode a queue
 * at the pool means too few connections for the load.
 */
export interface StallWatchOptions {
  pool?: pg.Pool
  periodMs?: number
  /** Longest acceptable block of the event loop. */
  loopMs?: number
  /** Most requests acceptable waiting for a database connection at once. */
  waiting?: number
  warn?: (fields: Record<string, unknown>, message: string) => void
}

export function watchStalls(options: StallWatchOptions = {}): { stop(): void } {
  const { pool, periodMs = 10_000, loopMs = 1_000, waiting = 50 } = options
  const warn = options.warn ?? ((fields, message) => componentLogger('server').warn(fields, message))
  const delay = monitorEventLoopDelay({ resolution: 20 })
  delay.enable()
  let mostWaiting = 0
  const sampler = setInterval(() => {
    mostWaiting = Math.max(mostWaiting, pool?.waitingCount ?? 0)
  }, 250)
  const reporter = setInterval(() => {
    const blockedMs = Math.round(delay.max / 1e6)
    if (blockedMs >= loopMs || mostWaiting >= waiting) {
      warn(
        {
          eventLoopMaxMs: blockedMs,
          eventLoopP99Ms: Math.round(delay.percentile(99) / 1e6),
          mostWaitingForDatabase: mostWaiting,
        },
        `stalled: the event loop was blocked up to ${blockedMs} ms and up to ${mostWaiting} requests waited for a database connection in the last ${periodMs / 1000} s`,
      )
    }
    delay.reset()
    mostWaiting = 0
  }, periodMs)
  sampler.unref()
  reporter.unref()
  return {
    stop() {
      clearInterval(sampler)
      clearInterval(reporter)
      delay.disable()
    },
  }
}

/**
 * Logs this process's memory (RSS, the JavaScript heap, and what lives outside it:
 * buffers and WebAssembly such as PGlite's) every `periodMs`, at info level: what an
 * operator reads to tell a process that grows from one that has settled, and which part
 * grows.
 */
export function reportMemory(
  options: { periodMs?: number; info?: (fields: Record<string, unknown>, message: string) => void } = {},
): { stop(): void } {
  const { periodMs = 60_000 } = options
  const info = options.info ?? ((fields, message) => componentLogger('server').info(fields, message))
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
  const timer = setInterval(() => {
    const usage = process.memoryUsage()
    info(
      {
        rssMb: mb(usage.rss),
        heapUsedMb: mb(usage.heapUsed),
        heapTotalMb: mb(usage.heapTotal),
        externalMb: mb(usage.external),
        arrayBuffersMb: mb(usage.arrayBuffers),
      },
      'memory',
    )
  }, periodMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
