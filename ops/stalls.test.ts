import type pg from 'pg'
import { describe, expect, it, vi } from 'vitest'
import { reportMemory, watchStalls } from './stalls'

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('watchStalls', () => {
  it('warns once the event loop was blocked past its bound, and stays quiet when it was not', async () => {
    const warn = vi.fn()
    const watch = watchStalls({ periodMs: 400, loopMs: 800, warn })
    try {
      await wait(900)
      expect(warn).not.toHaveBeenCalled()

      const until = Date.now() + 1_500
      while (Date.now() < until) {
        // a synchronous query of the kind PGlite runs on this thread
      }
      await wait(900)
      expect(warn).toHaveBeenCalledTimes(1)
      expect(warn.mock.calls[0]![0].eventLoopMaxMs).toBeGreaterThanOrEqual(800)
    } finally {
      watch.stop()
    }
  })

  it('warns when requests queue for a database connection', async () => {
    const warn = vi.fn()
    const pool = { waitingCount: 0 } as pg.Pool
    const watch = watchStalls({ pool, periodMs: 600, loopMs: 60_000, waiting: 5, warn })
    try {
      ;(pool as { waitingCount: number }).waitingCount = 7
      await wait(500)
      ;(pool as { waitingCount: number }).waitingCount = 0
      await wait(900)
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ mostWaitingForDatabase: 7 }),
        expect.stringContaining('7 requests waited'),
      )
    } finally {
      watch.stop()
    }
  })
})

describe('reportMemory', () => {
  it('logs the RSS, the heap and what lives outside it, in MB, every period', async () => {
    const info = vi.fn()
    const report = reportMemory({ periodMs: 100, info })
    try {
      await wait(350)
      expect(info.mock.calls.length).toBeGreaterThanOrEqual(2)
      const [fields, message] = info.mock.calls[0]!
      expect(message).toBe('memory')
      expect(fields.rssMb).toBeGreaterThan(0)
      expect(fields.heapUsedMb).toBeGreaterThan(0)
      expect(fields.rssMb).toBeGreaterThanOrEqual(fields.heapUsedMb)
      expect(Object.keys(fields).sort()).toEqual(['arrayBuffersMb', 'externalMb', 'heapTotalMb', 'heapUsedMb', 'rssMb'])
    } finally {
      report.stop()
    }
  })
})
