import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../../db/connect'
import { migrate } from '../../../db/migrate'
import { backoffDelayMs, GAVE_UP_MESSAGE, JobGoneError, LeaseLostError, MediaQueue, type MediaJob } from '../../../worker/queue'
import { insertAuthUser } from '../../support/databases'
import { createScratchDatabase, type ScratchDatabase } from '../../support/postgres'

/**
 * The media queue on a real PostgreSQL server, where workers really run at
 * the same time: SKIP LOCKED hands each job to one worker, a dead worker's
 * lease runs out and its job is taken again, failures wait out a growing
 * backoff and end as `failed` — with the video saying so.
 */
describe('media queue on PostgreSQL', () => {
  let scratch: ScratchDatabase
  let first: DatabaseHandle
  let second: DatabaseHandle
  let creatorId: string

  beforeAll(async () => {
    scratch = await createScratchDatabase('media_queue')
    // Two pools: two worker processes, each with connections of its own.
    first = await openDatabase({ databaseUrl: scratch.url, maxConnections: 6 })
    second = await openDatabase({ databaseUrl: scratch.url, maxConnections: 6 })
    await migrate(first.pool)
    creatorId = await insertAuthUser(first.pool, { role: 'creator' })
    await first.pool.query('update public.profiles set is_verified = true where id = $1', [creatorId])
  })

  afterAll(async () => {
    await first?.close()
    await second?.close()
    await scratch?.drop()
  })

  beforeEach(async () => {
    await first.pool.query('delete from public.videos')
  })

  /** Inserts uploaded videos; the trigger queues one job each. Returns the job ids. */
  async function uploadVideos(count: number): Promise<number[]> {
    const { rows: videos } = await first.pool.query<{ id: string }>(
      `insert into public.videos (creator_id, title, source_path)
       select $1::uuid, 'Lesson ' || n, $1::text || '/videos/lesson-' || n || '.mp4' from generate_series(1, $2::int) n
       returning id`,
      [creatorId, count],
    )
    const { rows } = await first.pool.query<{ id: number }>(
      'select id from public.media_jobs where video_id = any($1::uuid[]) order by id',
      [videos.map((video) => video.id)],
    )
    return rows.map((row) => Number(row.id))
  }

  async function jobRow(id: number) {
    const { rows } = await first.pool.query(
      `select status, attempts, locked_by, last_error,
              extract(epoch from run_after - now()) as run_after_in,
              extract(epoch from locked_until - now()) as lease_left
         from public.media_jobs where id = $1`,
      [id],
    )
    return rows[0] as { status: string; attempts: number; locked_by: string | null; last_error: string | null; run_after_in: number; lease_left: number | null }
  }

  async function videoOf(jobId: number) {
    const { rows } = await first.pool.query(
      'select v.status, v.status_message from public.videos v join public.media_jobs j on j.video_id = v.id where j.id = $1',
      [jobId],
    )
    return rows[0] as { status: string; status_message: string | null }
  }

  it('queues a job for each uploaded video', async () => {
    const [id] = await uploadVideos(1)
    expect(await jobRow(id!)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null })
  })

  it('two workers taking jobs at the same time never take the same one', async () => {
    const jobs = await uploadVideos(40)
    const workers = [new MediaQueue(first.pool), new MediaQueue(second.pool)]
    const taken = new Map<string, number[]>()
    // Three claim loops per worker, all racing.
    await Promise.all(
      workers.flatMap((queue, w) =>
        [0, 1, 2].map(async (lane) => {
          const workerId = `worker-${w}-${lane}`
          const mine: number[] = []
          for (let job = await queue.claim(workerId); job; job = await queue.claim(workerId)) mine.push(job.id)
          taken.set(workerId, mine)
        }),
      ),
    )
    const all = [...taken.values()].flat()
    expect(all).toHaveLength(40)
    expect(new Set(all)).toEqual(new Set(jobs))
    expect([...taken.entries()].filter(([id, ids]) => id.startsWith('worker-0') && ids.length).length).toBeGreaterThan(0)
    expect([...taken.entries()].filter(([id, ids]) => id.startsWith('worker-1') && ids.length).length).toBeGreaterThan(0)
    const { rows } = await first.pool.query(`select count(*)::int as running from public.media_jobs where status = 'running'`)
    expect(rows[0].running).toBe(40)
  })

  it("takes a dead worker's job again once its lease has passed, and the dead worker can no longer finish it", async () => {
    const [id] = await uploadVideos(1)
    const queue = new MediaQueue(first.pool)
    const crashed = await queue.claim('crashed-worker', 300)
    expect(crashed?.id).toBe(id)
    expect(await queue.claim('other-worker')).toBeNull() // still leased

    await new Promise((resolve) => setTimeout(resolve, 400))
    const retaken = await new MediaQueue(second.pool).claim('other-worker')
    expect(retaken).toMatchObject({ id, attempts: 2, lockedBy: 'other-worker' })

    expect(await queue.heartbeat(crashed!)).toBe('taken')
    await expect(queue.complete(crashed!)).rejects.toBeInstanceOf(LeaseLostError)
    expect(await queue.fail(crashed!, 'late')).toEqual({ gaveUp: false, runAfter: null })
    expect(await jobRow(id!)).toMatchObject({ status: 'running', locked_by: 'other-worker', last_error: null })
  })

  it('a heartbeat extends the lease', async () => {
    await uploadVideos(1)
    const queue = new MediaQueue(first.pool)
    const job = (await queue.claim('w', 1_000))!
    expect((await jobRow(job.id)).lease_left).toBeLessThan(1.1)
    expect(await queue.heartbeat(job, 60_000)).toBe('held')
    expect((await jobRow(job.id)).lease_left).toBeGreaterThan(55)
  })

  it('a failed attempt waits out an exponential backoff before it runs again', async () => {
    const [id] = await uploadVideos(1)
    const queue = new MediaQueue(first.pool)

    const attempt1 = (await queue.claim('w'))!
    expect(await queue.fail(attempt1, 'ffmpeg exited with code 1: boom')).toMatchObject({ gaveUp: false })
    const afterFirst = await jobRow(id!)
    expect(afterFirst).toMatchObject({ status: 'queued', attempts: 1, locked_by: null, last_error: 'ffmpeg exited with code 1: boom' })
    expect(afterFirst.run_after_in).toBeGreaterThan(9)
    expect(afterFirst.run_after_in).toBeLessThanOrEqual(10)
    expect(await queue.claim('w')).toBeNull() // not due yet

    await first.pool.query('update public.media_jobs set run_after = now() where id = $1', [id])
    const attempt2 = (await queue.claim('w'))!
    expect(attempt2.attempts).toBe(2)
    await queue.fail(attempt2, 'again')
    const afterSecond = await jobRow(id!)
    expect(afterSecond.run_after_in).toBeGreaterThan(19)
    expect(afterSecond.run_after_in).toBeLessThanOrEqual(20)
    expect((await videoOf(id!)).status).toBe('processing')
  })

  it('doubles the wait up to a cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempts) => backoffDelayMs(attempts) / 1000)).toEqual([
      10, 20, 40, 80, 160, 320, 600, 600, 600,
    ])
    expect(backoffDelayMs(3, { baseMs: 100, maxMs: 250 })).toBe(250)
  })

  it('gives up after max_attempts, and the video shows it failed', async () => {
    const [id] = await uploadVideos(1)
    await first.pool.query('update public.media_jobs set max_attempts = 2 where id = $1', [id])
    const queue = new MediaQueue(first.pool)
    await queue.fail((await queue.claim('w'))!, 'first')
    await first.pool.query('update public.media_jobs set run_after = now() where id = $1', [id])
    expect(await queue.fail((await queue.claim('w'))!, 'second')).toEqual({ gaveUp: true, runAfter: null })
    expect(await jobRow(id!)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'second' })
    expect(await videoOf(id!)).toEqual({ status: 'failed', status_message: GAVE_UP_MESSAGE })
    expect(await queue.claim('w')).toBeNull()
  })

  it("fails a job whose worker died during its last attempt instead of running it again", async () => {
    const [id] = await uploadVideos(1)
    await first.pool.query('update public.media_jobs set max_attempts = 1 where id = $1', [id])
    const queue = new MediaQueue(first.pool)
    await queue.claim('dies', 100)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await queue.claim('w')).toBeNull()
    expect(await jobRow(id!)).toMatchObject({ status: 'failed', locked_by: null })
    expect((await jobRow(id!)).last_error).toMatch(/lease expired/)
    expect(await videoOf(id!)).toEqual({ status: 'failed', status_message: GAVE_UP_MESSAGE })
  })

  it('a stopping worker hands its job back at once, the attempt not counted', async () => {
    const [id] = await uploadVideos(1)
    const queue = new MediaQueue(first.pool)
    const job = (await queue.claim('stopping'))!
    expect(await queue.release(job)).toBe(true)
    expect(await jobRow(id!)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null })
    expect((await queue.claim('next'))?.id).toBe(id)
  })

  it('completes the job and publishes the video in one transaction', async () => {
    const [id] = await uploadVideos(1)
    const queue = new MediaQueue(first.pool)
    const job: MediaJob = (await queue.claim('w'))!
    await expect(
      queue.complete(job, async (tx) => {
        await tx.updateTable('videos').set({ status: 'ready' }).where('id', '=', job.videoId!).execute()
        throw new Error('upload of the master playlist failed')
      }),
    ).rejects.toThrow('master playlist')
    expect((await jobRow(id!)).status).toBe('running')
    expect((await videoOf(id!)).status).toBe('processing')

    await queue.complete(job, async (tx) => {
      await tx.updateTable('videos').set({ status: 'ready' }).where('id', '=', job.videoId!).execute()
    })
    expect(await jobRow(id!)).toMatchObject({ status: 'done', locked_by: null })
    expect((await videoOf(id!)).status).toBe('ready')
  })

  it('tells a worker when its job is gone because the video was deleted', async () => {
    const [id] = await uploadVideos(1)
    const queue = new MediaQueue(first.pool)
    const job = (await queue.claim('w'))!
    await first.pool.query('delete from public.videos where id = $1', [job.videoId])
    expect(await jobRow(id!)).toBeUndefined()
    expect(await queue.heartbeat(job)).toBe('gone')
    await expect(queue.complete(job)).rejects.toBeInstanceOf(JobGoneError)
  })

  it('is out of reach of API callers (no grants to anon or authenticated)', async () => {
    await uploadVideos(1)
    const client = await first.pool.connect()
    try {
      await client.query('begin')
      await client.query('set local role authenticated')
      await expect(client.query('select * from public.media_jobs')).rejects.toMatchObject({ code: '42501' })
    } finally {
      await client.query('rollback')
      client.release()
    }
  })
})
