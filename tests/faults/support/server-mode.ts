import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import pg from 'pg'
import { withRole } from '../../../db/as-role'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import { reconcile, type Finding } from '../../../worker/reconcile'
import { claimsFor, insertAuthUser } from '../../support/databases'
import { startCluster, type Cluster } from './cluster'
import { freePort, readKeys, startServer, startWorker, tempDataDir, type LumenProcess, type RunningServer } from './processes'

/**
 * Server mode on real processes: a PostgreSQL cluster of the test's own,
 * app instances (the bundled server, no in-process worker) sharing one DATA_DIR
 * (keys and the stand-in's storage folder, as a shared volume would), and
 * `npm run worker` processes, with a pool of the test's own for checks.
 */
export interface ServerMode {
  cluster: Cluster
  pool: pg.Pool
  dataDir: string
  apps: RunningServer[]
  workers: LumenProcess[]
  /** Storage and auth as the service role, through the first app. */
  service: SupabaseClient
  serviceRoleKey: string
  anonKey: string
  startApp(env?: Record<string, string>): Promise<RunningServer>
  startWorker(env?: Record<string, string>): LumenProcess
  /** A verified creator (inserted directly). */
  makeCreator(): Promise<string>
  /** Puts `file` into bucket `uploads` and inserts the video row as its creator (its trigger queues the job). */
  uploadVideo(creatorId: string, file: string): Promise<string>
  /** Polls the video row until `done` says so. */
  waitForVideo(id: string, done: (row: VideoRow) => boolean, timeoutMs?: number): Promise<VideoRow>
  /** The media job of a video. */
  /** The video's latest transcode job (not its caption job). */
  jobOf(videoId: string): Promise<{ id: number; status: string; attempts: number; last_error: string | null }>
  /** `npm run doctor --dry-run` in effect: what a reconciliation finds (orphans of any age included). */
  reconcileFindings(): Promise<Finding[]>
  close(): Promise<void>
}

export interface VideoRow {
  status: string
  status_message: string | null
  hls_path: string | null
  mp4_path: string | null
  /** Ready after phase 1, more renditions still coming (ADR 0025). */
  more_qualities_pending: boolean
}

export async function openServerMode(label: string): Promise<ServerMode> {
  const cluster = await startCluster(await freePort())
  const data = await tempDataDir(label)
  const pool = new pg.Pool({ connectionString: cluster.url, max: 4 })
  const apps: RunningServer[] = []
  const workers: LumenProcess[] = []

  const startApp = async (env: Record<string, string> = {}) => {
    const app = await startServer({
      dataDir: data.dir,
      port: await freePort(),
      databaseUrl: cluster.url,
      env: { MEDIA_WORKER: 'off', ...env },
    })
    apps.push(app)
    return app
  }
  const first = await startApp()
  const keys = await readKeys(data.dir)
  const service = createClient(first.url, keys.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false },
  })

  return {
    cluster,
    pool,
    dataDir: data.dir,
    apps,
    workers,
    service,
    serviceRoleKey: keys.serviceRoleKey,
    anonKey: keys.anonKey,
    startApp,
    startWorker(env = {}) {
      const worker = startWorker({ databaseUrl: cluster.url, dataDir: data.dir, publicUrl: apps[0]!.url, env })
      workers.push(worker)
      return worker
    },
    async makeCreator() {
      const id = await insertAuthUser(pool, { role: 'creator' })
      await pool.query('update public.profiles set is_verified = true where id = $1', [id])
      return id
    },
    async uploadVideo(creatorId, file) {
      const sourcePath = `${creatorId}/videos/${randomUUID()}.mp4`
      const { error } = await service.storage
        .from('uploads')
        .upload(sourcePath, await readFile(file), { contentType: 'video/mp4' })
      if (error) throw error
      return withRole(pool, 'authenticated', claimsFor(creatorId), async (client) => {
        const { rows } = await client.query<{ id: string }>(
          `insert into public.videos (title, description, type, source_path) values ($1, 'A lesson', 'video', $2) returning id`,
          [`Lesson ${path.basename(file)}`, sourcePath],
        )
        return rows[0]!.id
      })
    },
    async waitForVideo(id, done, timeoutMs = 180_000) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const { rows } = await pool.query<VideoRow>(
          'select status, status_message, hls_path, mp4_path, more_qualities_pending from public.videos where id = $1',
          [id],
        )
        if (rows[0] && done(rows[0])) return rows[0]
        if (Date.now() > until) throw new Error(`video ${id} still ${JSON.stringify(rows[0])} after ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    },
    async jobOf(videoId) {
      const { rows } = await pool.query<{ id: number; status: string; attempts: number; last_error: string | null }>(
        "select id::int as id, status, attempts, last_error from public.media_jobs where video_id = $1 and kind = 'transcode_video' order by id desc limit 1",
        [videoId],
      )
      return rows[0]!
    },
    async reconcileFindings() {
      const report = await reconcile({ pool, storageDir: path.join(data.dir, 'storage'), fix: false, orphanGraceMs: 0 })
      return report.findings
    },
    async close() {
      await Promise.all([...workers, ...apps].map((process) => process.kill('SIGKILL')))
      await pool.end()
      await cluster.stop()
      await data.remove()
    },
  }
}

/**
 * What a published video must have: its master playlist, and for every
 * variant the master lists, the variant playlist and every segment it names
 * — as stored objects with files behind them.
 */
export async function publishedFiles(mode: ServerMode, videoId: string): Promise<{ variants: string[]; missing: string[] }> {
  const prefix = `videos/${videoId}/hls`
  const download = async (name: string) => {
    const { data, error } = await mode.service.storage.from('media').download(name)
    if (error || !data) return null
    return Buffer.from(await data.arrayBuffer())
  }
  const missing: string[] = []
  const master = await download(`${prefix}/master.m3u8`)
  if (!master) return { variants: [], missing: [`${prefix}/master.m3u8`] }
  const variants = master
    .toString('utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
  for (const variant of variants) {
    const playlist = await download(`${prefix}/${variant}`)
    if (!playlist) {
      missing.push(`${prefix}/${variant}`)
      continue
    }
    const text = playlist.toString('utf8')
    if (!text.includes('#EXT-X-ENDLIST')) missing.push(`${prefix}/${variant} (unfinished)`)
    const folder = path.posix.dirname(`${prefix}/${variant}`)
    for (const segment of text.split('\n').filter((line) => line && !line.startsWith('#'))) {
      if (!(await download(`${folder}/${segment}`))?.length) missing.push(`${folder}/${segment}`)
    }
  }
  return { variants, missing }
}
