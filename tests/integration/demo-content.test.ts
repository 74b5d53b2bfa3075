import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { DEMO_CAPTIONS } from '../../stack/demo-captions'
import { DEMO_CLIPS, DEMO_COURSE, DEMO_CREATOR_ID, seedDemoContent } from '../../stack/demo-content'
import { seedDemoData } from '../../db/seed'
import { startMediaWorker } from '../../worker/media-worker'
import { validateVideoFile } from '../../media/validate-upload'
import { startStack, type RunningStack } from '../support/stack'
import { scratchDir } from './media/clips'

/**
 * Demo content (stack/demo-content.ts) on a fresh stand-in with the
 * demo accounts: clips made with ffmpeg at seed time, stored like uploads,
 * inserted as processing with their jobs queued — valid for the real
 * pipeline (the upload checks pass; the worker publishes one) — and made
 * only once.
 */

let running: RunningStack
let service: SupabaseClient
let scratch: Awaited<ReturnType<typeof scratchDir>>
let added = 0
const lines: string[] = []

beforeAll(async () => {
  running = await startStack()
  await seedDemoData(running.database.pool)
  service = createClient(running.url, running.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false },
  })
  scratch = await scratchDir('demo-content')
  added = await seedDemoContent({
    pool: running.database.pool,
    supabaseUrl: running.url,
    serviceRoleKey: running.serviceRoleKey,
    log: (line) => lines.push(line),
    tempDir: scratch.dir,
    cacheDir: path.join(scratch.dir, 'cache'),
  })
}, 240_000)

afterAll(async () => {
  await scratch?.remove()
  await running?.close()
})

async function videos() {
  const { rows } = await running.database.pool.query<{
    id: string
    title: string
    type: string
    category_id: string
    status: string
    source_path: string
    thumbnail_path: string
    is_public: boolean
  }>(
    `select id, title, type, category_id, status, source_path, thumbnail_path, is_public
       from public.videos where creator_id = $1 order by created_at desc`,
    [DEMO_CREATOR_ID],
  )
  return rows
}

describe('demo content', () => {
  it('adds the demo creator’s videos and sparks, processing, in their approved categories', async () => {
    expect(added).toBe(DEMO_CLIPS.length)
    const rows = await videos()
    expect(rows.map((row) => row.title)).toEqual(DEMO_CLIPS.map((clip) => clip.title))
    expect(rows.filter((row) => row.type === 'video').length).toBeGreaterThanOrEqual(3)
    expect(rows.filter((row) => row.type === 'spark').length).toBeGreaterThanOrEqual(4)
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'processing', is_public: true })
      expect(['natural-sciences-physics', 'applied-sciences-space-science-astronomy', 'technology-innovation']).toContain(
        row.category_id,
      )
    }
    expect(lines.join('\n')).toMatch(/demo content: \d+ videos and sparks made in [\d.]+ s/)
  })

  it('adds the demo creator’s course, published, with its lessons in order under their sections', async () => {
    const { rows } = await running.database.pool.query<{ title: string; is_published: boolean; lesson: string; section_title: string }>(
      `select c.title, c.is_published, v.title as lesson, l.section_title
         from public.courses c
         join public.course_lessons l on l.course_id = c.id
         join public.videos v on v.id = l.video_id
        where c.creator_id = $1
        order by l.position`,
      [DEMO_CREATOR_ID],
    )
    expect(rows.map((row) => [row.lesson, row.section_title])).toEqual(DEMO_COURSE.lessons.map(([title, section]) => [title, section]))
    expect(new Set(rows.map((row) => `${row.title}:${row.is_published}`))).toEqual(new Set([`${DEMO_COURSE.title}:true`]))
  })

  it('stores each source and thumbnail like an upload, and queues one media job per video', async () => {
    const rows = await videos()
    const { rows: jobs } = await running.database.pool.query(
      `select video_id, status from public.media_jobs where video_id = any($1::uuid[])`,
      [rows.map((row) => row.id)],
    )
    expect(jobs).toHaveLength(rows.length)
    expect(new Set(jobs.map((job) => job.status))).toEqual(new Set(['queued']))
    for (const row of rows) {
      expect(row.source_path).toMatch(new RegExp(`^${DEMO_CREATOR_ID}/videos/[0-9a-f-]{36}\\.mp4$`))
      expect(row.thumbnail_path).toBe(`${DEMO_CREATOR_ID}/${row.id}.jpg`)
      const thumbnail = await service.storage.from('thumbnails').download(row.thumbnail_path)
      expect(thumbnail.error).toBeNull()
      expect([...new Uint8Array(await thumbnail.data!.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8])
    }
  })

  it('makes clips the upload checks accept: sparks under 60 s and portrait, videos landscape', async () => {
    for (const [index, row] of (await videos()).entries()) {
      const { data, error } = await service.storage.from('uploads').download(row.source_path)
      expect(error).toBeNull()
      const file = path.join(scratch.dir, `check-${index}.mp4`)
      await writeFile(file, Buffer.from(await data!.arrayBuffer()))
      const result = await validateVideoFile(file, { type: row.type as 'video' | 'spark' })
      expect(result.ok, row.title).toBe(true)
      if (!result.ok) continue
      const { width, height } = result.probe.video!
      const clip = DEMO_CLIPS.find((candidate) => candidate.title === row.title)!
      expect(Math.abs(result.probe.durationSeconds - clip.seconds)).toBeLessThan(0.5)
      if (row.type === 'spark') expect({ width, height }).toEqual({ width: 360, height: 640 })
      else expect({ width, height }).toEqual({ width: 640, height: 360 })
    }
  })

  it('is published by the real media worker', async () => {
    const worker = startMediaWorker({
      pool: running.database.pool,
      supabaseUrl: running.url,
      serviceRoleKey: running.serviceRoleKey,
      autoStart: false,
      tempDir: scratch.dir,
      log: () => {},
    })
    try {
      expect(await worker.runOnce()).toBe(true)
    } finally {
      await worker.stop()
    }
    const { rows } = await running.database.pool.query(
      `select status, hls_path from public.videos where creator_id = $1 and status <> 'processing'`,
      [DEMO_CREATOR_ID],
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ status: 'ready', hls_path: expect.stringMatching(/master\.m3u8$/) })
  }, 120_000)

  it('runs once: a second start adds nothing', async () => {
    const again = await seedDemoContent({
      pool: running.database.pool,
      supabaseUrl: running.url,
      serviceRoleKey: running.serviceRoleKey,
    })
    expect(again).toBe(0)
    expect(await videos()).toHaveLength(DEMO_CLIPS.length)
  })

  it('captions every clip in English, so the transcript and caption search work on a fresh install', async () => {
    const { rows } = await running.database.pool.query<{ title: string; cues: number; first: string }>(
      `select v.title, t.cue_count as cues,
              (select c.body from public.caption_cues c where c.track_id = t.id order by c.seq limit 1) as first
         from public.videos v join public.caption_tracks t on t.video_id = v.id and t.language = 'en'
        where v.creator_id = $1`,
      [DEMO_CREATOR_ID],
    )
    expect(rows).toHaveLength(DEMO_CLIPS.length)
    for (const clip of DEMO_CLIPS) {
      const cues = DEMO_CAPTIONS[clip.title]!
      expect(rows.find((row) => row.title === clip.title)).toEqual({ title: clip.title, cues: cues.length, first: cues[0]![2] })
      // Every cue lies inside the clip.
      expect(Math.max(...cues.map(([, end]) => end))).toBeLessThanOrEqual(clip.seconds)
    }
  })

  it('keeps the made clips for the next fresh install, in a folder named after what made them', async () => {
    const [folder, ...others] = await readdir(path.join(scratch.dir, 'cache'))
    expect(others).toEqual([])
    const files = (await readdir(path.join(scratch.dir, 'cache', folder!))).sort()
    expect(files.filter((file) => file.endsWith('.mp4'))).toHaveLength(DEMO_CLIPS.length)
    expect(files.filter((file) => file.endsWith('.jpg'))).toHaveLength(DEMO_CLIPS.length)
    expect(files.some((file) => file.endsWith('.partial'))).toBe(false)
  })
})
