import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, disconnect } from '../../app/server/db.server'
import { countVideos, listVideos, listVideosFrom, loadFeed, type ListVideosOptions, type VideoCardItem } from '../../app/server/feed/lists.server'
import { decodeCursor } from '../../app/server/feed/query.server'
import { cleanSearch } from '../../app/server/feed/search.server'
import { LIMITS } from '../../app/lib/catalog'
import { claimsFor, databaseKinds, insertAuthUser, migratedDatabase } from '../support/databases'

/**
 * The feed and sparks lists (app/server/feed/) on both databases Lumen
 * runs on: who sees what, the filters, search that cannot be abused, and
 * keyset pages that are disjoint and complete.
 */
interface Seed {
  creator: string
  title: string
  description?: string
  type?: 'video' | 'spark'
  category?: string
  isPublic?: boolean
  status?: 'processing' | 'ready' | 'failed'
  createdAt: string
}

async function insertVideo(pool: pg.Pool, seed: Seed): Promise<string> {
  const id = randomUUID()
  // As the database owner (a trusted caller, as the media worker is): status and dates are ours to set.
  await pool.query(
    `insert into public.videos (id, creator_id, title, description, type, category_id, is_public, status,
                                source_path, mp4_path, hls_path, duration_seconds, created_at)
     values ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8, $2::text || '/videos/' || $1::text || '.mp4',
             'videos/' || $1::text || '/video.mp4', 'videos/' || $1::text || '/hls/master.m3u8', $9, $10)`,
    [
      id,
      seed.creator,
      seed.title,
      seed.description ?? '',
      seed.type ?? 'video',
      seed.category ?? 'other',
      seed.isPublic ?? true,
      seed.status ?? 'ready',
      seed.type === 'spark' ? 30 : 300,
      seed.createdAt,
    ],
  )
  return id
}

/** Every page of a list, following the cursors. */
async function allPages(claims: ReturnType<typeof claimsFor> | null, options: ListVideosOptions): Promise<VideoCardItem[][]> {
  const pages: VideoCardItem[][] = []
  let cursor: string | null | undefined = options.cursor
  for (let guard = 0; guard < 100; guard++) {
    const page = await listVideos(claims, { ...options, cursor })
    pages.push(page.items)
    if (!page.nextCursor) return pages
    cursor = page.nextCursor
  }
  throw new Error('the cursor never ended')
}

const ids = (items: VideoCardItem[]) => items.map((item) => item.id)

describe('search text cleaning', () => {
  it('keeps words and drops control characters, and gives up on text without letters or digits', () => {
    expect(cleanSearch('  Photo  synthesis\n')).toBe('Photo synthesis')
    expect(cleanSearch('a\u0000b')).toBe('a b')
    expect(cleanSearch(':*')).toBeNull()
    expect(cleanSearch('&|!()')).toBeNull()
    expect(cleanSearch('')).toBeNull()
    expect(cleanSearch(null)).toBeNull()
    expect(cleanSearch('x'.repeat(1000))).toHaveLength(200)
  })

  it('ignores malformed cursors instead of failing', () => {
    for (const cursor of ['', 'not base64 at all!', Buffer.from('{"a":1}').toString('base64url'), 'x'.repeat(500)]) {
      expect(decodeCursor(cursor, false)).toBeNull()
    }
  })

  it('ignores cursors whose timestamp or rank Postgres would refuse (a 500 before), and keeps good ones', () => {
    const id = '5b1c3f0e-8a43-4a8e-9f51-0d7c1b2a3e4f'
    const cursor = (tuple: unknown[]) => Buffer.from(JSON.stringify(tuple)).toString('base64url')
    expect(decodeCursor(cursor(['2026-01-01T00:00:00+99:99', id]), false)).toBeNull()
    expect(decodeCursor(cursor(['0000-01-01T00:00:00Z', id]), false)).toBeNull()
    expect(decodeCursor(cursor(['2026-01-01T00:00:00Z', id, 1e300]), true)).toBeNull()
    expect(decodeCursor(cursor(['2026-01-01T00:00:00Z', id]), false)).toEqual({ at: '2026-01-01T00:00:00Z', id })
    expect(decodeCursor(cursor(['2026-01-01T00:00:00Z', id, 0.5]), false)).toBeNull()
    expect(decodeCursor(cursor(['2026-01-01T00:00:00Z', id, 0.5]), true)).toEqual({ at: '2026-01-01T00:00:00Z', id, rank: 0.5 })
  })
})

describe.each(databaseKinds)('the feed and sparks lists on %s', (kind) => {
  let dispose: () => Promise<void>
  let pool: pg.Pool
  let maya: string
  let noah: string
  let leo: string
  let ada: string
  const video: Record<string, string> = {}
  const bulk: string[] = []
  const sparks: string[] = []

  beforeAll(async () => {
    const database = await migratedDatabase(kind)
    dispose = database.dispose
    pool = database.handle.pool
    await disconnect()
    await connect(database.handle)
    maya = await insertAuthUser(pool, { username: `maya_${kind}`, role: 'creator' })
    noah = await insertAuthUser(pool, { username: `noah_${kind}`, role: 'creator' })
    leo = await insertAuthUser(pool, { username: `leo_${kind}` })
    ada = await insertAuthUser(pool, { username: `ada_${kind}` })
    await pool.query(`update public.profiles set is_verified = true where id = any($1)`, [[maya, noah]])
    await pool.query(`update public.profiles set role = 'admin', is_verified = true where id = $1`, [ada])

    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString()
    video.photosynthesis = await insertVideo(pool, {
      creator: maya,
      title: 'Photosynthesis explained',
      description: 'How plants turn light into sugar.',
      category: 'natural-sciences-biology',
      createdAt: day(100),
    })
    video.lightMention = await insertVideo(pool, {
      creator: noah,
      title: 'Cooking with heat',
      description: 'Why a photograph of a steak looks better than the steak. Photosynthesis is not involved.',
      category: 'natural-sciences-chemistry',
      createdAt: day(101),
    })
    video.orbits = await insertVideo(pool, {
      creator: maya,
      title: 'Orbits and gravity',
      description: 'Kepler, Newton, and the shape of orbits.',
      category: 'applied-sciences-space-science-astronomy',
      createdAt: day(102),
    })
    video.mayaPrivate = await insertVideo(pool, { creator: maya, title: 'Draft: photons', isPublic: false, createdAt: day(103) })
    video.processing = await insertVideo(pool, { creator: maya, title: 'Photons still processing', status: 'processing', createdAt: day(104) })
    video.failed = await insertVideo(pool, { creator: noah, title: 'Photons that failed', status: 'failed', createdAt: day(105) })
    video.noahPrivate = await insertVideo(pool, { creator: noah, title: 'Noah photon notes', isPublic: false, createdAt: day(106) })

    // 45 more, several sharing one timestamp: the id breaks ties, so pages must still be exact.
    for (let i = 0; i < 45; i++) {
      bulk.push(
        await insertVideo(pool, {
          creator: i % 2 ? maya : noah,
          title: `Lecture ${i}`,
          description: i % 3 === 0 ? 'Quantum basics for everyone' : 'General science',
          category: i % 4 === 0 ? 'technology-innovation' : 'other',
          createdAt: day(i < 15 ? 50 : i),
        }),
      )
    }
    for (let i = 0; i < 12; i++) {
      sparks.push(
        await insertVideo(pool, {
          creator: i % 2 ? maya : noah,
          title: `Spark ${i}: a quick idea`,
          type: 'spark',
          category: i % 3 === 0 ? 'natural-sciences-physics' : 'other',
          createdAt: day(200 + i),
        }),
      )
    }
    await insertVideo(pool, { creator: maya, title: 'Spark in processing', type: 'spark', status: 'processing', createdAt: day(300) })
  })

  afterAll(async () => {
    await disconnect()
    await dispose()
  })

  describe('who sees what', () => {
    it('lists only ready public videos to a learner, never private, processing or failed ones', async () => {
      const seen = ids((await listVideos(claimsFor(leo), { type: 'video', limit: 50 })).items)
      expect(seen).toEqual(expect.arrayContaining([video.photosynthesis, video.lightMention, video.orbits]))
      for (const hidden of [video.mayaPrivate, video.noahPrivate, video.processing, video.failed]) {
        expect(seen).not.toContain(hidden)
      }
      expect(seen).toHaveLength(3 + bulk.length)
    })

    it('lists a creator’s own private videos to them (badged), but not another creator’s', async () => {
      const items = (await listVideos(claimsFor(maya), { type: 'video', limit: 50 })).items
      const own = items.find((item) => item.id === video.mayaPrivate)
      expect(own?.isPublic).toBe(false)
      expect(ids(items)).not.toContain(video.noahPrivate)
      expect(ids(items)).not.toContain(video.processing)
    })

    it('does not fill an admin’s feed with other people’s private videos', async () => {
      const seen = ids((await listVideos(claimsFor(ada), { type: 'video', limit: 50 })).items)
      expect(seen).not.toContain(video.mayaPrivate)
      expect(seen).not.toContain(video.noahPrivate)
    })

    it('lists the same public videos to a visitor (the fallback list)', async () => {
      const visitor = ids((await listVideos(null, { type: 'video', limit: 50 })).items)
      const learner = ids((await listVideos(claimsFor(leo), { type: 'video', limit: 50 })).items)
      expect(visitor).toEqual(learner)
    })

    it('keeps videos and sparks apart', async () => {
      const sparkIds = ids((await listVideos(claimsFor(leo), { type: 'spark', limit: 50 })).items)
      expect(sparkIds.sort()).toEqual([...sparks].sort())
    })

    it('shapes each card: creator, category, media URLs, duration and counters', async () => {
      const [first] = (await listVideos(claimsFor(leo), { type: 'video', search: 'photosynthesis explained', limit: 1 })).items
      expect(first).toMatchObject({
        id: video.photosynthesis,
        title: 'Photosynthesis explained',
        description: 'How plants turn light into sugar.',
        type: 'video',
        category: { id: 'natural-sciences-biology', name: 'Natural Sciences - Biology' },
        isPublic: true,
        durationSeconds: 300,
        creator: { id: maya, username: `maya_${kind}`, avatarUrl: null },
        likeCount: 0,
        viewCount: 0,
        mp4Url: `/media/videos/${video.photosynthesis}/video.mp4`,
        hlsUrl: `/media/videos/${video.photosynthesis}/hls/master.m3u8`,
      })
      expect(Date.parse(first!.createdAt)).toBe(Date.UTC(2026, 0, 1) + 100 * 86_400_000)
    })
  })

  describe('filters', () => {
    it('filters by category id, and ignores an unknown category', async () => {
      const biology = await listVideos(claimsFor(leo), { type: 'video', category: 'natural-sciences-biology', limit: 50 })
      expect(ids(biology.items)).toEqual([video.photosynthesis])
      const tech = await listVideos(claimsFor(leo), { type: 'video', category: 'technology-innovation', limit: 50 })
      expect(tech.items.every((item) => item.category.id === 'technology-innovation')).toBe(true)
      expect(tech.items).toHaveLength(12)
      const unknown = await listVideos(claimsFor(leo), { type: 'video', category: "x' or 1=1--", limit: 50 })
      expect(unknown.items).toHaveLength(3 + bulk.length)
    })

    it('finds videos by the beginning of a word (prefix matching)', async () => {
      const found = await listVideos(claimsFor(leo), { type: 'video', search: 'photosynth', limit: 50 })
      expect(ids(found.items)).toEqual([video.photosynthesis, video.lightMention])
      const twoWords = await listVideos(claimsFor(leo), { type: 'video', search: 'orb grav', limit: 50 })
      expect(ids(twoWords.items)).toEqual([video.orbits])
    })

    it('ranks a match in the title above a match in the description', async () => {
      // "Cooking with heat" is newer, but only its description mentions photosynthesis.
      const found = await listVideos(claimsFor(leo), { type: 'video', search: 'Photosynthesis', limit: 50 })
      expect(ids(found.items)[0]).toBe(video.photosynthesis)
    })

    it('never lists a hidden video through search', async () => {
      const found = ids((await listVideos(claimsFor(leo), { type: 'video', search: 'photon', limit: 50 })).items)
      expect(found).toEqual([])
      const own = ids((await listVideos(claimsFor(maya), { type: 'video', search: 'photon', limit: 50 })).items)
      expect(own).toEqual([video.mayaPrivate])
    })

    it('combines search and category', async () => {
      const found = await listVideos(claimsFor(leo), {
        type: 'video',
        search: 'photosynthesis',
        category: 'natural-sciences-chemistry',
        limit: 50,
      })
      expect(ids(found.items)).toEqual([video.lightMention])
    })

    it.each([
      ['SQL', "' OR 1=1--", 0],
      ['tsquery operators', 'a & b | !c', null],
      ['a bare prefix operator', ':*', 3 + 45],
      ['a backslash', '\\', 3 + 45],
      ['quotes only', "'''", 3 + 45],
      ['operators after a word', 'photo:* | !x', null],
      ['1,000 characters', 'x'.repeat(1000), 0],
      ['a NUL byte', 'photo\u0000synthesis', null],
      ['markup', '<script>alert(1)</script>', 0],
      ['Unicode and a right-to-left override', 'e-mail ½ ünïcødé 日本語 \u202e', 0],
    ])('answers a search with %s without an error', async (_label, search, expected) => {
      const found = await listVideos(claimsFor(leo), { type: 'video', search, limit: 50 })
      if (expected !== null) expect(found.items).toHaveLength(expected)
      for (const item of found.items) expect([video.mayaPrivate, video.processing]).not.toContain(item.id)
    })
  })

  describe('pages', () => {
    it('pages newest first with disjoint, complete keyset pages, ties broken by id', async () => {
      const pages = await allPages(claimsFor(leo), { type: 'video', limit: 10 })
      expect(pages.map((page) => page.length)).toEqual([10, 10, 10, 10, 8])
      const flat = pages.flat()
      expect(new Set(ids(flat)).size).toBe(flat.length)
      const whole = (await listVideos(claimsFor(leo), { type: 'video', limit: 50 })).items
      expect(ids(flat)).toEqual(ids(whole))
      const keys = flat.map((item) => [Date.parse(item.createdAt), item.id] as const)
      for (let i = 1; i < keys.length; i++) {
        const [previousAt, previousId] = keys[i - 1]!
        const [at, id] = keys[i]!
        expect(previousAt > at || (previousAt === at && previousId > id)).toBe(true)
      }
    })

    it('neither skips nor repeats videos made in the same millisecond at a page break (cursors keep microseconds)', async () => {
      // Private to a creator of their own, so the other lists' counts stay as they are.
      const tess = await insertAuthUser(pool, { username: `tess_${kind}`, role: 'creator' })
      await pool.query(`update public.profiles set is_verified = true where id = $1`, [tess])
      const made: string[] = []
      for (let micro = 1; micro <= 5; micro++) {
        made.push(
          await insertVideo(pool, {
            creator: tess,
            title: `Same millisecond ${micro}`,
            category: 'arts-creativity',
            isPublic: false,
            createdAt: `2026-03-01T00:00:00.000${micro}00Z`,
          }),
        )
      }
      const flat = (await allPages(claimsFor(tess), { type: 'video', category: 'arts-creativity', limit: 2 })).flat()
      expect(ids(flat)).toEqual([...made].reverse())
    })

    it('pages a creator’s list that mixes public and own private videos exactly', async () => {
      const flat = (await allPages(claimsFor(maya), { type: 'video', limit: 7 })).flat()
      const whole = (await listVideos(claimsFor(maya), { type: 'video', limit: 50 })).items
      expect(ids(flat)).toEqual(ids(whole))
      expect(ids(flat)).toContain(video.mayaPrivate)
    })

    it('pages ranked search results by (rank, date, id), disjoint and complete', async () => {
      const pages = await allPages(claimsFor(leo), { type: 'video', search: 'quantum basics', limit: 4 })
      const flat = pages.flat()
      const whole = (await listVideos(claimsFor(leo), { type: 'video', search: 'quantum basics', limit: 50 })).items
      expect(whole.length).toBe(15)
      expect(ids(flat)).toEqual(ids(whole))
      expect(new Set(ids(flat)).size).toBe(flat.length)
    })

    it('pages within a category', async () => {
      const flat = (await allPages(claimsFor(leo), { type: 'video', category: 'other', limit: 6 })).flat()
      const whole = (await listVideos(claimsFor(leo), { type: 'video', category: 'other', limit: 50 })).items
      expect(ids(flat)).toEqual(ids(whole))
    })

    it('gives sparks in pages of five (docs/product.md, Limits and timers)', async () => {
      const pages = await allPages(claimsFor(leo), { type: 'spark', limit: LIMITS.sparksPageSize })
      expect(pages.map((page) => page.length)).toEqual([5, 5, 2])
      expect(ids(pages.flat())).toEqual([...sparks].reverse())
    })

    it('treats a cursor of the wrong kind or a forged one as the first page', async () => {
      const first = await listVideos(claimsFor(leo), { type: 'video', limit: 5 })
      const searchPage = await listVideos(claimsFor(leo), { type: 'video', search: 'quantum', limit: 2 })
      const mixed = await listVideos(claimsFor(leo), { type: 'video', cursor: searchPage.nextCursor, limit: 5 })
      expect(ids(mixed.items)).toEqual(ids(first.items))
      const forged = Buffer.from(JSON.stringify(['k', "2026-01-01'; drop table videos;--", 'x'])).toString('base64url')
      expect(ids((await listVideos(claimsFor(leo), { type: 'video', cursor: forged, limit: 5 })).items)).toEqual(ids(first.items))
    })

    it('opens a window at one spark with its position and the total (the reel viewer’s ?start=)', async () => {
      // Newest first: sparks[11] is 1st, sparks[4] is 8th.
      const window = await listVideosFrom(claimsFor(leo), { type: 'spark', startId: sparks[4]!, before: 3, limit: 5 })
      expect(window).not.toBeNull()
      expect(window!.total).toBe(12)
      expect(window!.position).toBe(5)
      expect(ids(window!.items)).toEqual([sparks[7], sparks[6], sparks[5], sparks[4], sparks[3], sparks[2], sparks[1], sparks[0]])
      expect(window!.nextCursor).toBeNull()
      expect(await countVideos(claimsFor(leo), { type: 'spark' })).toBe(12)
      expect(await countVideos(claimsFor(leo), { type: 'spark', category: 'natural-sciences-physics' })).toBe(4)
    })

    it('refuses to open a window at a hidden or unknown item', async () => {
      expect(await listVideosFrom(claimsFor(leo), { type: 'video', startId: video.mayaPrivate!, before: 3, limit: 5 })).toBeNull()
      expect(await listVideosFrom(claimsFor(leo), { type: 'spark', startId: video.photosynthesis!, before: 3, limit: 5 })).toBeNull()
      expect(await listVideosFrom(claimsFor(leo), { type: 'spark', startId: 'not-a-uuid', before: 3, limit: 5 })).toBeNull()
    })
  })

  describe('the fallback', () => {
    it('shows the public list when the database refuses the personal feed', async () => {
      // Take the signed-in role's read right away, as a misconfigured grant would.
      await pool.query('revoke select on public.videos from authenticated')
      try {
        await expect(listVideos(claimsFor(leo), { type: 'video', limit: 5 })).rejects.toMatchObject({ code: '42501' })
        const feed = await loadFeed(claimsFor(leo), { type: 'video', limit: 5 })
        expect(feed.fallback).toBe(true)
        expect(feed.items).toHaveLength(5)
      } finally {
        await pool.query('grant select on public.videos to authenticated')
      }
      const feed = await loadFeed(claimsFor(leo), { type: 'video', limit: 5 })
      expect(feed.fallback).toBe(false)
    })
  })
})
