import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import { withRole } from '../../../db/as-role'
import { startMediaWorker, sweepAbandonedWorkDirs, type MediaWorker, type MediaWorkerOptions } from '../../../worker/media-worker'
import { resolveMediaTools } from '../../../media/tools'
import { MediaQueue } from '../../../worker/queue'
import { claimsFor, insertAuthUser } from '../../support/databases'
import { startStack, type RunningStack } from '../../support/stack'
import { makeClip, scratchDir } from './clips'

/**
 * The worker end to end against the stand-in: an upload in bucket `uploads`,
 * the video row a verified creator inserts (its trigger queues the job), the
 * worker's run — and then the row, the objects in `media` and `thumbnails`,
 * and the queue. Then the faults: bad uploads, a job run twice, a worker
 * stopped midway, a worker that died.
 */

interface Fixture {
  running: RunningStack
  pool: pg.Pool
  service: SupabaseClient
  creatorId: string
  scratch: Awaited<ReturnType<typeof scratchDir>>
  logs: string[]
  workers: MediaWorker[]
}

async function openFixture(database: 'pglite' | 'postgres'): Promise<Fixture> {
  const running = await startStack({ database })
  const pool = running.database.pool
  const creatorId = await insertAuthUser(pool, { role: 'creator' })
  await pool.query('update public.profiles set is_verified = true where id = $1', [creatorId])
  const service = createClient(running.url, running.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false },
  })
  return { running, pool, service, creatorId, scratch: await scratchDir('media-worker'), logs: [], workers: [] }
}

function workerFor(fixture: Fixture, options: Partial<MediaWorkerOptions> = {}): MediaWorker {
  const worker = startMediaWorker({
    pool: fixture.pool,
    supabaseUrl: fixture.running.url,
    serviceRoleKey: fixture.running.serviceRoleKey,
    autoStart: false,
    tempDir: fixture.scratch.dir,
    log: (level, message) => fixture.logs.push(`${level}: ${message}`),
    // The transcode path alone; automatic captions have their own suite (auto-captions.test.ts).
    speech: null,
    ...options,
  })
  fixture.workers.push(worker)
  return worker
}

/** Puts a file into `uploads/<creator>/videos/` and inserts the video as its verified creator would. */
async function uploadVideo(fixture: Fixture, file: string, type: 'video' | 'spark' = 'video'): Promise<string> {
  const sourcePath = `${fixture.creatorId}/videos/${randomUUID()}.mp4`
  const { error } = await fixture.service.storage
    .from('uploads')
    .upload(sourcePath, await readFile(file), { contentType: 'video/mp4' })
  if (error) throw error
  return withRole(fixture.pool, 'authenticated', claimsFor(fixture.creatorId), async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into public.videos (title, description, type, source_path) values ($1, 'A lesson', $2, $3) returning id`,
      [`Lesson ${path.basename(file)}`, type, sourcePath],
    )
    return rows[0]!.id
  })
}

async function videoRow(fixture: Fixture, id: string) {
  const { rows } = await fixture.pool.query(
    `select status, status_message, hls_path, mp4_path, thumbnail_path, duration_seconds, width, height, size_bytes
       from public.videos where id = $1`,
    [id],
  )
  return rows[0] as Record<string, unknown>
}

async function jobOf(fixture: Fixture, column: 'video_id' | 'quote_id', id: string) {
  const { rows } = await fixture.pool.query(
    `select id, status, attempts, last_error, locked_by from public.media_jobs where ${column} = $1 order by id desc limit 1`,
    [id],
  )
  return rows[0] as { id: number; status: string; attempts: number; last_error: string | null; locked_by: string | null }
}

async function objectNames(fixture: Fixture, bucket: string, prefix: string): Promise<string[]> {
  const { rows } = await fixture.pool.query<{ name: string }>(
    `select name from storage.objects where bucket_id = $1 and starts_with(name, $2) order by name`,
    [bucket, prefix],
  )
  return rows.map((row) => row.name)
}

async function storedFileCount(fixture: Fixture): Promise<number> {
  const entries = await readdir(path.join(fixture.running.dataDir, 'storage', 'objects'), {
    recursive: true,
    withFileTypes: true,
  })
  return entries.filter((entry) => entry.isFile()).length
}

/** Processes (ffmpeg, ffprobe) whose command line mentions `dir`: a worker's children. */
async function processesUsing(dir: string): Promise<string[]> {
  const found: string[] = []
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
    if (cmdline.includes(dir) && !cmdline.includes('vitest')) found.push(cmdline.replaceAll('\0', ' '))
  }
  return found
}

async function closeFixture(fixture: Fixture | undefined) {
  if (!fixture) return
  await Promise.all(fixture.workers.map((worker) => worker.stop()))
  await fixture.running.close()
  await fixture.scratch.remove()
}

describe('media worker, embedded (PGlite, polling)', () => {
  let fixture: Fixture
  let clip: string

  beforeAll(async () => {
    fixture = await openFixture('pglite')
    clip = await makeClip(path.join(fixture.scratch.dir, 'lesson.mp4'), { width: 320, height: 180, seconds: 2 })
  })

  afterAll(async () => {
    await closeFixture(fixture)
  })

  afterEach(async () => {
    // Every job leaves its temp folder behind it.
    expect((await readdir(fixture.scratch.dir)).filter((name) => name.startsWith('lumen-media-'))).toEqual([])
  })

  it('transcodes an upload: the video is ready, with its paths, size and a poster, and the files are in storage', async () => {
    const id = await uploadVideo(fixture, clip)
    expect((await videoRow(fixture, id)).status).toBe('processing')
    expect(await workerFor(fixture).runOnce()).toBe(true)

    expect(await videoRow(fixture, id)).toEqual({
      status: 'ready',
      status_message: null,
      hls_path: `videos/${id}/hls/master.m3u8`,
      mp4_path: `videos/${id}/video.mp4`,
      thumbnail_path: `${fixture.creatorId}/${id}-poster.jpg`,
      duration_seconds: expect.closeTo(2, 0),
      width: 320,
      height: 180,
      size_bytes: (await readFile(clip)).length,
    })
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'done', attempts: 1, last_error: null, locked_by: null })

    expect(await objectNames(fixture, 'media', `videos/${id}/`)).toEqual([
      `videos/${id}/hls/180p/index.m3u8`,
      `videos/${id}/hls/180p/segment_000.ts`,
      `videos/${id}/hls/master.m3u8`,
      `videos/${id}/video.mp4`,
    ])
    expect(await objectNames(fixture, 'thumbnails', `${fixture.creatorId}/${id}`)).toEqual([
      `${fixture.creatorId}/${id}-poster.jpg`,
    ])

    const master = await fixture.service.storage.from('media').download(`videos/${id}/hls/master.m3u8`)
    expect(await master.data?.text()).toMatch(/^#EXTM3U\n[\s\S]*RESOLUTION=320x180[\s\S]*\n180p\/index\.m3u8\n$/)
    const { data: info } = await fixture.service.storage.from('media').info(`videos/${id}/hls/180p/segment_000.ts`)
    expect(info?.contentType).toBe('video/mp2t')
    const { data: mp4Info } = await fixture.service.storage.from('media').info(`videos/${id}/video.mp4`)
    expect(mp4Info?.contentType).toBe('video/mp4')
  })

  it('running the same job again changes nothing and leaves no second copy of any file', async () => {
    const id = await uploadVideo(fixture, clip)
    const worker = workerFor(fixture)
    await worker.runOnce()
    const row = await videoRow(fixture, id)
    const media = await objectNames(fixture, 'media', `videos/${id}/`)
    const files = await storedFileCount(fixture)

    const job = await jobOf(fixture, 'video_id', id)
    await fixture.pool.query(`update public.media_jobs set status = 'queued', run_after = now() where id = $1`, [job.id])
    expect(await worker.runOnce()).toBe(true)

    expect(await videoRow(fixture, id)).toEqual(row)
    expect(await objectNames(fixture, 'media', `videos/${id}/`)).toEqual(media)
    expect(await objectNames(fixture, 'thumbnails', `${fixture.creatorId}/${id}`)).toHaveLength(1)
    expect(await storedFileCount(fixture)).toBe(files)
  })

  it('keeps a thumbnail the creator gave, making no poster', async () => {
    const id = await uploadVideo(fixture, clip)
    const thumbnail = `${fixture.creatorId}/own-${randomUUID()}.jpg`
    await fixture.pool.query('update public.videos set thumbnail_path = $2 where id = $1', [id, thumbnail])
    await workerFor(fixture).runOnce()
    expect(await videoRow(fixture, id)).toMatchObject({ status: 'ready', thumbnail_path: thumbnail })
    expect(await objectNames(fixture, 'thumbnails', `${fixture.creatorId}/${id}`)).toEqual([])
  })

  it('refuses a text file named .mp4: the video fails with the reason, the job is done, nothing is published', async () => {
    const notes = path.join(fixture.scratch.dir, 'notes.mp4')
    await writeFile(notes, 'Lecture notes, not a video.\n')
    const id = await uploadVideo(fixture, notes)
    await workerFor(fixture).runOnce()

    const message = 'Please select a valid video file. This file is not a video. We take MP4, MOV, WebM, MKV, AVI and MPEG-TS.'
    expect(await videoRow(fixture, id)).toMatchObject({ status: 'failed', status_message: message, hls_path: null })
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'done', attempts: 1, last_error: message })
    expect(await objectNames(fixture, 'media', `videos/${id}/`)).toEqual([])
  })

  it('refuses a 70 s spark without recording its length', async () => {
    const long = await makeClip(path.join(fixture.scratch.dir, 'seventy.mp4'), { width: 64, height: 36, seconds: 70, rate: 1 })
    const id = await uploadVideo(fixture, long, 'spark')
    await workerFor(fixture).runOnce()
    expect(await videoRow(fixture, id)).toMatchObject({
      status: 'failed',
      status_message: 'Sparks must be under 60 seconds. This video is 70 seconds long.',
      duration_seconds: null,
    })
    expect((await jobOf(fixture, 'video_id', id)).status).toBe('done')
  })

  it('transcodes a video quote into quotes/<id>/ and its response columns', async () => {
    const videoId = await uploadVideo(fixture, clip)
    const learnerId = await insertAuthUser(fixture.pool)
    const sourcePath = `${learnerId}/quotes/${randomUUID()}.mp4`
    await fixture.service.storage.from('uploads').upload(sourcePath, await readFile(clip), { contentType: 'video/mp4' })
    const quoteId = await withRole(fixture.pool, 'authenticated', claimsFor(learnerId), async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into public.quotes (video_id, type, body, response_source_path) values ($1, 'video', 'My take', $2) returning id`,
        [videoId, sourcePath],
      )
      return rows[0]!.id
    })
    const worker = workerFor(fixture)
    while (await worker.runOnce()) {
      // the video's job and the quote's
    }
    const { rows } = await fixture.pool.query(
      'select response_status, response_status_message, response_hls_path, response_mp4_path from public.quotes where id = $1',
      [quoteId],
    )
    expect(rows[0]).toEqual({
      response_status: 'ready',
      response_status_message: null,
      response_hls_path: `quotes/${quoteId}/hls/master.m3u8`,
      response_mp4_path: `quotes/${quoteId}/video.mp4`,
    })
    // The master playlist, its rendition, the MP4 and the response's own poster (quotes/<id>/poster.jpg).
    const names = await objectNames(fixture, 'media', `quotes/${quoteId}/`)
    expect(names).toHaveLength(5)
    expect(names).toContain(`quotes/${quoteId}/poster.jpg`)
  })

  it('stop() mid-transcode kills ffmpeg and hands the job back; another worker then completes it', async () => {
    const longer = await makeClip(path.join(fixture.scratch.dir, 'longer.mp4'), { width: 480, height: 270, seconds: 12 })
    const id = await uploadVideo(fixture, longer)
    const first = workerFor(fixture)
    const running = first.runOnce()

    let children: string[] = []
    for (let wait = 0; wait < 200 && !children.some((line) => line.includes('-filter_complex')); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      children = await processesUsing(fixture.scratch.dir)
    }
    expect(children.some((line) => line.includes('-filter_complex'))).toBe(true)

    await first.stop()
    expect(await running).toBe(true)
    expect(await processesUsing(fixture.scratch.dir)).toEqual([])
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null })
    expect((await videoRow(fixture, id)).status).toBe('processing')
    expect(fixture.logs.some((line) => line.includes('stopped; handed back to the queue'))).toBe(true)
    expect(await first.runOnce()).toBe(false) // a stopped worker takes nothing

    expect(await workerFor(fixture).runOnce()).toBe(true)
    expect(await videoRow(fixture, id)).toMatchObject({ status: 'ready', width: 480, height: 270 })
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'done', attempts: 1 })
  })

  it('drops the job, and anything it uploaded, when the video is deleted mid-transcode', async () => {
    const clipPath = await makeClip(path.join(fixture.scratch.dir, 'deleted.mp4'), { width: 480, height: 270, seconds: 10 })
    const id = await uploadVideo(fixture, clipPath)
    const running = workerFor(fixture, { leaseMs: 600 }).runOnce()
    for (let wait = 0; wait < 400; wait++) {
      if ((await processesUsing(fixture.scratch.dir)).some((line) => line.includes('-filter_complex'))) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    await fixture.pool.query('delete from public.videos where id = $1', [id])

    expect(await running).toBe(true)
    expect(fixture.logs.some((line) => line.includes(`(video ${id}, attempt 1/5): dropped`))).toBe(true)
    expect(await objectNames(fixture, 'media', `videos/${id}/`)).toEqual([])
    expect(await objectNames(fixture, 'thumbnails', `${fixture.creatorId}/${id}`)).toEqual([])
    expect(await processesUsing(fixture.scratch.dir)).toEqual([])
  })

  it("takes a dead worker's job once its lease has passed", async () => {
    const id = await uploadVideo(fixture, clip)
    // A worker that claimed the job and then died: its lease is all that is left of it.
    await new MediaQueue(fixture.pool).claim('dead-worker', 500)
    const worker = workerFor(fixture)
    expect(await worker.runOnce()).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(await worker.runOnce()).toBe(true)
    expect((await videoRow(fixture, id)).status).toBe('ready')
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'done', attempts: 2 })
  })

  it('retries when Storage has no such upload, then gives up with a message for the creator', async () => {
    const id = await uploadVideo(fixture, clip)
    const { rows } = await fixture.pool.query<{ source_path: string }>('select source_path from public.videos where id = $1', [
      id,
    ])
    await fixture.service.storage.from('uploads').remove([rows[0]!.source_path])
    await fixture.pool.query('update public.media_jobs set max_attempts = 2 where video_id = $1', [id])
    const worker = workerFor(fixture, { backoff: { baseMs: 1 } })

    expect(await worker.runOnce()).toBe(true)
    const afterFirst = await jobOf(fixture, 'video_id', id)
    expect(afterFirst).toMatchObject({ status: 'queued', attempts: 1 })
    expect(afterFirst.last_error).toMatch(/could not download uploads\//)
    expect((await videoRow(fixture, id)).status).toBe('processing')

    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await worker.runOnce()).toBe(true)
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'failed', attempts: 2 })
    expect(await videoRow(fixture, id)).toMatchObject({
      status: 'failed',
      status_message: "We couldn't process this video. Please try uploading it again.",
    })
  })
})

describe('media worker in two phases (a ladder of more than one rung)', () => {
  let fixture: Fixture
  let clip: string

  beforeAll(async () => {
    fixture = await openFixture('pglite')
    // 960×540: 234p, 360p and 540p — 360p first, the other two in phase 2.
    clip = await makeClip(path.join(fixture.scratch.dir, 'wide.mp4'), { width: 960, height: 540, seconds: 2 })
  })

  afterAll(async () => {
    await closeFixture(fixture)
  })

  async function pendingOf(id: string) {
    const { rows } = await fixture.pool.query<{ more_qualities_pending: boolean }>(
      'select more_qualities_pending from public.videos where id = $1',
      [id],
    )
    return rows[0]!.more_qualities_pending
  }

  async function masterOf(id: string): Promise<string> {
    const { data, error } = await fixture.service.storage.from('media').download(`videos/${id}/hls/master.m3u8`)
    if (error) throw error
    return data.text()
  }

  const variants = (master: string) => master.split('\n').filter((line) => line.endsWith('/index.m3u8'))

  /** Runs the job until phase 1 is published, then stops the worker there (as a crash between the phases would). */
  async function runPhaseOne(id: string) {
    const worker: MediaWorker = workerFor(fixture, {
      log: (level, message) => {
        fixture.logs.push(`${level}: ${message}`)
        if (message.includes(`(video ${id},`) && message.includes(': playable: ')) void worker.stop()
      },
    })
    expect(await worker.runOnce()).toBe(true)
  }

  it('publishes one rendition with its poster at once, then adds the rest to the master and clears the flag', async () => {
    const id = await uploadVideo(fixture, clip)
    await runPhaseOne(id)

    // Phase 1: ready and playable, one variant, its MP4 and the poster; more to come.
    expect(await videoRow(fixture, id)).toMatchObject({
      status: 'ready',
      hls_path: `videos/${id}/hls/master.m3u8`,
      mp4_path: `videos/${id}/video-360p.mp4`,
      thumbnail_path: `${fixture.creatorId}/${id}-poster.jpg`,
      width: 960,
      height: 540,
    })
    expect(await pendingOf(id)).toBe(true)
    expect(variants(await masterOf(id))).toEqual(['360p/index.m3u8'])
    expect(await objectNames(fixture, 'media', `videos/${id}/`)).toEqual([
      `videos/${id}/hls/360p/index.m3u8`,
      `videos/${id}/hls/360p/segment_000.ts`,
      `videos/${id}/hls/master.m3u8`,
      `videos/${id}/video-360p.mp4`,
    ])
    expect(await objectNames(fixture, 'thumbnails', `${fixture.creatorId}/${id}`)).toHaveLength(1)
    // The job is still open: phase 2 is its work.
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'queued', attempts: 0 })
    const { rows: phaseOne } = await fixture.pool.query<{ name: string; updated_at: Date }>(
      `select name, updated_at from storage.objects where bucket_id = 'media' and name like $1`,
      [`videos/${id}/hls/360p/%`],
    )

    // Phase 2, by another worker: every rung listed, the top rung's MP4, the flag cleared.
    expect(await workerFor(fixture).runOnce()).toBe(true)
    expect(await videoRow(fixture, id)).toMatchObject({ status: 'ready', mp4_path: `videos/${id}/video.mp4` })
    expect(await pendingOf(id)).toBe(false)
    expect(variants(await masterOf(id))).toEqual(['234p/index.m3u8', '360p/index.m3u8', '540p/index.m3u8'])
    expect(await objectNames(fixture, 'media', `videos/${id}/`)).toEqual([
      `videos/${id}/hls/234p/index.m3u8`,
      `videos/${id}/hls/234p/segment_000.ts`,
      `videos/${id}/hls/360p/index.m3u8`,
      `videos/${id}/hls/360p/segment_000.ts`,
      `videos/${id}/hls/540p/index.m3u8`,
      `videos/${id}/hls/540p/segment_000.ts`,
      `videos/${id}/hls/master.m3u8`,
      `videos/${id}/video.mp4`,
    ])
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'done', attempts: 1, last_error: null })
    // Phase 1's rendition was not made or uploaded again, nor the video published twice.
    const { rows: after } = await fixture.pool.query<{ name: string; updated_at: Date }>(
      `select name, updated_at from storage.objects where bucket_id = 'media' and name like $1`,
      [`videos/${id}/hls/360p/%`],
    )
    expect(after).toEqual(phaseOne)
    const lines = fixture.logs.filter((line) => line.includes(`(video ${id},`))
    expect(lines.filter((line) => line.includes(': playable: '))).toHaveLength(1)
    expect(lines.filter((line) => /: ready: 416x234, 960x540 added/.test(line))).toHaveLength(1)

    // A worker that dies after phase 2 is complete leaves nothing to redo: running the job again changes nothing.
    const job = await jobOf(fixture, 'video_id', id)
    await fixture.pool.query(`update public.media_jobs set status = 'queued', run_after = now() where id = $1`, [job.id])
    const objects = await objectNames(fixture, 'media', `videos/${id}/`)
    expect(await workerFor(fixture).runOnce()).toBe(true)
    expect(await objectNames(fixture, 'media', `videos/${id}/`)).toEqual(objects)
    expect(await pendingOf(id)).toBe(false)
  })

  it('starts phase 2 with phase 1, its ffmpeg at a lower CPU priority, and publishes phase 1 first', async () => {
    // An ffmpeg that notes when it started, its nice value (set by the worker just after the
    // spawn, hence the short wait) and which phase's encode it is (phase 1 makes one rung, phase 2 two here).
    const calls = path.join(fixture.scratch.dir, 'ffmpeg-calls.txt')
    const wrapper = path.join(fixture.scratch.dir, 'ffmpeg-noting')
    const real = resolveMediaTools().ffmpeg.path
    await writeFile(
      wrapper,
      `#!/bin/sh\nstarted=$(date +%s%3N)\nsleep 0.3\nrung=other\ncase "$*" in *split=2*) rung=phase2;; *split=1*) rung=phase1;; esac\necho "$started $(cut -d' ' -f19 /proc/$$/stat) $rung" >> '${calls}'\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    )
    const id = await uploadVideo(fixture, clip)
    let publishedAt = 0
    const worker = workerFor(fixture, {
      tools: { ...resolveMediaTools(), ffmpeg: { path: wrapper, source: 'env' } },
      log: (level, message) => {
        fixture.logs.push(`${level}: ${message}`)
        if (message.includes(`(video ${id},`) && message.includes(': playable: ')) publishedAt = Date.now()
      },
    })
    expect(await worker.runOnce()).toBe(true)
    expect(await pendingOf(id)).toBe(false)
    expect(variants(await masterOf(id))).toEqual(['234p/index.m3u8', '360p/index.m3u8', '540p/index.m3u8'])

    const noted = (await readFile(calls, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
    const phase2 = noted.filter(([, , phase]) => phase === 'phase2')
    expect(phase2).toHaveLength(1)
    const [started, niceness] = phase2[0]!
    expect(Number(niceness)).toBe(10)
    expect(publishedAt).toBeGreaterThan(0)
    expect(Number(started)).toBeLessThan(publishedAt)
    // Phase 1's encode ran at the normal priority.
    expect(noted.filter(([, , phase]) => phase === 'phase1').map(([, nice]) => nice)).toEqual(['0'])
  })

  it('resumes phase 2 after a worker died in it (lease passed); the video plays meanwhile', async () => {
    const id = await uploadVideo(fixture, clip)
    await runPhaseOne(id)
    // A worker that took phase 2 and died: only its lease is left.
    await new MediaQueue(fixture.pool).claim('dead-worker', 500)
    const worker = workerFor(fixture)
    expect(await worker.runOnce()).toBe(false)
    expect(await videoRow(fixture, id)).toMatchObject({ status: 'ready', mp4_path: `videos/${id}/video-360p.mp4` })
    expect(await pendingOf(id)).toBe(true)

    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(await worker.runOnce()).toBe(true)
    expect(await pendingOf(id)).toBe(false)
    expect(variants(await masterOf(id))).toEqual(['234p/index.m3u8', '360p/index.m3u8', '540p/index.m3u8'])
    expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'done', attempts: 2 })
    expect(fixture.logs.filter((line) => line.includes(`(video ${id},`) && line.includes(': playable: '))).toHaveLength(1)
  })

  it('a phase 2 that keeps failing ends the job failed with the reason; the video keeps playing what it has', async () => {
    const id = await uploadVideo(fixture, clip)
    await runPhaseOne(id)
    const { rows } = await fixture.pool.query<{ source_path: string }>('select source_path from public.videos where id = $1', [
      id,
    ])
    await fixture.service.storage.from('uploads').remove([rows[0]!.source_path])
    await fixture.pool.query('update public.media_jobs set max_attempts = 1 where video_id = $1', [id])

    expect(await workerFor(fixture).runOnce()).toBe(true)
    const job = await jobOf(fixture, 'video_id', id)
    expect(job).toMatchObject({ status: 'failed', attempts: 1 })
    expect(job.last_error).toMatch(/could not download uploads\//)
    expect(await videoRow(fixture, id)).toMatchObject({
      status: 'ready',
      status_message: null,
      mp4_path: `videos/${id}/video-360p.mp4`,
    })
    expect(await pendingOf(id)).toBe(false)
    expect(variants(await masterOf(id))).toEqual(['360p/index.m3u8'])
  })

  it('gives a video response two phases too', async () => {
    const videoId = await uploadVideo(fixture, clip)
    await workerFor(fixture).runOnce()
    const learnerId = await insertAuthUser(fixture.pool)
    const sourcePath = `${learnerId}/quotes/${randomUUID()}.mp4`
    await fixture.service.storage.from('uploads').upload(sourcePath, await readFile(clip), { contentType: 'video/mp4' })
    const quoteId = await withRole(fixture.pool, 'authenticated', claimsFor(learnerId), async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into public.quotes (video_id, type, body, response_source_path) values ($1, 'video', 'Wide take', $2) returning id`,
        [videoId, sourcePath],
      )
      return rows[0]!.id
    })
    const quote = async () =>
      (
        await fixture.pool.query(
          `select response_status, response_mp4_path, response_poster_path, response_more_qualities_pending
             from public.quotes where id = $1`,
          [quoteId],
        )
      ).rows[0] as Record<string, unknown>
    const worker: MediaWorker = workerFor(fixture, {
      log: (level, message) => {
        if (message.includes(`(quote ${quoteId},`) && message.includes(': playable: ')) void worker.stop()
      },
    })
    await worker.runOnce()
    expect(await quote()).toEqual({
      response_status: 'ready',
      response_mp4_path: `quotes/${quoteId}/video-360p.mp4`,
      response_poster_path: `quotes/${quoteId}/poster.jpg`,
      response_more_qualities_pending: true,
    })
    await workerFor(fixture).runOnce()
    expect(await quote()).toEqual({
      response_status: 'ready',
      response_mp4_path: `quotes/${quoteId}/video.mp4`,
      response_poster_path: `quotes/${quoteId}/poster.jpg`,
      response_more_qualities_pending: false,
    })
    expect(await objectNames(fixture, 'media', `quotes/${quoteId}/`)).not.toContain(`quotes/${quoteId}/video-360p.mp4`)
  })
})

describe('media workers on a PostgreSQL server (LISTEN, several at once)', () => {
  let fixture: Fixture

  beforeAll(async () => {
    fixture = await openFixture('postgres')
  })

  afterAll(async () => {
    await closeFixture(fixture)
  })

  it('two running workers are woken by the upload itself and transcode each video exactly once', async () => {
    // Polling every minute: only LISTEN media_jobs can make them this quick.
    const workers = [0, 1].map((n) => workerFor(fixture, { autoStart: true, pollMs: 60_000, workerId: `server-worker-${n}` }))
    await new Promise((resolve) => setTimeout(resolve, 200)) // both are listening

    const clips = await Promise.all(
      [0, 1, 2].map((n) => makeClip(path.join(fixture.scratch.dir, `small-${n}.mp4`), { width: 160, height: 90, seconds: 1 })),
    )
    const ids = await Promise.all(clips.map((file) => uploadVideo(fixture, file)))

    const readyLogs = () => fixture.logs.filter((line) => /^info: job \d+ .*: ready: /.test(line))
    for (let wait = 0; wait < 300 && readyLogs().length < ids.length; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(readyLogs()).toHaveLength(3)
    for (const id of ids) {
      expect((await videoRow(fixture, id)).status).toBe('ready')
      expect(await jobOf(fixture, 'video_id', id)).toMatchObject({ status: 'done', attempts: 1 })
    }
    await Promise.all(workers.map((worker) => worker.stop()))
  })
})

describe('job folders of killed workers', () => {
  it('are swept when a worker starts; a live process keeps its own', async () => {
    const scratch = await scratchDir('sweep')
    try {
      const exited = spawn('true')
      await new Promise((resolve) => exited.on('exit', resolve))
      const dead = `lumen-media-${exited.pid}-job7-abc123`
      const live = `lumen-media-${process.pid}-job8-def456`
      await mkdir(path.join(scratch.dir, dead, 'out.partial'), { recursive: true })
      await mkdir(path.join(scratch.dir, live))
      await mkdir(path.join(scratch.dir, 'lumen-other-folder'))
      expect(await sweepAbandonedWorkDirs(scratch.dir)).toEqual([dead])
      expect((await readdir(scratch.dir)).sort()).toEqual([live, 'lumen-other-folder'].sort())
    } finally {
      await scratch.remove()
    }
  })
})
