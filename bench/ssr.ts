import type pg from 'pg'
import { encodeCursor, FEED_PAGE_SIZE } from '../app/server/feed.server'
import { CATEGORY_IDS } from '../app/lib/catalog'
import type { Figure } from './figures'
import { learnerCookie, load, startBenchServer, type BenchServer, type LoadResult, type Target } from './server'

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
const SECONDS = Number(process.env.BENCH_SSR_SECONDS ?? 10)
const CONNECTIONS = 10
const BUSY_CONNECTIONS = 50

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
    `${VIDEOS.toLocaleString('en-US')} ready public videos and ${(VIDEOS / 10).toLocaleString('en-US')} sparks; one server process; ${SECONDS} s per route after a 2 s warm-up, at ${CONNECTIONS} connections (req/s) and ${BUSY_CONNECTIONS} (p99); signed in as the demo learner`,
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

async function benchOn(target: Target, videos: number): Promise<{ lines: string[]; figures: Figure[] }> {
  let seeded: Seeded | undefined
  const server: BenchServer = await startBenchServer({
    target,
    seed: async (pool) => {
      seeded = await seedVideos(pool, videos)
    },
  })
  try {
    const cookie = await learnerCookie(server.base, server.dataDir)
    const results: Array<BenchRoute & { calm?: LoadResult; busy?: LoadResult; status?: number }> = []
    for (const route of benchRoutes(seeded!)) {
      const headers = route.cookie ? { cookie } : undefined
      const check = await fetch(server.base + route.path, { headers, redirect: 'manual' })
      await check.arrayBuffer()
      if (check.status !== 200) {
        results.push({ ...route, status: check.status })
        continue
      }
      const calm = await load(server.base + route.path, { headers, connections: CONNECTIONS, seconds: SECONDS })
      const busy = await load(server.base + route.path, { headers, connections: BUSY_CONNECTIONS, seconds: SECONDS, warmUp: 0 })
      results.push({ ...route, calm, busy })
    }
    const visitor = results.find((row) => row.key === 'welcome-visitor')?.calm?.rps ?? 0
    const baseline = results.find((row) => row.key === 'welcome-user')?.calm?.rps || visitor || 1
    const lines = [
      `${'route'.padEnd(32)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'p99@50'.padStart(8)}${'vs / signed in'.padStart(16)}`,
      ...results.map((row) =>
        row.calm && row.busy
          ? `${row.label.padEnd(32)}${row.calm.rps.toFixed(0).padStart(8)}${String(row.calm.p50).padStart(8)}${String(row.calm.p99).padStart(8)}${String(row.busy.p99).padStart(8)}${`${((row.calm.rps / baseline) * 100).toFixed(0)}%`.padStart(16)}${row.calm.bad + row.busy.bad ? `  (${row.calm.bad + row.busy.bad} non-2xx/errors)` : ''}`
          : `${row.label.padEnd(32)} skipped (status ${row.status})`,
      ),
    ]
    const figures: Figure[] = []
    for (const row of results) {
      if (!row.calm || !row.busy) {
        figures.push({ label: `${row.label}`, value: 0, unit: 'req/s', goal: 'status 200', met: false })
        continue
      }
      if (row.key === 'welcome-visitor') {
        figures.push({
          label: `${row.label} req/s`,
          value: row.calm.rps,
          unit: 'req/s',
          goal: '≥ 1,000 req/s',
          met: row.calm.rps >= 1000,
        })
      } else if (row.key === 'welcome-user') {
        figures.push({
          label: `${row.label} req/s`,
          value: row.calm.rps,
          unit: 'req/s',
          baseline: { label: 'visitor', value: visitor },
          goal: '≥ 80% of visitor',
          met: row.calm.rps >= 0.8 * visitor,
        })
      } else {
        figures.push({
          label: `${row.label} req/s`,
          value: row.calm.rps,
          unit: 'req/s',
          baseline: { label: 'signed-in welcome', value: baseline },
          goal: '≥ 70% of baseline',
          met: row.calm.rps >= 0.7 * baseline,
        })
      }
      figures.push({
        label: `${row.label} p99 @${BUSY_CONNECTIONS}`,
        value: row.busy.p99,
        unit: 'ms',
        goal: '≤ 100 ms',
        met: row.busy.p99 <= 100 && row.busy.bad === 0,
      })
    }
    return { lines, figures }
  } finally {
    await server.stop()
  }
}

export interface Seeded {
  videoId: string
  page500Cursor: string
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
  const { rows } = await pool.query<{ id: string; created_at: string }>(
    `select id, created_at from public.videos
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
  return { videoId: middle[0]!.id, page500Cursor: encodeCursor({ createdAt: last.created_at, id: last.id }) }
}
