import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withRole } from '../../db/as-role'
import { GAVE_UP_MESSAGE } from '../../worker/queue'
import { claimsFor } from '../support/databases'
import { makeClip, scratchDir } from '../integration/media/clips'
import { haveBuild, killPid, waitForDescendant, type LumenProcess } from './support/processes'
import { openServerMode, publishedFiles, type ServerMode } from './support/server-mode'

/**
 * ADR 0017: `npm run worker` SIGKILLed in the middle of a transcode, and
 * separately its ffmpeg: the job is taken again (after the dead worker's
 * lease, made 3 s here through WORKER_LEASE_MS) and finishes; until then the
 * video is not ready and nothing of it is published; once ready, its master
 * playlist and every variant and segment it names exist — after phase 1
 * (one rendition, ADR 0025) as after phase 2 (the ladder). A job that keeps
 * failing ends `failed`, with the reason its owner sees.
 */
/** The ffmpeg of this video's transcode (a worker may run another for a finished video's captions). */
async function transcodeFfmpeg(mode: ServerMode, workerPid: number, videoId: string, timeoutMs?: number) {
  const job = await mode.jobOf(videoId)
  return waitForDescendant(workerPid, 'ffmpeg', { timeoutMs, argsInclude: `-job${job.id}-` })
}

const FAST = { WORKER_LEASE_MS: '3000', WORKER_POLL_MS: '500', WORKER_RETRY_BASE_MS: '500', WORKER_STOP_GRACE_MS: '0' }

describe.skipIf(!haveBuild())('SIGKILL of the media worker and of ffmpeg mid-transcode', () => {
  let mode: ServerMode
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let clip: string
  let creator: string
  let worker: LumenProcess

  beforeAll(async () => {
    scratch = await scratchDir('worker-crash')
    ;[mode, clip] = await Promise.all([
      openServerMode('worker-crash'),
      makeClip(path.join(scratch.dir, 'lesson.mp4'), { width: 640, height: 360, seconds: 8 }),
    ])
    creator = await mode.makeCreator()
  })
  afterAll(async () => {
    await mode?.close()
    await scratch?.remove()
  })

  it('takes a killed worker’s job again after its lease and publishes it whole', async () => {
    const first = mode.startWorker(FAST)
    const videoId = await mode.uploadVideo(creator, clip)
    const ffmpeg = await transcodeFfmpeg(mode, first.child.pid!, videoId)
    first.child.kill('SIGKILL')
    // A machine that dies takes its ffmpeg with it (a killed worker's orphan would finish into a folder nobody reads).
    killPid(ffmpeg)
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' })

    // Dead mid-job: the video is not ready and nothing of it is published.
    expect(await mode.waitForVideo(videoId, () => true)).toMatchObject({ status: 'processing', hls_path: null })
    expect(await mode.jobOf(videoId)).toMatchObject({ status: 'running', attempts: 1 })
    expect((await publishedFiles(mode, videoId)).missing).toEqual([`videos/${videoId}/hls/master.m3u8`])

    worker = mode.startWorker(FAST)
    const playable = await mode.waitForVideo(videoId, (row) => row.status !== 'processing')
    expect(playable).toMatchObject({ status: 'ready', hls_path: `videos/${videoId}/hls/master.m3u8` })
    // Whatever the master lists at any moment exists, phase 1 or 2.
    expect((await publishedFiles(mode, videoId)).missing).toEqual([])
    const ready = await mode.waitForVideo(videoId, (row) => !row.more_qualities_pending)
    expect(ready).toMatchObject({ status: 'ready', mp4_path: `videos/${videoId}/video.mp4` })
    expect(await mode.jobOf(videoId)).toMatchObject({ status: 'done', attempts: 2 })
    const published = await publishedFiles(mode, videoId)
    expect(published.missing).toEqual([])
    expect(published.variants).toEqual(['234p/index.m3u8', '360p/index.m3u8'])
  })

  it('retries an attempt whose ffmpeg was killed, and finishes', async () => {
    const videoId = await mode.uploadVideo(creator, clip)
    killPid(await transcodeFfmpeg(mode, worker.child.pid!, videoId))
    const ready = await mode.waitForVideo(videoId, (row) => row.status !== 'processing' && !row.more_qualities_pending)
    expect(ready.status).toBe('ready')
    const job = await mode.jobOf(videoId)
    expect(job).toMatchObject({ status: 'done', attempts: 2 })
    expect((await publishedFiles(mode, videoId)).missing).toEqual([])
    expect(
      worker
        .logs()
        .some((line) => line.level === 'warn' && /failed: .*SIGKILL/.test(line.msg) && line.msg.includes('attempt 1/')),
    ).toBe(true)
  })

  it('ends a job that keeps failing as failed, with the reason shown to its owner', async () => {
    // Two attempts for this one (the default is five), each of which loses its ffmpeg.
    await worker.kill('SIGTERM')
    const videoId = await mode.uploadVideo(creator, clip)
    await mode.pool.query('update public.media_jobs set max_attempts = 2 where video_id = $1', [videoId])
    worker = mode.startWorker(FAST)
    while ((await mode.jobOf(videoId)).status !== 'failed') {
      const ffmpeg = await transcodeFfmpeg(mode, worker.child.pid!, videoId, 1_000).catch(() => null)
      if (ffmpeg) killPid(ffmpeg)
    }
    const failed = await mode.waitForVideo(videoId, (row) => row.status !== 'processing')
    expect(failed).toMatchObject({ status: 'failed', hls_path: null })
    const job = await mode.jobOf(videoId)
    expect(job.attempts).toBe(2)
    expect(job.last_error).toMatch(/SIGKILL/)
    // What the owner's dashboard shows (the column itself is not readable by API roles).
    const shown = await withRole(mode.pool, 'authenticated', claimsFor(creator), async (client) => {
      const { rows } = await client.query<{ message: string | null }>('select public.video_status_message($1) as message', [
        videoId,
      ])
      return rows[0]!.message
    })
    expect(shown).toBe(GAVE_UP_MESSAGE)
    expect((await publishedFiles(mode, videoId)).variants).toEqual([])

    // Nothing lost, nothing orphaned.
    expect(await mode.reconcileFindings()).toEqual([])
  })
})
