import { randomUUID } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createChunks, stringToBase64URL } from '@supabase/ssr'
import { createClient } from '@supabase/supabase-js'
import pg from 'pg'
import { openDatabase } from '../../db/connect'
import { migrate } from '../../db/migrate'
import { seedDemoData } from '../../db/seed'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { ffmpeg, makeClip } from '../integration/media/clips'
import { createScratchDatabase } from '../support/postgres'
import {
  freePort,
  readKeys,
  startServer,
  startWorker,
  tempDataDir,
  type LumenProcess,
  type RunningServer,
} from '../faults/support/processes'

/**
 * ADR 0017's load test: simulated viewers and uploading creators against
 * real Lumen processes on loopback, for a bounded time.
 *
 * - `embedded`: `npm start` (one process, PGlite, its in-process worker).
 * - `server`: two app processes and two `npm run worker` processes on one
 *   PostgreSQL (a scratch database in TEST_DATABASE_URL's server); viewers
 *   are spread over the two apps as a load balancer would.
 *
 * Viewers (each its own X-Forwarded-For address, half of them signed in)
 * browse the welcome page, the feed, searches, video pages with their HLS
 * playlists and first segments, sparks, like and comment, with 1–3 s of
 * thinking between requests. Each upload lane posts a small clip through
 * the JSON API and waits until it is processed before the next. Reported:
 * p50/p95/p99 per route, unexpected answers (anything but the expected
 * status; 429s are counted apart), each process's RSS after warm-up and at
 * the end, and whether every upload was processed exactly once (from the
 * workers' own log lines: one `started`, one `ready` per video).
 */
export interface LoadOptions {
  mode: 'embedded' | 'server'
  seconds: number
  viewers: number
  uploads: number
  /** Videos and sparks uploaded and processed before the load, for the viewers to watch; default 3 and 2. */
  catalogue?: { videos: number; sparks: number }
  /** How long to wait after the load for the last uploads to be processed; default 180 s. */
  drainSeconds?: number
  log?: (line: string) => void
  /** Where to write every process's log lines (JSON, one file each) when the run ends; default nowhere. */
  logDir?: string
}

export interface RouteStats {
  route: string
  count: number
  p50: number
  p95: number
  p99: number
  max: number
}

export interface LoadReport {
  options: LoadOptions
  requests: number
  routes: RouteStats[]
  unexpectedCount: number
  /** The first few unexpected answers, for the reader. */
  unexpected: string[]
  rateLimited: number
  memory: Array<{ process: string; warmMb: number; endMb: number; growthPct: number }>
  uploadsSent: number
  uploadsReady: number
  /** Videos whose job was started more than once, or published more than once. */
  processedTwice: string[]
  /** Uploaded videos that were never published. */
  notProcessed: string[]
}

const LIMITS = { seconds: 900, viewers: 500, uploads: 20 }
const WORDS = ['light', 'energy', 'orbit', 'lesson', 'music', 'history']
const PASSWORD = `Load-${randomUUID()}`
/** The demo accounts' published password (embedded mode only). */
const DEMO_PASSWORD = 'Lumen-demo-2026'

interface Account {
  id: string
  token: string
  cookie: string
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const log = options.log ?? (() => {})
  const seconds = Math.min(options.seconds, LIMITS.seconds)
  const viewers = Math.min(options.viewers, LIMITS.viewers)
  const lanes = Math.min(options.uploads, LIMITS.uploads)
  const data = await tempDataDir(`load-${options.mode}`)
  const scratch = options.mode === 'server' ? await createScratchDatabase('load') : null
  const apps: RunningServer[] = []
  const workers: LumenProcess[] = []
  let pool: pg.Pool | undefined
  // Each process's RSS every 5 s of the load (written to the log folder too).
  const samples = new Map<string, Array<{ at: number; kb: number }>>()
  try {
    log(`starting ${options.mode} mode`)
    if (scratch) {
      // Two app processes (one each: no cluster of their own) and two workers, as a scaled-out deployment runs (ADR 0038).
      const env = { MEDIA_WORKER: 'off', TRUSTED_PROXY: 'loopback', WEB_CONCURRENCY: '1' }
      apps.push(await startServer({ dataDir: data.dir, port: await freePort(), databaseUrl: scratch.url, env }))
      apps.push(await startServer({ dataDir: data.dir, port: await freePort(), databaseUrl: scratch.url, env }))
      for (const app of apps) workers.push(startWorker({ databaseUrl: scratch.url, dataDir: data.dir, publicUrl: app.url }))
      await Promise.all(workers.map((worker) => worker.waitForLog((line) => /started: /.test(line.msg))))
      pool = new pg.Pool({ connectionString: scratch.url, max: 2 })
    } else {
      // The demo accounts (a verified creator) without the demo videos, whose transcoding would load the
      // machine before the test does: seeded first, as PGlite may be open in one process only.
      const handle = await openDatabase({ dataDir: path.join(data.dir, 'pglite') })
      try {
        await migrate(handle.pool)
        await seedDemoData(handle.pool)
      } finally {
        await handle.close()
      }
      apps.push(await startServer({ dataDir: data.dir, port: await freePort(), env: { SEED_DEMO_DATA: 'false' } }))
    }
    const base = apps[0]!.url
    const keys = await readKeys(data.dir)
    const admin = createClient(base, keys.serviceRoleKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false },
    })

    // People: one creator per upload lane (their own token limits), and learners for the viewers.
    let addressSeq = 0
    const signIn = async (email: string, password: string): Promise<Account> => {
      const client = createClient(base, keys.anonKey, {
        ...nodeRealtimeOptions,
        auth: { persistSession: false, autoRefreshToken: false },
        global: { headers: { 'X-Forwarded-For': `10.250.${(addressSeq >> 8) & 255}.${addressSeq++ & 255}` } },
      })
      const { data: signedIn, error } = await client.auth.signInWithPassword({ email, password })
      if (error || !signedIn.session) throw new Error(`could not sign ${email} in: ${error?.message}`)
      const name = `sb-${new URL(base).hostname.split('.')[0]}-auth-token`
      const cookie = createChunks(name, `base64-${stringToBase64URL(JSON.stringify(signedIn.session))}`)
        .map((chunk) => `${chunk.name}=${chunk.value}`)
        .join('; ')
      return { id: signedIn.user.id, token: signedIn.session.access_token, cookie }
    }
    const account = async (role: 'user' | 'creator'): Promise<Account> => {
      const email = `load-${randomUUID().slice(0, 8)}@example.test`
      const created = await admin.auth.admin.createUser({
        email,
        password: PASSWORD,
        email_confirm: true,
        user_metadata: { username: `load_${randomUUID().slice(0, 8)}`, role },
      })
      if (created.error || !created.data.user) throw new Error(`could not create ${email}: ${created.error?.message}`)
      return signIn(email, PASSWORD)
    }
    // Uploaders must be verified creators: new ones verified by SQL in server mode; in embedded mode (one
    // process owns PGlite) the demo creator, signed in once per lane (each session its own token and limits).
    const creators: Account[] = []
    for (let lane = 0; lane < Math.max(1, lanes); lane++) {
      creators.push(pool ? await account('creator') : await signIn('creator@lumen.test', DEMO_PASSWORD))
    }
    if (pool) {
      await pool.query('update public.profiles set is_verified = true where id = any($1)', [
        creators.map((creator) => creator.id),
      ])
    }
    const learners: Account[] = []
    for (let index = 0; index < Math.min(20, Math.max(1, Math.ceil(viewers / 10))); index++) learners.push(await account('user'))

    const clip = await makeClip(path.join(data.dir, 'clip.mp4'), { width: 320, height: 180, seconds: 4 })
    const thumbnail = path.join(data.dir, 'thumb.jpg')
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x180', '-frames:v', '1', thumbnail])
    const clipBytes = await readFile(clip)
    const thumbBytes = await readFile(thumbnail)

    const stats = new Map<string, number[]>()
    const unexpected: string[] = []
    let unexpectedCount = 0
    let rateLimited = 0
    let requests = 0
    const request = async (
      route: string,
      url: string,
      init: RequestInit & { expect?: number[]; timeoutMs?: number } = {},
    ): Promise<Response | null> => {
      const started = performance.now()
      requests++
      try {
        const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(init.timeoutMs ?? 30_000), ...init })
        const body = await response.arrayBuffer()
        const took = performance.now() - started
        stats.set(route, [...(stats.get(route) ?? []), took])
        if (response.status === 429) rateLimited++
        else if (!(init.expect ?? [200]).includes(response.status)) {
          unexpectedCount++
          if (unexpected.length < 20) {
            const where = response.headers.get('location') ?? Buffer.from(body).toString('utf8').slice(0, 160)
            unexpected.push(`${route} ${response.status}: ${where}`)
          }
        }
        return new Response(body, { status: response.status, headers: response.headers })
      } catch (error) {
        unexpectedCount++
        if (unexpected.length < 20) unexpected.push(`${route}: ${String(error)}`)
        return null
      }
    }
    const upload = async (app: RunningServer, creator: Account, title: string, type: 'video' | 'spark' = 'video') => {
      const form = new FormData()
      form.set('videoFile', new Blob([clipBytes], { type: 'video/mp4' }), 'clip.mp4')
      form.set('thumbnailFile', new Blob([thumbBytes], { type: 'image/jpeg' }), 'thumb.jpg')
      form.set('title', title)
      form.set('description', `A ${WORDS[title.length % WORDS.length]} lesson made by the load test.`)
      form.set('type', type)
      const response = await request('POST /api/videos/upload-cloudinary', `${app.url}/api/videos/upload-cloudinary`, {
        method: 'POST',
        headers: { authorization: `Bearer ${creator.token}` },
        body: form,
        expect: [201],
        timeoutMs: 120_000,
      })
      if (response?.status !== 201) return null
      return ((await response.json()) as { id: string }).id
    }
    const statusOf = async (app: RunningServer, creator: Account, id: string) => {
      const response = await request('GET /api/videos/:id', `${app.url}/api/videos/${id}`, {
        headers: { authorization: `Bearer ${creator.token}` },
      })
      return response?.status === 200 ? ((await response.json()) as { status: string }).status : 'unknown'
    }
    const waitProcessed = async (app: RunningServer, creator: Account, id: string, until: number) => {
      while (Date.now() < until) {
        const status = await statusOf(app, creator, id)
        if (status === 'ready' || status === 'failed') return status
        await sleep(2_500)
      }
      return 'timeout'
    }

    // A small catalogue to watch: three videos and two sparks, processed before the load starts.
    log('uploading the catalogue')
    const catalogue: string[] = []
    const sparks: string[] = []
    const { videos: videoCount = 3, sparks: sparkCount = 2 } = options.catalogue ?? {}
    const kinds = [...Array<'video'>(videoCount).fill('video'), ...Array<'spark'>(sparkCount).fill('spark')]
    for (const [index, type] of kinds.entries()) {
      const id = await upload(apps[0]!, creators[0]!, `Catalogue ${WORDS[index % WORDS.length]} ${index}`, type)
      if (!id) throw new Error(`the catalogue upload failed: ${unexpected.at(-1)}`)
      ;(type === 'video' ? catalogue : sparks).push(id)
    }
    for (const id of [...catalogue, ...sparks]) {
      if ((await waitProcessed(apps[0]!, creators[0]!, id, Date.now() + 300_000)) !== 'ready') {
        throw new Error(`catalogue video ${id} was not processed`)
      }
    }
    stats.clear()
    unexpected.length = 0
    unexpectedCount = 0
    requests = 0

    // Memory: every process's RSS every 5 s.
    const processes = [
      ...apps.map((app, index) => ({ name: `app ${index + 1}`, pid: app.child.pid! })),
      ...workers.map((worker, index) => ({ name: `worker ${index + 1}`, pid: worker.child.pid! })),
    ]
    const startedAt = Date.now()
    const deadline = startedAt + seconds * 1000
    const sampler = setInterval(() => {
      for (const process of processes) {
        void rssKb(process.pid).then(
          (kb) => kb && samples.set(process.name, [...(samples.get(process.name) ?? []), { at: Date.now() - startedAt, kb }]),
        )
      }
    }, 5_000)

    log(`load: ${viewers} viewers, ${lanes} upload lanes, ${seconds} s`)
    const viewer = async (index: number) => {
      const app = apps[index % apps.length]!
      const learner = learners[index % learners.length]!
      const visitor: Record<string, string> = {
        'X-Forwarded-For': `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
      }
      // Signed in, as the feed, video pages and sparks ask; the welcome page also as a visitor.
      const headers = { ...visitor, cookie: learner.cookie }
      const api = { ...headers, authorization: `Bearer ${learner.token}`, 'Content-Type': 'application/json' }
      await sleep(Math.random() * 3_000)
      while (Date.now() < deadline) {
        const pick = Math.random()
        const video = catalogue[Math.floor(Math.random() * catalogue.length)]!
        if (pick < 0.09) await request('GET / (visitor)', `${app.url}/`, { headers: visitor })
        else if (pick < 0.18) await request('GET /', `${app.url}/`, { headers })
        else if (pick < 0.36) await request('GET /feed', `${app.url}/feed`, { headers })
        else if (pick < 0.46) {
          await request('GET /feed?search=', `${app.url}/feed?search=${WORDS[Math.floor(Math.random() * WORDS.length)]}`, {
            headers,
          })
        } else if (pick < 0.72) {
          await request('GET /video/:id', `${app.url}/video/${video}`, { headers })
          const master = await request('GET master.m3u8', `${app.url}/media/videos/${video}/hls/master.m3u8`, { headers })
          const variant = master && (await master.text()).split('\n').find((line) => line && !line.startsWith('#'))
          if (variant) {
            const folder = `${app.url}/media/videos/${video}/hls/${path.posix.dirname(variant)}`
            const playlist = await request('GET variant .m3u8', `${app.url}/media/videos/${video}/hls/${variant}`, { headers })
            const segments = playlist ? (await playlist.text()).split('\n').filter((line) => line && !line.startsWith('#')) : []
            for (const segment of segments.slice(0, 2)) await request('GET segment .ts', `${folder}/${segment}`, { headers })
          }
        } else if (pick < 0.84) {
          await request('GET /sparks', `${app.url}/sparks`, { headers })
          await request('GET /api/videos/shorts', `${app.url}/api/videos/shorts`, { headers })
        } else if (pick < 0.94) {
          await request('POST /api/videos/:id/like', `${app.url}/api/videos/${video}/like`, { method: 'POST', headers: api })
          await request('POST /api/videos/:id/unlike', `${app.url}/api/videos/${video}/unlike`, { method: 'POST', headers: api })
        } else if (pick < 0.97) {
          await request('POST /api/videos/:id/comment', `${app.url}/api/videos/${video}/comment`, {
            method: 'POST',
            headers: api,
            body: JSON.stringify({ text: `Thanks for the ${WORDS[index % WORDS.length]} lesson (${index})` }),
            expect: [200, 201],
          })
        } else await request('GET /api/videos', `${app.url}/api/videos?page=${1 + Math.floor(Math.random() * 3)}`, { headers })
        await sleep(1_000 + Math.random() * 2_000)
      }
    }
    const sent: Array<{ id: string; lane: number }> = []
    const uploader = async (lane: number) => {
      const app = apps[lane % apps.length]!
      const creator = creators[lane]!
      await sleep(Math.random() * 5_000)
      for (let round = 0; Date.now() < deadline; round++) {
        const id = await upload(app, creator, `Load lane ${lane} round ${round}`)
        if (!id) {
          await sleep(2_000)
          continue
        }
        sent.push({ id, lane })
        await waitProcessed(app, creator, id, deadline)
      }
    }
    await Promise.all([
      ...Array.from({ length: viewers }, (_, index) => viewer(index)),
      ...Array.from({ length: lanes }, (_, lane) => uploader(lane)),
    ])
    clearInterval(sampler)

    // Drain: every upload sent must be processed, once.
    log(`draining ${sent.length} uploads`)
    const drainUntil = Date.now() + (options.drainSeconds ?? 180) * 1000
    let ready = 0
    for (const { id, lane } of sent) {
      if ((await waitProcessed(apps[lane % apps.length]!, creators[lane]!, id, drainUntil)) === 'ready') ready++
    }
    const jobLines = [...apps, ...workers].flatMap((process) => process.logs()).map((line) => line.msg)
    const count = (id: string, what: RegExp) =>
      jobLines.filter((msg) => typeof msg === 'string' && msg.includes(`(video ${id},`) && what.test(msg)).length
    const processedTwice = sent.filter(({ id }) => count(id, /: started$/) > 1 || count(id, /: ready: /) > 1).map(({ id }) => id)
    const notProcessed = sent.filter(({ id }) => count(id, /: ready: /) === 0).map(({ id }) => id)

    const routes = [...stats.entries()]
      .map(([route, times]) => {
        const sorted = [...times].sort((a, b) => a - b)
        const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!)
        return { route, count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(sorted.at(-1)!) }
      })
      .sort((a, b) => a.route.localeCompare(b.route))
    const memory = [...samples.entries()].map(([name, points]) => {
      const warm = median(
        points.filter((point) => point.at >= seconds * 200 && point.at <= seconds * 400).map((point) => point.kb),
      )
      const end = median(points.slice(-3).map((point) => point.kb))
      return {
        process: name,
        warmMb: Math.round(warm / 1024),
        endMb: Math.round(end / 1024),
        growthPct: warm ? Math.round(((end - warm) / warm) * 100) : 0,
      }
    })
    return {
      options: { ...options, seconds, viewers, uploads: lanes },
      requests,
      routes,
      unexpectedCount,
      unexpected,
      rateLimited,
      memory,
      uploadsSent: sent.length,
      uploadsReady: ready,
      processedTwice,
      notProcessed,
    }
  } finally {
    if (options.logDir) {
      await mkdir(options.logDir, { recursive: true })
      for (const [index, process] of [...apps, ...workers].entries()) {
        const name = `${index < apps.length ? 'app' : 'worker'}-${index < apps.length ? index + 1 : index - apps.length + 1}.jsonl`
        await writeFile(path.join(options.logDir, name), process.logs().map((line) => JSON.stringify(line)).join('\n') + '\n')
      }
      await writeFile(path.join(options.logDir, 'memory.json'), JSON.stringify(Object.fromEntries(samples)) + '\n')
    }
    await pool?.end()
    await Promise.all([...workers, ...apps].map((process) => process.kill('SIGKILL')))
    await scratch?.drop().catch(() => {})
    await data.remove()
  }
}

export function formatReport(report: LoadReport): string[] {
  const { options } = report
  const lines = [
    `${options.mode === 'embedded' ? 'npm start (embedded PGlite, in-process worker)' : 'server mode: 2 app processes + 2 workers, one PostgreSQL'}`,
    `${options.viewers} viewers, ${options.uploads} upload lanes, ${options.seconds} s: ${report.requests} requests (${(report.requests / options.seconds).toFixed(0)}/s)`,
    `${'route'.padEnd(34)}${'count'.padStart(7)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}`,
    ...report.routes.map(
      (row) =>
        `${row.route.padEnd(34)}${String(row.count).padStart(7)}${String(row.p50).padStart(8)}${String(row.p95).padStart(8)}${String(row.p99).padStart(8)}${String(row.max).padStart(8)}`,
    ),
    `unexpected answers: ${report.unexpectedCount}${report.unexpected.length ? ` (e.g. ${report.unexpected.slice(0, 5).join(' | ')})` : ''}; rate-limited (429): ${report.rateLimited}`,
    `memory (RSS after warm-up → end): ${report.memory.map((entry) => `${entry.process} ${entry.warmMb} → ${entry.endMb} MB (${entry.growthPct >= 0 ? '+' : ''}${entry.growthPct}%)`).join(', ')}`,
    `uploads: ${report.uploadsSent} sent, ${report.uploadsReady} ready, ${report.processedTwice.length} processed twice, ${report.notProcessed.length} not processed`,
  ]
  return lines
}

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
}

function median(values: number[]): number {
  if (!values.length) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
