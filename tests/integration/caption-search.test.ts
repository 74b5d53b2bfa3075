import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  captionsOnByDefault,
  getCaptionVtt,
  getVideoPageCaptions,
  listPlayerTracks,
  saveCaptionTrack,
} from '../../app/server/captions.server'
import { getOwnProfile, updateProfile } from '../../app/server/profiles.server'
import { countVideos, listVideos, listVideosFrom } from '../../app/server/feed/lists.server'
import { call } from './support/api-client'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Search inside what is said (ADR 0019) through the feed's own functions, against a
 * migrated PostgreSQL: a search finds a video by a line of its captions (with the line
 * and its moment), ranks title hits above lines said in passing, pages and counts the
 * combined list like any other, never finds what the caller cannot see, and the
 * "has captions" filter keeps only captioned videos.
 */

const vtt = (...lines: Array<[number, string]>) =>
  new TextEncoder().encode(
    `WEBVTT\n\n${lines.map(([start, text]) => `00:00:${String(start).padStart(2, '0')}.000 --> 00:00:${String(start + 3).padStart(2, '0')}.000\n${text}`).join('\n\n')}\n`,
  )

describe('search inside what is said', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let admin: Person
  let said: string
  let titled: string
  let hidden: string
  let processing: string
  let spark: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
    said = await fixture.makeVideo(creator)
    titled = await fixture.makeVideo(creator)
    hidden = await fixture.makeVideo(creator, { isPublic: false })
    processing = await fixture.makeVideo(creator)
    spark = await fixture.makeVideo(creator)
    const pool = fixture.running.database.pool
    await pool.query(`update public.videos set title = 'Zygomorphic flowers, explained' where id = $1`, [titled])
    await pool.query(`update public.videos set type = 'spark' where id = $1`, [spark])
    for (const id of [said, hidden, processing, spark]) {
      const file = vtt([1, 'Welcome back.'], [12, 'Orchids are zygomorphic: one plane of symmetry.'], [20, 'Bees notice that.'])
      await saveCaptionTrack(creator.claims, { videoId: id, language: 'en', label: '', file: { bytes: file, name: 'en.vtt' } })
    }
    // Captioned while ready, then reprocessed: a video that is not ready is never searched.
    await pool.query(`update public.videos set status = 'processing', hls_path = null, mp4_path = null where id = $1`, [
      processing,
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  it('finds a video by a line said in it, with the line and its moment, after title hits', async () => {
    const { items } = await listVideos(learner.claims, { type: 'video', search: 'zygomorph', limit: 10 })
    expect(items.map((item) => item.id)).toEqual([titled, said])
    expect(items[0]!.said).toBeUndefined()
    expect(items[1]!.said).toEqual({ text: 'Orchids are zygomorphic: one plane of symmetry.', startSeconds: 12 })
  })

  it('needs every word, each as a prefix, across title and captions alike', async () => {
    const ids = async (search: string) =>
      (await listVideos(learner.claims, { type: 'video', search, limit: 10 })).items.map((item) => item.id)
    expect(await ids('orchid symmetr')).toEqual([said])
    expect(await ids('orchid tulip')).toEqual([])
  })

  it('never finds what the caller cannot see: another creator sees no private or processing video', async () => {
    const learnerIds = (await listVideos(learner.claims, { type: 'video', search: 'orchids', limit: 10 })).items.map(
      (item) => item.id,
    )
    expect(learnerIds).toEqual([said])
    // Visitors too find public ready videos by what is said (search_public_captions), nothing else.
    const visitorIds = (await listVideos(null, { type: 'video', search: 'orchids', limit: 10 })).items.map((item) => item.id)
    expect(visitorIds).toEqual([said])
    const ownIds = (await listVideos(creator.claims, { type: 'video', search: 'orchids', limit: 10 })).items.map(
      (item) => item.id,
    )
    expect(ownIds.sort()).toEqual([said, hidden].sort())
    // The feed leaves other people's private videos to moderation, even for admins.
    const adminIds = (await listVideos(admin.claims, { type: 'video', search: 'orchids', limit: 10 })).items.map(
      (item) => item.id,
    )
    expect(adminIds).toEqual([said])
  })

  it('lets a visitor find a public video by a line said in it, with its moment — never a private or processing one', async () => {
    // The feed's list as a visitor (its fallback list) and the visitors' JSON API (GET /api/videos?search=).
    const { items } = await listVideos(null, { type: 'video', search: 'zygomorph', limit: 10 })
    expect(items.map((item) => item.id)).toEqual([titled, said])
    expect(items[1]!.said).toEqual({ text: 'Orchids are zygomorphic: one plane of symmetry.', startSeconds: 12 })
    expect(await countVideos(null, { type: 'video', search: 'orchids' })).toBe(1)
    const sparks = await listVideos(null, { type: 'spark', search: 'symmetry', limit: 10 })
    expect(sparks.items.map((item) => item.id)).toEqual([spark])
    const api = await call('GET', '/videos?type=feed&search=bees%20notice')
    expect(api.status).toBe(200)
    const ids = (api.body as Array<{ id: string }>).map((video) => video.id)
    expect(ids).toContain(said)
    expect(ids).not.toContain(hidden)
    expect(ids).not.toContain(processing)
    // A video made private is gone from visitors' searches at once.
    await fixture.running.database.pool.query('update public.videos set is_public = false where id = $1', [said])
    try {
      expect((await listVideos(null, { type: 'video', search: 'bees', limit: 10 })).items).toEqual([])
    } finally {
      await fixture.running.database.pool.query('update public.videos set is_public = true where id = $1', [said])
    }
  })

  it('searches sparks by what is said in them too', async () => {
    const { items } = await listVideos(learner.claims, { type: 'spark', search: 'orchids', limit: 10 })
    expect(items.map((item) => item.id)).toEqual([spark])
    expect(items[0]!.said?.startSeconds).toBe(12)
  })

  it('pages, counts and opens windows of the combined list without gaps or repeats', async () => {
    const first = await listVideos(learner.claims, { type: 'video', search: 'zygomorphic', limit: 1 })
    expect(first.items.map((item) => item.id)).toEqual([titled])
    const second = await listVideos(learner.claims, { type: 'video', search: 'zygomorphic', cursor: first.nextCursor, limit: 1 })
    expect(second.items.map((item) => item.id)).toEqual([said])
    expect(second.nextCursor).toBeNull()
    expect(await countVideos(learner.claims, { type: 'video', search: 'zygomorphic' })).toBe(2)
    const window = await listVideosFrom(learner.claims, {
      type: 'video',
      search: 'zygomorphic',
      startId: said,
      before: 3,
      limit: 5,
    })
    expect(window?.items.map((item) => item.id)).toEqual([titled, said])
    expect(window?.position).toBe(1)
  })

  it('keeps only captioned videos under "has captions", with or without a search', async () => {
    const all = (await listVideos(learner.claims, { type: 'video', captions: true, limit: 50 })).items.map((item) => item.id)
    expect(all).toContain(said)
    expect(all).not.toContain(titled)
    const searched = await listVideos(learner.claims, { type: 'video', search: 'zygomorphic', captions: true, limit: 10 })
    expect(searched.items.map((item) => item.id)).toEqual([said])
    expect(await countVideos(learner.claims, { type: 'video', captions: true })).toBe(all.length)
  })

  it('keeps "captions on by default" per user, private, and unchanged unless asked', async () => {
    expect(await captionsOnByDefault(learner.claims)).toBe(false)
    const profile = await getOwnProfile(learner.claims)
    expect(profile.captionsOn).toBe(false)
    const caller = { claims: learner.claims, supabase: fixture.service }
    await updateProfile(caller, { username: profile.username, bio: 'Learning', captionsOn: true })
    expect(await captionsOnByDefault(learner.claims)).toBe(true)
    expect((await getVideoPageCaptions(learner.claims, said)).captionsOn).toBe(true)
    expect((await getVideoPageCaptions(admin.claims, said)).captionsOn).toBe(false)
    expect(await captionsOnByDefault(null)).toBe(false)
    // An edit that does not mention it (the JSON API's) leaves it as it was.
    await updateProfile(caller, { username: profile.username, bio: 'Still learning' })
    expect((await getOwnProfile(learner.claims)).captionsOn).toBe(true)
    await updateProfile(caller, { username: profile.username, bio: 'Still learning', captionsOn: false })
    expect(await captionsOnByDefault(learner.claims)).toBe(false)
  })

  it('gives the reel viewer the tracks of the clips the caller can see, placed above the title', async () => {
    const tracks = await listPlayerTracks(learner.claims, [said, hidden, titled, 'not-a-uuid'], { placement: 'reel' })
    expect(Object.keys(tracks)).toEqual([said])
    expect(tracks[said]).toEqual([
      { src: expect.stringMatching(/^\/captions\/[0-9a-f-]{36}\.vtt\?placement=reel$/), language: 'en', label: 'English' },
    ])
    const trackId = /captions\/([0-9a-f-]{36})/.exec(tracks[said]![0]!.src)![1]!
    const placed = await getCaptionVtt(learner.claims, trackId, { placement: 'reel' })
    expect(placed).toContain('00:00:12.000 --> 00:00:15.000 line:58% position:50% size:70% align:center\nOrchids')
    expect(await getCaptionVtt(learner.claims, trackId)).toContain('00:00:12.000 --> 00:00:15.000\nOrchids')
  })
})
