import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import type pg from 'pg'
import { openDatabase } from '../db/connect'
import { migrate } from '../db/migrate'
import { seedDemoData } from '../db/seed'
import { createScratchDatabase } from '../tests/support/postgres'
import { ensureBuild, freePort, learnerCookie, waitForServer } from './ssr'

/**
 * The creator dashboard at scale (ADR 0015): the demo creator gets 1,000
 * videos and 1,000,000 view rows spread over 90 days, the unverified demo
 * creator has none; autocannon then asks for the signed-in welcome page (the
 * baseline), the empty creator's dashboard and the big creator's Overview
 * (7 and 90 days) and Videos tab. The roll-ups (ADR 0015) should make the big
 * one cost what the empty one does. Runs on PostgreSQL when
 * TEST_DATABASE_URL is set, else on PGlite. The view rows are written in bulk
 * with triggers off and the roll-ups then built by the migration's own
 * backfill query, which is what the triggers would have produced.
 */
const VIDEOS = 1_000
const VIEWS = Number(process.env.BENCH_DASHBOARD_VIEWS ?? 1_000_000)
const SECONDS = Number(process.env.BENCH_SSR_SECONDS ?? 10)
const CONNECTIONS = 10
const BIG = 'de300000-0000-4000-8000-000000000002' // creator@lumen.test

export async function benchDashboard(): Promise<{ name: string; lines: string[] }> {
  const buildDir = ensureBuild()
  const target = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lumen-bench-dashboard-'))
  const scratch = target === 'postgres' ? await createScratchDatabase('bench_dashboard') : null
  let server: ChildProcess | undefined
  const lines = [
    `${VIDEOS.toLocaleString('en-US')} videos and ${VIEWS.toLocaleString('en-US')} view rows for one creator; ${CONNECTIONS} connections for ${SECONDS} s per route`,
    `database: ${target === 'postgres' ? 'PostgreSQL server (TEST_DATABASE_URL)' : 'PGlite, embedded (npm start)'}`,
  ]
  try {
    const handle = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir: path.join(dataDir, 'pglite') })
    try {
      await migrate(handle.pool)
      await seedDemoData(handle.pool)
      const started = Date.now()
      await seedAnalytics(handle.pool)
      lines.push(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    } finally {
      await handle.close()
    }
    const port = await freePort()
    const base = `http://localhost:${port}`
    server = spawn(path.resolve('node_modules/.bin/tsx'), ['server.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        DATA_DIR: dataDir,
        LUMEN_BUILD_DIR: buildDir,
        MEDIA_WORKER: 'off',
        // Server mode insists on an SMTP server for password-reset mail; the bench sends none.
        ...(scratch ? { DATABASE_URL: scratch.url, SMTP_URL: process.env.SMTP_URL ?? 'smtp://127.0.0.1:2525' } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    })
    await waitForServer(base)
    const cookies = {
      learner: await learnerCookie(base, dataDir),
      empty: await learnerCookie(base, dataDir, 'newcreator@lumen.test'),
      big: await learnerCookie(base, dataDir, 'creator@lumen.test'),
    }
    const big = `${(VIEWS / 1_000_000).toLocaleString('en-US')}M views`
    const routes: Array<{ label: string; path: string; cookie: keyof typeof cookies }> = [
      { label: '/ (welcome, signed in)', path: '/', cookie: 'learner' },
      { label: '/dashboard (no videos)', path: '/dashboard', cookie: 'empty' },
      { label: `/dashboard (${big}, 7 days)`, path: '/dashboard', cookie: 'big' },
      { label: `/dashboard?days=90 (${big})`, path: '/dashboard?days=90', cookie: 'big' },
      { label: `/dashboard?tab=videos (${big})`, path: '/dashboard?tab=videos', cookie: 'big' },
      { label: `/dashboard?tab=engagement (${big})`, path: '/dashboard?tab=engagement', cookie: 'big' },
    ]
    const results: Array<{ label: string; rps: number; p50: number; p99: number; bad: number }> = []
    for (const route of routes) {
      const headers = { cookie: cookies[route.cookie] }
      const check = await fetch(base + route.path, { headers, redirect: 'manual' })
      await check.arrayBuffer()
      if (check.status !== 200) {
        results.push({ label: `${route.label} — skipped (status ${check.status})`, rps: 0, p50: 0, p99: 0, bad: 0 })
        continue
      }
      await autocannon({ url: base + route.path, headers, connections: CONNECTIONS, duration: 2 })
      const result = await autocannon({ url: base + route.path, headers, connections: CONNECTIONS, duration: SECONDS })
      results.push({
        label: route.label,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        bad: result.non2xx + result.errors,
      })
    }
    const baseline = results[0]?.rps || 1
    lines.push(
      '',
      `${'route'.padEnd(34)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs welcome'.padStart(12)}`,
      ...results.map(
        (row) =>
          `${row.label.padEnd(34)}${row.rps.toFixed(0).padStart(8)}${String(row.p50).padStart(9)}${String(row.p99).padStart(9)}${(row.rps ? `${((row.rps / baseline) * 100).toFixed(0)}%` : '').padStart(12)}${row.bad ? `  (${row.bad} non-2xx/errors)` : ''}`,
      ),
    )
    return { name: `Creator dashboard with ${VIEWS.toLocaleString('en-US')} views vs an empty one and the welcome page`, lines }
  } finally {
    if (server?.pid) {
      process.kill(-server.pid, 'SIGTERM')
      await new Promise((resolve) => server!.once('exit', resolve))
    }
    await scratch?.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** The big creator's videos, views (one per viewer key and hour, over 90 days), a like per video, and the roll-ups. */
async function seedAnalytics(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    await client.query(
      `insert into public.videos (creator_id, title, status, source_path, hls_path, mp4_path, duration_seconds, created_at)
       select $1::uuid, 'Lesson ' || g, 'ready', $1::text || '/videos/bench-' || g || '.mp4', 'videos/x/hls/master.m3u8', 'videos/x/video.mp4', 120,
              now() - make_interval(days => g % 120)
         from generate_series(1, $2::int) g`,
      [BIG, VIDEOS],
    )
    await client.query('delete from public.media_jobs')
    // Bulk rows without the per-row triggers; the roll-ups and counters are then built set-wise, as the migration's backfill does.
    await client.query(`set local session_replication_role = replica`)
    await client.query(
      `insert into public.video_views (video_id, viewer_key, viewed_hour, created_at)
       select v.id, 'bench-' || g, date_trunc('hour', t), t
         from (select id, row_number() over (order by id) - 1 as n from public.videos where creator_id = $1::uuid) v
         join lateral (select g, now() - make_interval(secs => (g * 7919) % (90 * 86400)) as t
                         from generate_series(v.n * ($2::int / $3::int), (v.n + 1) * ($2::int / $3::int) - 1) g) s on true`,
      [BIG, VIEWS, VIDEOS],
    )
    await client.query(`set local session_replication_role = origin`)
    await client.query(
      `insert into public.video_activity (video_id, bucket, views)
       select video_id, public.activity_bucket(created_at), count(*) from public.video_views group by 1, 2`,
    )
    await client.query(
      `insert into public.creator_activity (creator_id, bucket, views)
       select v.creator_id, a.bucket, sum(a.views) from public.video_activity a join public.videos v on v.id = a.video_id group by 1, 2`,
    )
    await client.query(
      `update public.videos v set view_count = c.n from (select video_id, count(*) as n from public.video_views group by 1) c where c.video_id = v.id`,
    )
    await client.query('commit')
    // A live database would have statistics for these tables; plan with them, as it would.
    await client.query('analyze public.videos, public.video_views, public.video_activity, public.creator_activity')
  } catch (error) {
    await client.query('rollback')
    throw error
  } finally {
    client.release()
  }
}
