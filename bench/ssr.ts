import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createChunks, stringToBase64URL } from '@supabase/ssr'
import { createClient } from '@supabase/supabase-js'
import autocannon from 'autocannon'
import type pg from 'pg'
import { encodeCursor, FEED_PAGE_SIZE } from '../app/server/feed.server'
import { nodeRealtimeOptions } from '../db/supabase-node'
import { CATEGORY_IDS } from '../app/lib/catalog'
import { openDatabase } from '../db/connect'
import { migrate } from '../db/migrate'
import { seedDemoData } from '../db/seed'
import { createScratchDatabase } from '../tests/support/postgres'

/**
 * Server-rendered pages under load: 10,000 ready public videos (mixed
 * categories, a few creators) seeded into a fresh database, the real
 * production server (`server.ts` on the built app) on a free loopback port,
 * and autocannon against the welcome page (the baseline: a bare page with
 * the session check), the feed's first page, the feed's page 500 (by its
 * keyset cursor — it should cost what page 1 costs) and a video page, all in
 * one run and printed side by side. Runs on the embedded database (PGlite,
 * what `npm start` uses) and, when TEST_DATABASE_URL names a PostgreSQL
 * server, on PostgreSQL too.
 */
const VIDEOS = 10_000
const PAGE = 500
const SECONDS = Number(process.env.BENCH_SSR_SECONDS ?? 10)
const CONNECTIONS = 10
const DEMO_PASSWORD = 'Lumen-demo-2026'

export async function benchSsr(): Promise<{ name: string; lines: string[] }> {
  const buildDir = ensureBuild()
  const lines = [
    `${VIDEOS.toLocaleString('en-US')} ready public videos; ${CONNECTIONS} connections for ${SECONDS} s per route after a 2 s warm-up; signed in as the demo learner`,
  ]
  const targets: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
  for (const target of targets) {
    lines.push('', `database: ${target === 'pglite' ? 'PGlite, embedded (npm start)' : 'PostgreSQL server (TEST_DATABASE_URL)'}`)
    lines.push(...(await benchOn(target, buildDir)))
  }
  if (targets.length === 1) lines.push('', '(set TEST_DATABASE_URL to a PostgreSQL superuser URL to bench PostgreSQL as well)')
  return {
    name: `SSR with ${VIDEOS.toLocaleString('en-US')} videos: feed page 1, page ${PAGE} and a video page vs the welcome page`,
    lines,
  }
}

async function benchOn(target: 'pglite' | 'postgres', buildDir: string): Promise<string[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lumen-bench-ssr-'))
  const scratch = target === 'postgres' ? await createScratchDatabase('bench_ssr') : null
  let server: ChildProcess | undefined
  try {
    // Seed first: PGlite's directory may be open in one process only, so the server opens it afterwards.
    const handle = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir: path.join(dataDir, 'pglite') })
    let seeded: Seeded
    try {
      await migrate(handle.pool)
      await seedDemoData(handle.pool)
      seeded = await seedVideos(handle.pool, VIDEOS)
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
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    })
    await waitForServer(base)
    const cookie = await learnerCookie(base, dataDir)

    const routes: Array<{ label: string; path: string; cookie: boolean }> = [
      { label: '/ (welcome, visitor)', path: '/', cookie: false },
      { label: '/ (welcome, signed in)', path: '/', cookie: true },
      { label: '/feed (page 1)', path: '/feed', cookie: true },
      { label: `/feed?cursor=… (page ${PAGE})`, path: `/feed?cursor=${seeded.page500Cursor}`, cookie: true },
      { label: '/feed?search=… (ranked)', path: '/feed?search=light', cookie: true },
      { label: '/video/<id>', path: `/video/${seeded.videoId}`, cookie: true },
    ]
    const results: Array<{ label: string; rps: number; p50: number; p99: number; bad: number }> = []
    for (const route of routes) {
      const headers = route.cookie ? { cookie } : undefined
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
    const baseline = results[1]?.rps || results[0]?.rps || 1
    return [
      `${'route'.padEnd(34)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs / signed in'.padStart(16)}`,
      ...results.map(
        (row) =>
          `${row.label.padEnd(34)}${row.rps.toFixed(0).padStart(8)}${String(row.p50).padStart(9)}${String(row.p99).padStart(9)}${(row.rps ? `${((row.rps / baseline) * 100).toFixed(0)}%` : '').padStart(16)}${row.bad ? `  (${row.bad} non-2xx/errors)` : ''}`,
      ),
    ]
  } finally {
    if (server?.pid) {
      process.kill(-server.pid, 'SIGTERM')
      await new Promise((resolve) => server!.once('exit', resolve))
    }
    await scratch?.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

interface Seeded {
  videoId: string
  page500Cursor: string
}

/**
 * `count` ready public videos in one statement, as the media worker leaves
 * them (renditions and a thumbnail named, status ready), by the demo
 * creators, across every category, one minute apart; their media jobs are
 * removed (no worker runs during the bench). Titles and descriptions draw on
 * a small vocabulary so that searches match many rows.
 */
export async function seedVideos(pool: pg.Pool, count: number): Promise<Seeded> {
  const words = ['light', 'energy', 'orbit', 'cell', 'market', 'design', 'code', 'music', 'health', 'history', 'climate', 'robot']
  await pool.query(
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
            'video', ($3::text[])[1 + g % array_length($3::text[], 1)], true, 'ready',
            r.ids[1 + g % array_length(r.ids, 1)]::text || '/videos/' || r.id::text || '.mp4',
            'videos/' || r.id::text || '/hls/master.m3u8', 'videos/' || r.id::text || '/video.mp4',
            r.ids[1 + g % array_length(r.ids, 1)]::text || '/' || r.id::text || '-poster.jpg',
            60 + g % 600, 1280, 720, now() - make_interval(mins => g)
       from rows r`,
    [count, words, CATEGORY_IDS],
  )
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
    `select id from public.videos order by created_at desc offset $1 limit 1`,
    [Math.floor(count / 2)],
  )
  return { videoId: middle[0]!.id, page500Cursor: encodeCursor({ createdAt: last.created_at, id: last.id }) }
}

export function ensureBuild(): string {
  const buildDir = process.env.LUMEN_BUILD_DIR ?? 'build'
  if (!existsSync(path.join(buildDir, 'server/index.js'))) {
    const built = spawnSync('npx', ['remix', 'vite:build'], {
      stdio: 'inherit',
      env: { ...process.env, LUMEN_BUILD_DIR: buildDir },
    })
    if (built.status !== 0) throw new Error('the production build failed')
  }
  return buildDir
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export async function waitForServer(base: string): Promise<void> {
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    try {
      const response = await fetch(base)
      await response.arrayBuffer()
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the server at ${base} did not start`)
}

/** A demo account's session cookies (the learner's by default), as @supabase/ssr writes them. */
export async function learnerCookie(base: string, dataDir: string, email = 'learner@lumen.test'): Promise<string> {
  const keys = JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as { anonKey: string }
  const supabase = createClient(base, keys.anonKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error || !data.session) throw new Error(`could not sign ${email} in: ${error?.message ?? 'no session'}`)
  const name = `sb-${new URL(base).hostname.split('.')[0]}-auth-token`
  return createChunks(name, `base64-${stringToBase64URL(JSON.stringify(data.session))}`)
    .map((chunk) => `${chunk.name}=${chunk.value}`)
    .join('; ')
}
