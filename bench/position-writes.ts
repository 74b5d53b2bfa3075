import { randomUUID } from 'node:crypto'
import type { Figure } from './figures'
import { cpuSeconds, load, type BenchServer } from './server'

/**
 * What learners' position reports cost the video page (resume, ADR 0034): the player posts
 * `/views/report` every 4 s while a video plays (app/components/video/use-watch-reporter.ts),
 * and each report saves the learner's position in the same transaction as the view's count.
 * Here WRITERS simulated learners each post one every 4 s (their starts spread over the 4 s),
 * each in a watch session of its own on a video of its own, while autocannon loads the video
 * page; rounds with and without the writers alternate, and the medians are compared: the page's
 * requests per second, p50, and the server's CPU per page request (the writes' own CPU
 * included, so that figure shows the whole cost).
 */
const WRITERS = Number(process.env.BENCH_WRITERS ?? 100)
const REPORT_EVERY_MS = 4000
const SECONDS = Number(process.env.BENCH_SSR_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_SSR_ROUNDS ?? 4)
const CONNECTIONS = 10
/** Within noise: the goal for the difference in the page's throughput and CPU. */
const GOAL = 0.05

interface Writers {
  stop(): Promise<{ reports: number; failed: number; p50: number }>
}

/** Starts the simulated learners; `stop` ends them and says how many reports went through. */
function startWriters(server: BenchServer, cookie: string, videoIds: string[]): Writers {
  let running = true
  let reports = 0
  let failed = 0
  const latencies: number[] = []
  const learner = async (index: number) => {
    const session = randomUUID()
    const video = videoIds[index % videoIds.length]!
    let position = 0
    await new Promise((resolve) => setTimeout(resolve, (index * REPORT_EVERY_MS) / WRITERS))
    while (running) {
      const began = performance.now()
      position += REPORT_EVERY_MS / 1000
      const body = new URLSearchParams({
        session,
        video,
        played: (REPORT_EVERY_MS / 1000).toFixed(3),
        tenths: '1',
        position: position.toFixed(3),
        duration: '600',
      })
      try {
        const answer = await fetch(`${server.base}/views/report`, {
          method: 'POST',
          body,
          headers: { cookie, origin: server.base },
        })
        await answer.arrayBuffer()
        if (answer.ok) reports++
        else failed++
      } catch {
        failed++
      }
      const took = performance.now() - began
      latencies.push(took)
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, REPORT_EVERY_MS - took)))
    }
  }
  const all = Array.from({ length: WRITERS }, (_, index) => learner(index))
  return {
    async stop() {
      running = false
      await Promise.all(all)
      const sorted = latencies.sort((a, b) => a - b)
      return { reports, failed, p50: sorted[Math.floor(sorted.length / 2)] ?? 0 }
    },
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The video page with and without the writers, alternating rounds; lines and figures for the SSR bench. */
export async function benchPositionWrites(
  server: BenchServer,
  page: { path: string; headers: Record<string, string> },
  cookie: string,
  videoIds: string[],
): Promise<{ lines: string[]; figures: Figure[] }> {
  const plain: Array<{ rps: number; p50: number; cpuMs: number | null }> = []
  const writing: typeof plain = []
  let reports = 0
  let failed = 0
  let writeSeconds = 0
  const reportP50: number[] = []
  const round = async () => {
    const before = cpuSeconds(server.pid)
    const result = await load(server.base + page.path, {
      headers: page.headers,
      connections: CONNECTIONS,
      seconds: SECONDS,
      warmUp: 0,
    })
    const after = cpuSeconds(server.pid)
    const cpuMs = before !== null && after !== null && result.requests ? ((after - before) * 1000) / result.requests : null
    return { rps: result.rps, p50: result.p50, cpuMs }
  }
  for (let n = 0; n < ROUNDS; n++) {
    plain.push(await round())
    const writers = startWriters(server, cookie, videoIds)
    // The writers reach their steady rate (all started) before the round is measured.
    await new Promise((resolve) => setTimeout(resolve, REPORT_EVERY_MS))
    const began = performance.now()
    writing.push(await round())
    const done = await writers.stop()
    writeSeconds += (performance.now() - began) / 1000 + REPORT_EVERY_MS / 1000
    reports += done.reports
    failed += done.failed
    reportP50.push(done.p50)
  }
  const figure = (rows: typeof plain) => ({
    rps: median(rows.map((row) => row.rps)),
    p50: median(rows.map((row) => row.p50)),
    cpuMs: rows.every((row) => row.cpuMs !== null) ? median(rows.map((row) => row.cpuMs!)) : null,
  })
  const without = figure(plain)
  const withWrites = figure(writing)
  const rpsChange = withWrites.rps / without.rps - 1
  const cpuChange = without.cpuMs && withWrites.cpuMs ? withWrites.cpuMs / without.cpuMs - 1 : null
  const pct = (value: number | null) => (value === null ? '' : `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`)
  const lines = [
    '',
    `position writes (resume): ${WRITERS} learners each reporting every ${REPORT_EVERY_MS / 1000} s (≈ ${(WRITERS / (REPORT_EVERY_MS / 1000)).toFixed(0)} writes/s) while the video page is loaded; ${ROUNDS} rounds each, alternating`,
    `${''.padEnd(32)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'CPU ms/req'.padStart(12)}`,
    `${'/video/<id>, no writes'.padEnd(32)}${without.rps.toFixed(0).padStart(8)}${String(without.p50).padStart(8)}${(without.cpuMs?.toFixed(2) ?? '').padStart(12)}`,
    `${'/video/<id>, with writes'.padEnd(32)}${withWrites.rps.toFixed(0).padStart(8)}${String(withWrites.p50).padStart(8)}${(withWrites.cpuMs?.toFixed(2) ?? '').padStart(12)}`,
    `${'difference'.padEnd(32)}${pct(rpsChange).padStart(8)}${''.padStart(8)}${pct(cpuChange).padStart(12)}  (goal: within ±${GOAL * 100}%, i.e. within noise)`,
    `reports: ${reports} saved (${(reports / Math.max(writeSeconds, 1)).toFixed(1)}/s), ${failed} failed, p50 ${median(reportP50).toFixed(0)} ms`,
  ]
  const figures: Figure[] = [
    {
      label: `/video/<id> req/s with ${WRITERS} learners' position writes`,
      value: withWrites.rps,
      unit: 'req/s',
      baseline: { label: 'no writes', value: without.rps },
      goal: `within ${GOAL * 100}% of no writes`,
      met: rpsChange >= -GOAL && failed === 0,
    },
  ]
  if (cpuChange !== null && withWrites.cpuMs !== null && without.cpuMs !== null)
    figures.push({
      label: `/video/<id> CPU ms/req with position writes (writes included)`,
      value: withWrites.cpuMs,
      unit: 'ms',
      baseline: { label: 'no writes', value: without.cpuMs },
      goal: `within ${GOAL * 100}% of no writes`,
      met: cpuChange <= GOAL,
    })
  return { lines, figures }
}
