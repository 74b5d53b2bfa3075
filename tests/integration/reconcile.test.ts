import { randomUUID } from 'node:crypto'
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reconcile } from '../../worker/reconcile'
import { openVideoFixture, type VideoFixture } from './support/video-fixture'

/**
 * worker/reconcile.ts (npm run doctor, the worker's sweep): fixes what the
 * rows prove — wrong counters, files no row names, abandoned resumable
 * uploads — reports what only a person can judge, and finds nothing on a
 * second run.
 */
describe('reconciliation', () => {
  let fixture: VideoFixture
  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('fixes counters, orphaned files and abandoned uploads; reports a row without its file; a second run finds only that', async () => {
    const pool = fixture.running.database.pool
    const storageDir = path.join(fixture.running.dataDir, 'storage')
    const creator = await fixture.makeUser('creator')
    const learner = await fixture.makeUser('user')
    const videoId = await fixture.makeVideo(creator)
    await fixture.putMedia(videoId, creator)
    await pool.query('insert into public.video_likes (video_id, user_id) values ($1, $2)', [videoId, learner.id])
    await pool.query('update public.videos set like_count = 7, comment_count = 3 where id = $1', [videoId])

    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000)
    const orphan = path.join(storageDir, 'objects/media', randomUUID())
    await writeFile(orphan, 'no row names me')
    await utimes(orphan, dayAgo, dayAgo)
    const fresh = path.join(storageDir, 'objects/media', randomUUID())
    await writeFile(fresh, 'maybe a commit in progress')
    const abandoned = randomUUID()
    await mkdir(path.join(storageDir, 'resumable'), { recursive: true })
    await writeFile(path.join(storageDir, 'resumable', abandoned), 'half an upload')
    await writeFile(
      path.join(storageDir, 'resumable', `${abandoned}.json`),
      JSON.stringify({ id: abandoned, size: 100, offset: 14, creation_date: dayAgo.toISOString(), metadata: {} }),
    )
    const lost = await pool.query<{ name: string }>(
      `update storage.objects set version = $1 where bucket_id = 'media' and name like $2 || '%' returning name`,
      [randomUUID(), `videos/${videoId}/hls/master`],
    )
    expect(lost.rows).toHaveLength(1)

    const first = await reconcile({ pool, storageDir })
    const fixed = first.findings.filter((finding) => finding.fixed).map((finding) => finding.check)
    expect(fixed.sort()).toEqual(['counter', 'counter', 'file', 'upload'])
    expect(first.findings.filter((finding) => !finding.fixed)).toEqual([
      { check: 'object', detail: expect.stringContaining(`media/${lost.rows[0]!.name}`), fixed: false },
    ])
    const { rows } = await pool.query('select like_count, comment_count from public.videos where id = $1', [videoId])
    expect(rows[0]).toEqual({ like_count: 1, comment_count: 0 })
    const remaining = await readdir(path.join(storageDir, 'objects/media'))
    expect(remaining).not.toContain(path.basename(orphan))
    expect(remaining).toContain(path.basename(fresh))
    expect(await readdir(path.join(storageDir, 'resumable'))).not.toContain(abandoned)

    const second = await reconcile({ pool, storageDir, fix: false })
    expect(second.findings.map((finding) => finding.check)).toEqual(['object'])
  })
})
