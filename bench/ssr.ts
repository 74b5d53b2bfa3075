import { cpus, loadavg } from 'node:os'
import type pg from 'pg'
import { FEED_PAGE_SIZE } from '../app/server/feed/lists.server'
import { encodeCursor } from '../app/server/feed/query.server'
import { CATEGORY_IDS } from '../app/lib/catalog'
import type { Figure } from './figures'
import {
  cpuSeconds,
  learnerCookie,
  load,
  startBenchServer,
  startTwinServer,
  type BenchServer,
  type LoadResult,
  type Target,
} from './server'

export { ensureBuild, freePort, learnerCookie, waitForServer } from './server'

/**
 * Server-rendered pages under load: 10,000 ready public videos and 1,000
 * sparks (mixed categories, a few creators) seeded into a fresh database,
 * the real production server (`server.ts` on the built app, one process) on
 * a free loopback port, and autocannon against the welcome page (the
 * baseline: a page with the session check and no data), the feed's first
 * page, its page 500 (by its keyset cursor — it should cost what page 1
 * costs), a ranked search, sparks, a video page and Discover Creators, all
 * in one run and printed side by side — at 10 connections (throughput) and
 * at 50 (the p99 goal). Runs on the embedded database (PGlite, what
 * `npm start` uses) and, when TEST_DATABASE_URL names a PostgreSQL server, on
 * PostgreSQL too, also with 100,000 videos (BENCH_SSR_BIG=0 skips that).
 */
const VIDEOS = Number(process.env.BENCH_SSR_VIDEOS ?? 10_000)
const BIG_VIDEOS = 100_000
const PAGE = 500
/** Seconds per round; each route gets ROUNDS rounds at CONNECTIONS and one at BUSY_CONNECTIONS. */
const SECONDS = Number(process.env.BENCH_SSR_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_SSR_ROUNDS ?? 4)
const CONNECTIONS = 10
const BUSY_CONNECTIONS = 50
/** `BENCH_SSR_ENCODING=identity` measures the pages uncompressed, as before ADR 0030. */
const ACCEPT_ENCODING = process.env.BENCH_SSR_ENCODING ?? 'gzip, deflate, br'

export interface BenchRoute {
  key: string
  label: string
  path: string
  cookie: boolean
}

/** The routes measured, given what was seeded. `welcome-user` is every other page's baseline. */
export function benchRoutes(seeded: Seeded): BenchRoute[] {
  return [
    { key: 'welcome-visitor', label: '/ (welcome, visitor)', path: '/', cookie: false },
    { key: 'welcome-user', label: '/ (welcome, signed in)', path: '/', cookie: true },
    { key: 'feed', label: '/feed (page 1)', path: '/feed', cookie: true },
    { key: 'feed-500', label: `/feed?cursor=… (page ${PAGE})`, path: `/feed?cursor=${seeded.page500Cursor}`, cookie: true },
    { key: 'search', label: '/feed?search=… (ranked)', path: '/feed?search=light', cookie: true },
    { key: 'sparks', label: '/sparks', path: '/sparks', cookie: true },
    { key: 'video', label: '/video/<id>', path: `/video/${seeded.videoId}`, cookie: true },
    { key: 'creators', label: '/creators', path: '/creators', cookie: true },
  ]
}

export async function benchSsr(): Promise<{ name: string; lines: string[]; figures: Figure[] }> {
  const lines = [
    `${VIDEOS.toLocaleString('en-US')} ready public videos and ${(VIDEOS / 10).toLocaleString('en-US')} sparks; one server process; signed in as the demo learner`,
    `req/s and p50: median of ${ROUNDS} rounds of ${SECONDS} s per route at ${CONNECTIONS} connections, the routes taken in turn; p99@50: one round at ${BUSY_CONNECTIONS} connections`,
    'CPU ms/req: the server process’s CPU time per request (PGlite runs inside it; a PostgreSQL server’s time is not counted), which other load on the machine barely moves',
  ]
  const figures: Figure[] = []
  const runs: Array<{ target: Target; videos: number }> = [{ target: 'pglite', videos: VIDEOS }]
  if (process.env.TEST_DATABASE_URL) {
    runs.push({ target: 'postgres', videos: VIDEOS })
    if (process.env.BENCH_SSR_BIG !== '0') runs.push({ target: 'postgres', videos: BIG_VIDEOS })
  }
  for (const run of runs) {
    const title = `${run.target === 'pglite' ? 'PGlite, embedded (npm start)' : 'PostgreSQL server (TEST_DATABASE_URL)'}, ${run.videos.toLocaleString('en-US')} videos`
    lines.push('', `database: ${title}`)
    const result = await benchOn(run.target, run.videos)
    lines.push(...result.lines)
    figures.push(...result.figures.map((figure) => ({ ...figure, group: `SSR, ${title}` })))
  }
  if (runs.length === 1) lines.push('', '(set TEST_DATABASE_URL to a PostgreSQL superuser URL to bench PostgreSQL as well)')
  return {
    name: `SSR with ${VIDEOS.toLocaleString('en-US')} videos: data pages vs the welcome page`,
    lines,
    figures,
  }
}

interface Measured {
  /** Median over the rounds at CONNECTIONS. */
  rps: number
  p50: number
  /** p99 at BUSY_CONNECTIONS. */
  busyP99: number
  /** Server CPU milliseconds per request (median over the rounds), when the OS tells. */
  cpuMs: number | null
  bad: number
}

/**
 * Each route in ROUNDS short rounds, taken in turn (route 1, 2, …, 1, 2, …),
 * and the median kept: when other work on the machine comes and goes, it
 * then weighs on every route alike, and the ratios hold.
 */
type MeasuredRoute = BenchRoute & { headers?: Record<string, string>; server?: BenchServer }

async function measure(server: BenchServer, routes: MeasuredRoute[]): Promise<Map<string, Measured>> {
  const on = (route: MeasuredRoute) => route.server ?? server
  const rounds = new Map<string, Array<LoadResult & { cpuMs: number | null }>>(routes.map((route) => [route.key, []]))
  for (const route of routes)
    await load(on(route).base + route.path, { headers: route.headers, connections: CONNECTIONS, seconds: 2, warmUp: 0 })
  for (let round = 0; round < ROUNDS; round++) {
    for (const route of routes) {
      const before = cpuSeconds(on(route).pid)
      const result = await load(on(route).base + route.path, {
        headers: route.headers,
        connections: CONNECTIONS,
        seconds: SECONDS,
        warmUp: 0,
      })
      const after = cpuSeconds(on(route).pid)
      const cpuMs = before !== null && after !== null && result.requests ? ((after - before) * 1000) / result.requests : null
      rounds.get(route.key)!.push({ ...result, cpuMs })
    }
  }
  const busy = new Map<string, LoadResult>()
  for (const route of routes) {
    busy.set(
      route.key,
      await load(on(route).base + route.path, {
        headers: route.headers,
        connections: BUSY_CONNECTIONS,
        seconds: SECONDS,
        warmUp: 0,
      }),
    )
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    const middle = Math.floor(sorted.length / 2)
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
  }
  return new Map(
    routes.map((route) => {
      const runs = rounds.get(route.key)!
      const cpu = runs.map((run) => run.cpuMs).filter((value): value is number => value !== null)
      return [
        route.key,
        {
          rps: median(runs.map((run) => run.rps)),
          p50: median(runs.map((run) => run.p50)),
          // No answer within autocannon's timeout at all: no p99 to speak of.
          busyP99:
            busy.get(route.key)!.requests - busy.get(route.key)!.bad > 0 ? busy.get(route.key)!.p99 : Number.POSITIVE_INFINITY,
          cpuMs: cpu.length ? median(cpu) : null,
          bad: runs.reduce((sum, run) => sum + run.bad, 0) + busy.get(route.key)!.bad,
        },
      ]
    }),
  )
}

async function benchOn(target: Target, videos: number): Promise<{ lines: string[]; figures: Figure[] }> {
  let seeded: Seeded | undefined
  let twin: BenchServer | undefined
  const server: BenchServer = await startBenchServer({
    target,
    seed: async (pool) => {
      seeded = await seedVideos(pool, videos)
    },
  })
  try {
    const cookie = await learnerCookie(server.base, server.dataDir)
    const routes: Array<BenchRoute & { headers?: Record<string, string> }> = []
    const skipped: Array<BenchRoute & { status: number }> = []
    for (const route of benchRoutes(seeded!)) {
      // What a browser sends: pages are compressed for it (ADR 0030), and that CPU is part of each page's cost.
      const headers = { 'accept-encoding': ACCEPT_ENCODING, ...(route.cookie ? { cookie } : {}) }
      const check = await fetch(server.base + route.path, { headers, redirect: 'manual' })
      await check.arrayBuffer()
      if (check.status === 200) routes.push({ ...route, headers })
      else skipped.push({ ...route, status: check.status })
    }
    // Each signed-in page's bare twin (bench/twin-server.ts), measured in the same rounds, interleaved.
    const signedInRoutes = routes.filter((route) => route.cookie)
    twin = signedInRoutes.length
      ? await startTwinServer(
          server,
          cookie,
          signedInRoutes.map((route) => route.path),
        )
      : undefined
    const twins: MeasuredRoute[] = twin
      ? signedInRoutes.map((route) => ({ ...route, key: `${route.key}:twin`, label: `${route.label} twin`, server: twin }))
      : []
    const sameMarkup = twin ? await compareMarkup(server, twin, signedInRoutes) : new Map<string, string>()
    const loadBefore = loadavg()
    const measured = await measure(server, [...routes, ...twins])
    const loadAfter = loadavg()
    const visitor = measured.get('welcome-visitor')
    const signedIn = measured.get('welcome-user')
    const baseline = signedIn?.rps || visitor?.rps || 1
    const baselineCpu = signedIn?.cpuMs ?? null
    const lines = [
      `machine load (1-minute load average, ${cpus().length} cores): ${loadBefore[0]!.toFixed(1)} before, ${loadAfter[0]!.toFixed(1)} after — above the core count, read the ratios, not the absolute figures`,
      `${'route'.padEnd(32)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99@50'.padStart(8)}${'CPU ms/req'.padStart(12)}${'req/s vs / signed in'.padStart(22)}${'CPU vs'.padStart(8)}`,
      ...routes.map((route) => {
        const row = measured.get(route.key)!
        const cpu = row.cpuMs === null ? '' : row.cpuMs.toFixed(2)
        const cpuRatio = row.cpuMs !== null && baselineCpu ? `${((row.cpuMs / baselineCpu) * 100).toFixed(0)}%` : ''
        return `${route.label.padEnd(32)}${row.rps.toFixed(0).padStart(8)}${String(row.p50).padStart(8)}${(Number.isFinite(row.busyP99) ? String(row.busyP99) : 'none').padStart(8)}${cpu.padStart(12)}${`${((row.rps / baseline) * 100).toFixed(0)}%`.padStart(22)}${cpuRatio.padStart(8)}${row.bad ? `  (${row.bad} non-2xx/errors)` : ''}`
      }),
      ...skipped.map((route) => `${route.label.padEnd(32)} skipped (status ${route.status})`),
    ]
    const figures: Figure[] = skipped.map((route) => ({
      label: route.label,
      value: 0,
      unit: 'req/s',
      goal: 'status 200',
      met: false,
    }))
    for (const route of routes) {
      const row = measured.get(route.key)!
      if (route.key === 'welcome-visitor') {
        figures.push({
          label: `${route.label} req/s`,
          value: row.rps,
          unit: 'req/s',
          goal: '≥ 1,000 req/s',
          met: row.rps >= 1000,
        })
      } else if (route.key === 'welcome-user') {
        figures.push({
          label: `${route.label} req/s`,
          value: row.rps,
          unit: 'req/s',
          baseline: { label: 'visitor', value: visitor?.rps ?? 0 },
          goal: '≥ 80% of visitor',
          met: row.rps >= 0.8 * (visitor?.rps ?? 0),
        })
      } else {
        figures.push({
          label: `${route.label} req/s`,
          value: row.rps,
          unit: 'req/s',
          baseline: { label: 'signed-in welcome', value: baseline },
          goal: '≥ 70% of baseline',
          met: row.rps >= 0.7 * baseline,
        })
      }
      if (route.key === 'feed') {
        // The signed-in feed's own goal: 300 req/s, p99 within 150 ms at 50 connections.
        figures.push({
          label: `${route.label} req/s (own goal)`,
          value: row.rps,
          unit: 'req/s',
          goal: '≥ 300 req/s',
          met: row.rps >= 300,
        })
        figures.push({
          label: `${route.label} p99 @${BUSY_CONNECTIONS} (own goal)`,
          value: row.busyP99,
          unit: 'ms',
          goal: '≤ 150 ms',
          met: row.busyP99 <= 150 && row.bad === 0,
        })
      }
      figures.push({
        label: `${route.label} p99 @${BUSY_CONNECTIONS}`,
        value: row.busyP99,
        unit: 'ms',
        goal: '≤ 100 ms',
        met: row.busyP99 <= 100 && row.bad === 0,
      })
    }
    // The floor: each signed-in page's CPU per request against its bare twin's (same markup, no session, no database).
    const twinGoal = target === 'pglite' ? 2 : 1.5
    lines.push(
      '',
      `bare twins (same build and markup from the page's captured data, no session or database; goal ≤ ${twinGoal}×${target === 'postgres' ? ', for 2 processes' : ''}):`,
      `${'route'.padEnd(32)}${'CPU ms/req'.padStart(12)}${'twin'.padStart(8)}${'÷ twin'.padStart(8)}${'req/s'.padStart(8)}${'twin'.padStart(8)}`,
    )
    for (const route of signedInRoutes) {
      const row = measured.get(route.key)!
      const bare = measured.get(`${route.key}:twin`)
      const ratio = row.cpuMs !== null && bare?.cpuMs ? row.cpuMs / bare.cpuMs : null
      lines.push(
        `${route.label.padEnd(32)}${(row.cpuMs?.toFixed(2) ?? '').padStart(12)}${(bare?.cpuMs?.toFixed(2) ?? '').padStart(8)}${(ratio === null ? '' : `${ratio.toFixed(2)}×`).padStart(8)}${row.rps.toFixed(0).padStart(8)}${(bare?.rps.toFixed(0) ?? '').padStart(8)}${bare?.bad ? `  (twin: ${bare.bad} non-2xx/errors)` : ''}  ${sameMarkup.get(route.key) ?? ''}`,
      )
      if (ratio !== null)
        figures.push({
          label: `${route.label} CPU ÷ bare twin`,
          value: ratio,
          unit: '×',
          goal: `≤ ${twinGoal}×`,
          met: ratio <= twinGoal,
        })
    }
    return { lines, figures }
  } finally {
    await twin?.stop()
    await server.stop()
  }
}

/**
 * Whether each twin serves its page's markup: both fetched uncompressed, the per-response nonce
 * blanked. Relative times ("3 minutes ago") may differ between the two fetches; the line says so.
 */
async function compareMarkup(server: BenchServer, twin: BenchServer, routes: MeasuredRoute[]): Promise<Map<string, string>> {
  const page = async (base: string, route: MeasuredRoute) => {
    const response = await fetch(base + route.path, { headers: { ...route.headers, 'accept-encoding': 'identity' } })
    return (await response.text()).replace(/nonce="[^"]*"/g, 'nonce=""')
  }
  const verdicts = new Map<string, string>()
  for (const route of routes) {
    const [real, bare] = [await page(server.base, route), await page(twin.base, route)]
    let at = 0
    while (at < real.length && real[at] === bare[at]) at++
    verdicts.set(
      route.key,
      real === bare
        ? 'markup: same'
        : `markup differs at ${at} of ${real.length} chars: ${JSON.stringify(real.slice(Math.max(0, at - 20), at + 40))} vs ${JSON.stringify(bare.slice(Math.max(0, at - 20), at + 40))}`,
    )
  }
  return verdicts
}

export interface Seeded {
  videoId: string
  page500Cursor: string
  /** Other videos, one per simulated learner of the position-writes bench. */
  writerVideoIds: string[]
}

/**
 * `count` ready public videos (and a tenth as many sparks) in one statement
 * each, as the media worker leaves them (renditions and a thumbnail named,
 * status ready), by the demo creators, across every category, one minute
 * apart; their media jobs are removed (no worker runs during the bench).
 * Titles and descriptions draw on a small vocabulary so that searches match
 * many rows.
 */
export async function seedVideos(pool: pg.Pool, count: number): Promise<Seeded> {
  const words = ['light', 'energy', 'orbit', 'cell', 'market', 'design', 'code', 'music', 'health', 'history', 'climate', 'robot']
  const insert = (type: 'video' | 'spark', rows: number) =>
    pool.query(
      `with creators as (
         select array_agg(p.id order by p.username) as ids
           from public.profiles p
          where p.username in ('maya.creates', 'noah.new', 'ada.admin')
       ), rows as (
         select gen_random_uuid() as id, g, (select ids from creators) as ids from generate_series(1, $1::int) as g
       )
       insert into public.videos (id, creator_id, title, description, type, category_id, is_public, status,
                                  source_path, hls_path, mp4_path, thumbnail_path, duration_seconds, width, height, created_at)
       select r.id, r.ids[1 + g % array_length(r.ids, 1)],
              initcap(($2::text[])[1 + g % 12]) || ' and ' || ($2::text[])[1 + (g * 7) % 12] || ', lesson ' || g,
              'A lesson about ' || ($2::text[])[1 + (g * 5) % 12] || ' and ' || ($2::text[])[1 + (g * 11) % 12] || ' for curious minds.',
              $4, ($3::text[])[1 + g % array_length($3::text[], 1)], true, 'ready',
              r.ids[1 + g % array_length(r.ids, 1)]::text || '/videos/' || r.id::text || '.mp4',
              'videos/' || r.id::text || '/hls/master.m3u8', 'videos/' || r.id::text || '/video.mp4',
              r.ids[1 + g % array_length(r.ids, 1)]::text || '/' || r.id::text || '-poster.jpg',
              case when $4 = 'spark' then 10 + g % 45 else 60 + g % 600 end,
              case when $4 = 'spark' then 720 else 1280 end, case when $4 = 'spark' then 1280 else 720 end,
              now() - make_interval(mins => g)
         from rows r`,
      [rows, words, CATEGORY_IDS, type],
    )
  await insert('video', count)
  await insert('spark', Math.ceil(count / 10))
  await pool.query('delete from public.media_jobs')
  await pool.query('analyze public.videos')
  // Page 500 starts after the last card of page 499.
  const { rows } = await pool.query<{ id: string; key_at: string }>(
    `select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_at from public.videos
      where status = 'ready' and is_public and type = 'video'
      order by created_at desc, id desc
      offset $1 limit 1`,
    [(PAGE - 1) * FEED_PAGE_SIZE - 1],
  )
  const last = rows[0]
  if (!last) throw new Error('not enough videos for page 500')
  const { rows: middle } = await pool.query<{ id: string }>(
    `select id from public.videos where type = 'video' order by created_at desc offset $1 limit 1`,
    [Math.floor(count / 2)],
  )
  const { rows: others } = await pool.query<{ id: string }>(
    `select id from public.videos where type = 'video' and id <> $1 order by created_at desc limit 500`,
    [middle[0]!.id],
  )
  return {
    videoId: middle[0]!.id,
    page500Cursor: encodeCursor({ at: last.key_at, id: last.id }),
    writerVideoIds: others.map((row) => row.id),
  }
}
