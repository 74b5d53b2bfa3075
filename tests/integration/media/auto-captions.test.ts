import { randomUUID } from 'node:crypto'
import { access, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import { withRole } from '../../../db/as-role'
import { resolveSpeechEngine, type SpeechEngine } from '../../../media/speech'
import { runMediaTool } from '../../../media/tools'
import { startMediaWorker, type MediaWorker, type MediaWorkerOptions } from '../../../worker/media-worker'
import { claimsFor, insertAuthUser } from '../../support/databases'
import { startStack, type RunningStack } from '../../support/stack'
import { ffmpeg, makeClip, scratchDir } from './clips'

/**
 * Automatic captions (ADRs 0022 and 0037) end to end with the real recogniser: a video with
 * speech is published first, then a caption job writes what was said as an English track
 * marked automatic; a video without speech gets none; a creator's own track is never
 * replaced; a caption job that fails leaves the video playing.
 *
 * The speech is made on the spot by Debian's `flite` (its 16 kHz voice), so the repository
 * holds no binary fixture; `scripts/ensure-test-deps.sh` installs it with `pocketsphinx`.
 */

const SAID = 'Plants turn water and carbon dioxide into sugar and oxygen. Thank you for watching.'

interface Fixture {
  running: RunningStack
  pool: pg.Pool
  service: SupabaseClient
  creatorId: string
  scratch: Awaited<ReturnType<typeof scratchDir>>
  workers: MediaWorker[]
  logs: string[]
}

const engine = resolveSpeechEngine({ ...process.env, AUTO_CAPTIONS: 'on' })

function requireEngine(): SpeechEngine {
  if (!engine) {
    throw new Error(
      'automatic captions need pocketsphinx_continuous and its en-us model: run scripts/ensure-test-deps.sh ' +
        '(or apt-get install pocketsphinx pocketsphinx-en-us flite)',
    )
  }
  return engine
}

/** A 320×180 test card with `text` spoken over it (flite's 16 kHz voice), as H.264 + AAC. */
async function makeSpeechClip(dir: string, text: string): Promise<string> {
  const wav = path.join(dir, `speech-${randomUUID()}.wav`)
  await runMediaTool('flite', ['-voice', 'kal16', '-t', text, '-o', wav], { timeoutMs: 60_000 }).catch((error: unknown) => {
    throw new Error(`flite could not speak the test sentence (apt-get install flite): ${String(error)}`)
  })
  const clip = path.join(dir, `speech-${randomUUID()}.mp4`)
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x180:rate=15',
    '-i',
    wav,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-shortest',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-ar',
    '44100',
    clip,
  ])
  return clip
}

async function uploadVideo(fixture: Fixture, file: string): Promise<string> {
  const sourcePath = `${fixture.creatorId}/videos/${randomUUID()}.mp4`
  const { error } = await fixture.service.storage
    .from('uploads')
    .upload(sourcePath, await readFile(file), { contentType: 'video/mp4' })
  if (error) throw error
  return withRole(fixture.pool, 'authenticated', claimsFor(fixture.creatorId), async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into public.videos (title, description, type, source_path) values ('Photosynthesis', 'A lesson', 'video', $1) returning id`,
      [sourcePath],
    )
    return rows[0]!.id
  })
}

function workerFor(fixture: Fixture, options: Partial<MediaWorkerOptions> = {}): MediaWorker {
  const worker = startMediaWorker({
    pool: fixture.pool,
    supabaseUrl: fixture.running.url,
    serviceRoleKey: fixture.running.serviceRoleKey,
    autoStart: false,
    tempDir: fixture.scratch.dir,
    log: (level, message) => fixture.logs.push(`${level}: ${message}`),
    speech: requireEngine(),
    ...options,
  })
  fixture.workers.push(worker)
  return worker
}

async function jobs(fixture: Fixture, videoId: string) {
  const { rows } = await fixture.pool.query<{ kind: string; status: string; attempts: number; last_error: string | null }>(
    'select kind, status, attempts, last_error from public.media_jobs where video_id = $1 order by id',
    [videoId],
  )
  return rows
}

async function tracks(fixture: Fixture, videoId: string) {
  const { rows } = await fixture.pool.query<{ id: string; language: string; label: string; source: string; cue_count: number }>(
    'select id, language, label, source, cue_count from public.caption_tracks where video_id = $1',
    [videoId],
  )
  return rows
}

async function cues(fixture: Fixture, trackId: string) {
  const { rows } = await fixture.pool.query<{ start_ms: number; end_ms: number; body: string }>(
    'select start_ms, end_ms, body from public.caption_cues where track_id = $1 order by seq',
    [trackId],
  )
  return rows
}

async function videoStatus(fixture: Fixture, videoId: string): Promise<string> {
  const { rows } = await fixture.pool.query<{ status: string }>('select status from public.videos where id = $1', [videoId])
  return rows[0]!.status
}

describe('automatic captions (PostgreSQL, the real recogniser)', () => {
  let fixture: Fixture
  let speechClip: string

  beforeAll(async () => {
    requireEngine()
    const running = await startStack({ database: 'postgres' })
    const pool = running.database.pool
    const creatorId = await insertAuthUser(pool, { role: 'creator' })
    await pool.query('update public.profiles set is_verified = true where id = $1', [creatorId])
    const service = createClient(running.url, running.serviceRoleKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false },
    })
    fixture = { running, pool, service, creatorId, scratch: await scratchDir('auto-captions'), workers: [], logs: [] }
    speechClip = await makeSpeechClip(fixture.scratch.dir, SAID)
  }, 120_000)

  afterAll(async () => {
    if (!fixture) return
    await Promise.all(fixture.workers.map((worker) => worker.stop()))
    await fixture.running.close()
    await fixture.scratch.remove()
  })

  afterEach(async () => {
    // The caption job cleans up its folder too.
    expect((await readdir(fixture.scratch.dir)).filter((name) => name.startsWith('lumen-media-'))).toEqual([])
  })

  it('publishes the video first, then writes what is said as an English track marked automatic', async () => {
    const id = await uploadVideo(fixture, speechClip)
    const worker = workerFor(fixture)

    expect(await worker.runOnce()).toBe(true)
    // Playing already; the captions are a job of their own, queued as it was published.
    expect(await videoStatus(fixture, id)).toBe('ready')
    expect(await tracks(fixture, id)).toEqual([])
    expect(await jobs(fixture, id)).toMatchObject([
      { kind: 'transcode_video', status: 'done' },
      { kind: 'caption_video', status: 'queued', attempts: 0 },
    ])

    expect(await worker.runOnce()).toBe(true)
    expect(await worker.runOnce()).toBe(false)
    expect((await jobs(fixture, id))[1]).toMatchObject({ kind: 'caption_video', status: 'done', attempts: 1, last_error: null })
    const [track] = await tracks(fixture, id)
    expect(track).toMatchObject({ language: 'en', label: 'English (automatic)', source: 'automatic' })

    const written = await cues(fixture, track!.id)
    expect(written.length).toBe(track!.cue_count)
    const transcript = written
      .map((cue) => cue.body)
      .join(' ')
      .toLowerCase()
    expect(transcript).toContain('carbon dioxide')
    expect(transcript).toContain('oxygen')
    expect(transcript).toContain('thank you for watching')
    // In time order, inside the clip (about 5 s), never overlapping.
    for (const [index, cue] of written.entries()) {
      expect(cue.end_ms).toBeGreaterThan(cue.start_ms)
      expect(cue.end_ms).toBeLessThan(8_000)
      if (index > 0) expect(cue.start_ms).toBeGreaterThanOrEqual(written[index - 1]!.end_ms)
    }
    expect(fixture.logs.some((line) => line.includes(`(captions of video ${id},`) && /captions: \d+ cues/.test(line))).toBe(true)
  }, 180_000)

  it('makes no track for a video without speech (a tone)', async () => {
    const tone = await makeClip(path.join(fixture.scratch.dir, 'tone.mp4'), { seconds: 3 })
    const id = await uploadVideo(fixture, tone)
    const worker = workerFor(fixture)
    expect(await worker.runOnce()).toBe(true)
    expect(await worker.runOnce()).toBe(true)
    expect(await tracks(fixture, id)).toEqual([])
    expect((await jobs(fixture, id))[1]).toMatchObject({
      kind: 'caption_video',
      status: 'done',
      last_error: expect.stringMatching(/^no speech found/),
    })
  }, 120_000)

  it('makes no track for a 660 Hz tone (the recogniser hears "ah" in it) or for silence', async () => {
    const sounds = {
      tone: await makeClip(path.join(fixture.scratch.dir, 'tone660.mp4'), {
        seconds: 6,
        audio: 'sine=frequency=660:sample_rate=44100',
      }),
      silence: await makeClip(path.join(fixture.scratch.dir, 'silence.mp4'), {
        seconds: 4,
        audio: 'anullsrc=r=44100:cl=mono',
      }),
    }
    for (const [name, clip] of Object.entries(sounds)) {
      const id = await uploadVideo(fixture, clip)
      const worker = workerFor(fixture)
      expect(await worker.runOnce()).toBe(true)
      expect(await worker.runOnce()).toBe(true)
      expect({ name, tracks: await tracks(fixture, id) }).toEqual({ name, tracks: [] })
      expect((await jobs(fixture, id))[1]).toMatchObject({
        kind: 'caption_video',
        status: 'done',
        last_error: expect.stringMatching(/^no speech found/),
      })
    }
  }, 180_000)

  it('never replaces the creator’s own English track, and queues nothing for a video without audio', async () => {
    const id = await uploadVideo(fixture, speechClip)
    const worker = workerFor(fixture)
    expect(await worker.runOnce()).toBe(true)
    // The creator adds their own English captions before the caption job runs.
    await withRole(fixture.pool, 'authenticated', claimsFor(fixture.creatorId), (client) =>
      client.query(`insert into public.caption_tracks (video_id, language, label, cue_count) values ($1, 'en', 'English', 0)`, [
        id,
      ]),
    )
    expect(await worker.runOnce()).toBe(true)
    expect(await tracks(fixture, id)).toMatchObject([{ language: 'en', label: 'English', source: 'upload' }])
    expect((await jobs(fixture, id))[1]).toMatchObject({ status: 'done', last_error: 'it already has en captions' })

    const silent = await makeClip(path.join(fixture.scratch.dir, 'silent.mp4'), { seconds: 2, audio: false })
    const silentId = await uploadVideo(fixture, silent)
    expect(await worker.runOnce()).toBe(true)
    expect(await jobs(fixture, silentId)).toMatchObject([{ kind: 'transcode_video', status: 'done' }])
  }, 180_000)

  it('queues no caption job on a worker without a recogniser', async () => {
    const id = await uploadVideo(fixture, speechClip)
    expect(await workerFor(fixture, { speech: null }).runOnce()).toBe(true)
    expect(await videoStatus(fixture, id)).toBe('ready')
    expect(await jobs(fixture, id)).toMatchObject([{ kind: 'transcode_video', status: 'done' }])
  }, 120_000)

  it('drops the job, and keeps the process alive, when the video is deleted while its speech is recognised', async () => {
    // A stand-in recogniser that says it started, then waits until the test lets it finish (printing no words).
    const started = path.join(fixture.scratch.dir, `started-${randomUUID()}`)
    const go = path.join(fixture.scratch.dir, `go-${randomUUID()}`)
    const script = path.join(fixture.scratch.dir, `recogniser-${randomUUID()}.sh`)
    await writeFile(script, `#!/bin/sh\ntouch '${started}'\nwhile [ ! -f '${go}' ]; do sleep 0.1; done\n`, { mode: 0o755 })
    const id = await uploadVideo(fixture, speechClip)
    const worker = workerFor(fixture, { speech: { ...requireEngine(), binary: script } })
    expect(await worker.runOnce()).toBe(true)

    const running = worker.runOnce()
    await expect
      .poll(
        () =>
          access(started).then(
            () => true,
            () => false,
          ),
        { timeout: 60_000 },
      )
      .toBe(true)
    await fixture.pool.query('delete from public.videos where id = $1', [id])
    await writeFile(go, '')
    expect(await running).toBe(true)
    expect(await jobs(fixture, id)).toEqual([])
    expect(fixture.logs.some((line) => line.includes(`(captions of video ${id},`) && line.includes('dropped'))).toBe(true)
  }, 120_000)

  it('a caption job that keeps failing ends failed and leaves the video ready', async () => {
    const id = await uploadVideo(fixture, speechClip)
    const worker = workerFor(fixture, { speech: { ...requireEngine(), binary: '/bin/false' } })
    expect(await worker.runOnce()).toBe(true)
    await fixture.pool.query(`update public.media_jobs set max_attempts = 1 where video_id = $1 and kind = 'caption_video'`, [id])
    expect(await worker.runOnce()).toBe(true)
    expect((await jobs(fixture, id))[1]).toMatchObject({
      kind: 'caption_video',
      status: 'failed',
      attempts: 1,
      last_error: expect.stringContaining('false exited with code 1'),
    })
    expect(await videoStatus(fixture, id)).toBe('ready')
    expect(await tracks(fixture, id)).toEqual([])
  }, 120_000)
})
