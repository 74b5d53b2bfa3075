import { randomUUID } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import pg from 'pg'
import { positionDue } from '../app/components/video/use-watch-reporter'
import type { Figure } from './figures'
import { cpuSeconds, learnerCookie, load, startBenchServer, type BenchServer, type Target } from './server'
import { seedVideos, type Seeded } from './ssr'

/**
 * What learners' saved positions cost the video page (resume, ADR 0034). The player posts
 * `/views/report` every 4 s while a video plays (app/components/video/use-watch-reporter.ts);
 * before resume each report counted the view (and checked the session), and now a signed-in
 * learner's report also carries the position, saved in the same statement (ADR 0054). The goal
 * is about the positions alone, so the video page is loaded under three arms, taken in turn
 * round after round (their order rotating, so that no arm always follows another):
 *
 * - `none`: no reports at all;
 * - `without`: WRITERS simulated learners each posting a report every 4 s WITHOUT a position
 *   (what the player sent before resume: same rate, same learner, same sessions and videos);
 * - `with`: the same reports with the position (and the video's duration) as the player sends it now:
 *   on the first report and then whenever it moved 10 s since the last one sent (`positionDue`, the
 *   player's own rule: every third report while playing; ADR 0056).
 *
 * Each arm's figures are the medians over the rounds: the page's requests per second, p50, and
 * CPU per page request — the app server's, and on PostgreSQL also the database backends' of the
 * bench's database (the reports' own CPU is in both, so those figures show their whole cost).
 * The goal is "with vs without" within 5% (within noise); "with vs none" is for information.
 */
const WRITERS = Number(process.env.BENCH_WRITERS ?? 100)
const REPORT_EVERY_MS = 4000
const SECONDS = Number(process.env.BENCH_WRITES_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_WRITES_ROUNDS ?? 5)
const CONNECTIONS = 10
/** Within noise: the goal for the difference the positions make to the page's throughput and CPU. */
const GOAL = 0.05

type Arm = 'none' | 'without' | 'with'
const ARMS: Arm[] = ['none', 'without', 'with']
const ARM_LABEL: Record<Arm, string> = {
  none: '/video/<id>, no reports',
  without: '/video/<id>, reports, no position',
  with: '/video/<id>, reports + positions',
}

interface Writers {
  /** Reports answered so far (ok or not). */
  answered(): number
  stop(): Promise<{ reports: number; failed: number; latencies: number[] }>
}

/**
 * Starts the simulated learners (their starts spread over the 4 s), each in a watch session of
 * its own on a video of its own; `stop` ends them and says how many reports went through.
 */
function startWriters(server: BenchServer, cookie: string, videoIds: string[], withPosition: boolean): Writers {
  let running = true
  let reports = 0
  let failed = 0
  const latencies: number[] = []
  const learner = async (index: number) => {
    const session = randomUUID()
    const video = videoIds[index % videoIds.length]!
    let position = 0
    let sentPosition = -1
    await new Promise((resolve) => setTimeout(resolve, (index * REPORT_EVERY_MS) / WRITERS))
    while (running) {
      const began = performance.now()
      position += REPORT_EVERY_MS / 1000
      const fields: Record<string, string> = {
        session,
        video,
        played: (REPORT_EVERY_MS / 1000).toFixed(3),
        tenths: '1',
      }
      if (withPosition && positionDue(sentPosition, position)) {
        Object.assign(fields, { position: position.toFixed(3), duration: '600' })
        sentPosition = position
      }
      try {
        const answer = await fetch(`${server.base}/views/report`, {
          method: 'POST',
          body: new URLSearchParams(fields),
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
    answered: () => reports + failed,
    async stop() {
      running = false
      await Promise.all(all)
      return { reports, failed, latencies }
    },
  }
}

const median = (values: number[]) => {
  if (!values.length) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** (max − min) ÷ median: how far apart the rounds of one arm were. */
const spread = (values: number[]) => (values.length ? (Math.max(...values) - Math.min(...values)) / (median(values) || 1) : 0)

/**
 * CPU seconds of the PostgreSQL backends serving the bench's database (their `/proc` entries are
 * readable when the server runs on this machine), by process id; null when it cannot tell.
 */
export async function databaseCpu(client: pg.Client | null): Promise<Map<number, number> | null> {
  if (!client) return null
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  )
  const byPid = new Map<number, number>()
  for (const { pid } of rows) {
    const seconds = cpuSeconds(pid)
    if (seconds !== null) byPid.set(pid, seconds)
  }
  return rows.length && byPid.size ? byPid : null
}

/** CPU the backends used between two readings (backends present at both; the app's pool keeps them under load). */
export function databaseCpuBetween(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null
  let total = 0
  for (const [pid, seconds] of after) {
    const earlier = before.get(pid)
    if (earlier !== undefined) total += seconds - earlier
  }
  return total
}

interface RoundResult {
  rps: number
  p50: number
  appCpuMs: number | null
  dbCpuMs: number | null
}

/** The video page under the three arms, interleaved; lines and figures for the bench's output. */
export async function benchPositionWrites(
  server: BenchServer,
  page: { path: string; headers: Record<string, string> },
  cookie: string,
  videoIds: string[],
): Promise<{ lines: string[]; figures: Figure[] }> {
  const client = server.databaseUrl ? new pg.Client({ connectionString: server.databaseUrl }) : null
  await client?.connect()
  try {
    const results: Record<Arm, RoundResult[]> = { none: [], without: [], with: [] }
    const traffic: Record<
      Exclude<Arm, 'none'>,
      { reports: number; failed: number; duringRounds: number[]; latencies: number[] }
    > = {
      without: { reports: 0, failed: 0, duringRounds: [], latencies: [] },
      with: { reports: 0, failed: 0, duringRounds: [], latencies: [] },
    }
    const round = async (): Promise<RoundResult> => {
      const before = cpuSeconds(server.pid)
      const dbBefore = await databaseCpu(client)
      const result = await load(server.base + page.path, {
        headers: page.headers,
        connections: CONNECTIONS,
        seconds: SECONDS,
        warmUp: 0,
      })
      const after = cpuSeconds(server.pid)
      const dbAfter = await databaseCpu(client)
      const perRequest = (seconds: number | null) =>
        seconds !== null && result.requests ? (seconds * 1000) / result.requests : null
      return {
        rps: result.rps,
        p50: result.p50,
        appCpuMs: perRequest(before !== null && after !== null ? after - before : null),
        dbCpuMs: perRequest(databaseCpuBetween(dbBefore, dbAfter)),
      }
    }
    const loadBefore = loadavg()[0]!
    // One unmeasured round, so that the first measured one does not pay for warming up.
    await load(server.base + page.path, { headers: page.headers, connections: CONNECTIONS, seconds: 2, warmUp: 0 })
    for (let n = 0; n < ROUNDS; n++) {
      for (let k = 0; k < ARMS.length; k++) {
        const arm = ARMS[(n + k) % ARMS.length]!
        if (arm === 'none') {
          results.none.push(await round())
          continue
        }
        const writers = startWriters(server, cookie, videoIds, arm === 'with')
        // The writers reach their steady rate (all started) before the round is measured.
        await new Promise((resolve) => setTimeout(resolve, REPORT_EVERY_MS))
        const [answeredBefore, roundBegan] = [writers.answered(), performance.now()]
        results[arm].push(await round())
        traffic[arm].duringRounds.push((writers.answered() - answeredBefore) / ((performance.now() - roundBegan) / 1000))
        const done = await writers.stop()
        const seen = traffic[arm]
        seen.reports += done.reports
        seen.failed += done.failed
        seen.latencies.push(...done.latencies)
      }
    }
    const loadAfter = loadavg()[0]!
    const saved = client
      ? Number((await client.query<{ n: string }>('select count(*) as n from public.watch_progress')).rows[0]?.n ?? 0)
      : null

    const figure = (rows: RoundResult[]) => {
      const app = rows.every((row) => row.appCpuMs !== null) ? median(rows.map((row) => row.appCpuMs!)) : null
      const db = rows.every((row) => row.dbCpuMs !== null) ? median(rows.map((row) => row.dbCpuMs!)) : null
      const total = rows.every((row) => row.appCpuMs !== null && (row.dbCpuMs !== null || db === null))
        ? median(rows.map((row) => row.appCpuMs! + (db === null ? 0 : row.dbCpuMs!)))
        : null
      return { rps: median(rows.map((row) => row.rps)), p50: median(rows.map((row) => row.p50)), app, db, total }
    }
    const arms = { none: figure(results.none), without: figure(results.without), with: figure(results.with) }
    const change = (a: number | null, b: number | null) => (a !== null && b ? a / b - 1 : null)
    const pct = (value: number | null) => (value === null ? '' : `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`)
    const hasDb = arms.none.db !== null
    const cpuHeader = hasDb ? `${'app CPU'.padStart(9)}${'DB CPU'.padStart(9)}${'total'.padStart(9)}` : 'CPU ms/req'.padStart(12)
    const cpuCells = (row: (typeof arms)['none']) =>
      hasDb
        ? `${(row.app?.toFixed(2) ?? '').padStart(9)}${(row.db?.toFixed(2) ?? '').padStart(9)}${(row.total?.toFixed(2) ?? '').padStart(9)}`
        : (row.app?.toFixed(2) ?? '').padStart(12)
    const diffCells = (a: (typeof arms)['none'], b: (typeof arms)['none']) =>
      `${pct(change(a.rps, b.rps)).padStart(8)}${pct(change(a.p50, b.p50)).padStart(8)}${
        hasDb
          ? `${pct(change(a.app, b.app)).padStart(9)}${pct(change(a.db, b.db)).padStart(9)}${pct(change(a.total, b.total)).padStart(9)}`
          : pct(change(a.app, b.app)).padStart(12)
      }`
    // The same difference taken round by round (each round ran both arms within seconds of each other, so a
    // load that drifts over the run moves both): the median of the rounds' own ratios.
    const cpuOf = (row: RoundResult) => (row.appCpuMs ?? 0) + (row.dbCpuMs ?? 0)
    const pairedCpu = median(results.with.map((row, n) => cpuOf(row) / (cpuOf(results.without[n]!) || 1) - 1))
    const pairedRps = median(results.with.map((row, n) => row.rps / (results.without[n]!.rps || 1) - 1))
    const rpsChange = change(arms.with.rps, arms.without.rps)
    const cpuChange = change(arms.with.total, arms.without.total)
    const reportLine = (arm: Exclude<Arm, 'none'>) => {
      const seen = traffic[arm]
      return `reports ${arm === 'with' ? 'with' : 'without'} positions: ${seen.reports} answered ok, ${seen.failed} failed, ${median(seen.duringRounds).toFixed(1)}/s during the measured rounds, p50 ${median(seen.latencies).toFixed(0)} ms`
    }
    const width = 36
    const lines = [
      '',
      `position writes (resume): ${WRITERS} learners each reporting every ${REPORT_EVERY_MS / 1000} s (≈ ${(WRITERS / (REPORT_EVERY_MS / 1000)).toFixed(0)} reports/s) while the video page is loaded at ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS} s per arm, arms interleaved (order rotating), medians`,
      `machine load (1-minute load average, ${cpus().length} cores): ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`,
      `CPU: ms per page request${hasDb ? ' — the app process, the bench database’s PostgreSQL backends, and both' : ' (the server process; PGlite runs inside it)'}; the reports’ own CPU included`,
      `${''.padEnd(width)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${cpuHeader}`,
      ...ARMS.map(
        (arm) =>
          `${ARM_LABEL[arm].padEnd(width)}${arms[arm].rps.toFixed(1).padStart(8)}${String(arms[arm].p50).padStart(8)}${cpuCells(arms[arm])}`,
      ),
      `${'with positions vs without'.padEnd(width)}${diffCells(arms.with, arms.without)}  (goal: within ${GOAL * 100}%, i.e. within noise)`,
      `with positions vs without, round by round (median of the ${ROUNDS} rounds' ratios): req/s ${pct(pairedRps)}, CPU per page request ${pct(pairedCpu)}`,
      `${'with positions vs no reports'.padEnd(width)}${diffCells(arms.with, arms.none)}  (for information: the reports' whole cost)`,
      reportLine('without'),
      reportLine('with'),
      `noise, round to round (the rounds' spread, (max − min) ÷ median): ${ARMS.map((arm) => `${arm} req/s ±${(spread(results[arm].map((row) => row.rps)) * 50).toFixed(0)}%, CPU ±${(spread(results[arm].map((row) => (row.appCpuMs ?? 0) + (row.dbCpuMs ?? 0))) * 50).toFixed(0)}%`).join('; ')}`,
      ...(saved === null ? [] : [`positions saved in the database after the run: ${saved} (one row per learner and video)`]),
    ]
    const failed = traffic.with.failed + traffic.without.failed
    const figures: Figure[] = [
      {
        label: `/video/<id> req/s, ${WRITERS} learners' reports with positions`,
        value: arms.with.rps,
        unit: 'req/s',
        baseline: { label: 'reports without positions', value: arms.without.rps },
        goal: `within ${GOAL * 100}% of reports without positions`,
        met: rpsChange !== null && rpsChange >= -GOAL && failed === 0,
      },
    ]
    if (cpuChange !== null && arms.with.total !== null && arms.without.total !== null)
      figures.push({
        label: `/video/<id> CPU ms/req, reports with positions (${hasDb ? 'app + DB, ' : ''}reports included)`,
        value: arms.with.total,
        unit: 'ms',
        baseline: { label: 'reports without positions', value: arms.without.total },
        goal: `within ${GOAL * 100}% of reports without positions`,
        met: cpuChange <= GOAL,
      })
    return { lines, figures }
  } finally {
    await client?.end()
  }
}

/**
 * `npm run bench -- writes`: the position-writes comparison on its own (the SSR bench runs it too,
 * after its pages), on PostgreSQL when TEST_DATABASE_URL is set (`BENCH_WRITES_TARGET=pglite`
 * forces the embedded database), with the SSR bench's seed (`BENCH_SSR_VIDEOS` videos).
 */
export async function benchWrites(): Promise<{ name: string; lines: string[]; figures: Figure[] }> {
  const target: Target =
    (process.env.BENCH_WRITES_TARGET as Target | undefined) ?? (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite')
  const videos = Number(process.env.BENCH_SSR_VIDEOS ?? 10_000)
  let seeded: Seeded | undefined
  const server = await startBenchServer({
    target,
    seed: async (pool) => {
      seeded = await seedVideos(pool, videos)
    },
  })
  try {
    const cookie = await learnerCookie(server.base, server.dataDir)
    const path = `/video/${seeded!.videoId}`
    const headers = { 'accept-encoding': process.env.BENCH_SSR_ENCODING ?? 'gzip, deflate, br', cookie }
    const check = await fetch(server.base + path, { headers })
    await check.arrayBuffer()
    if (check.status !== 200) throw new Error(`the video page answered ${check.status}`)
    const result = await benchPositionWrites(server, { path, headers }, cookie, seeded!.writerVideoIds)
    const title = target === 'pglite' ? 'PGlite, embedded' : 'PostgreSQL server (TEST_DATABASE_URL)'
    return {
      name: `Position writes on the video page (${title}, ${videos.toLocaleString('en-US')} videos, one server process)`,
      lines: result.lines,
      figures: result.figures.map((figure) => ({ ...figure, group: `Position writes, ${title}` })),
    }
  } finally {
    await server.stop()
  }
}
