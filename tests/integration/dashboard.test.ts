import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_MESSAGES } from '../../app/lib/schemas/dashboard'
import {
  dashboardStats,
  dashboardVideos,
  platformOverview,
  recentUploads,
  setTimeZone,
  videoInsight,
} from '../../app/server/dashboard.server'
import { reportWatch } from '../../app/server/views.server'
import { refusal } from './support/refusal'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The dashboard's aggregates against hand-computed fixtures (ADR 0015): rows
 * written with known times into PostgreSQL, the roll-ups kept by triggers,
 * and the figures read back as the creator — in their time zone
 * (Asia/Kathmandu, UTC+5:45, no daylight saving: a day there is not a whole
 * number of UTC hours), zero-filled, with the change over 7 days.
 */
describe('dashboard aggregates', () => {
  let fixture: VideoFixture
  let creator: Person
  let otherCreator: Person
  let learner: Person
  let admin: Person
  let lesson: string
  let spark: string

  const OFFSET_MS = (5 * 60 + 45) * 60_000
  /** A moment given as the Kathmandu wall clock `daysAgo` days before today, at hh:mm. */
  const kathmandu = (daysAgo: number, hh: number, mm: number) => {
    const localNow = new Date(Date.now() + OFFSET_MS)
    const localMidnight = Date.UTC(localNow.getUTCFullYear(), localNow.getUTCMonth(), localNow.getUTCDate())
    return new Date(localMidnight - daysAgo * 86_400_000 + (hh * 60 + mm) * 60_000 - OFFSET_MS)
  }
  const localDate = (daysAgo: number) => kathmandu(daysAgo, 12, 0).toISOString().slice(0, 10)

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, otherCreator, learner, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
    await setTimeZone(creator.claims, 'Asia/Kathmandu')
    const pool = fixture.running.database.pool
    lesson = await fixture.makeVideo(creator)
    spark = await fixture.makeVideo(creator)
    await pool.query(
      `update public.videos set category_id = 'natural-sciences-physics', type = 'spark', created_at = now() - interval '30 days' where id = $1`,
      [spark],
    )
    const view = (video: string, at: Date, who: string) =>
      pool.query(
        `insert into public.video_views (video_id, viewer_key, viewed_hour, created_at) values ($1, $2, date_trunc('hour', $3::timestamptz), $3)`,
        [video, who, at.toISOString()],
      )
    // Today just after midnight in Kathmandu (yesterday evening in UTC), yesterday just before midnight, 10 days ago.
    await view(lesson, kathmandu(0, 0, 0.5), 'a')
    await view(lesson, kathmandu(1, 23, 50), 'b')
    await view(lesson, kathmandu(10, 12, 0), 'c')
    await view(spark, kathmandu(2, 8, 0), 'a')
    await pool.query(`insert into public.video_likes (video_id, user_id, created_at) values ($1, $2, $3)`, [
      lesson,
      learner.id,
      kathmandu(0, 0, 1).toISOString(),
    ])
    await pool.query(
      `insert into public.comments (video_id, user_id, body, created_at) values ($1, $2, 'Great', $3), ($1, $2, 'Thanks', $4)`,
      [lesson, learner.id, kathmandu(3, 9, 0).toISOString(), kathmandu(20, 9, 0).toISOString()],
    )
  })

  afterAll(async () => {
    await fixture?.close()
  })

  it('adds up totals, the 7-day change, averages and categories', async () => {
    const stats = await dashboardStats(creator.claims, creator.id)
    expect(stats).toMatchObject({
      totalVideos: 2,
      totalViews: 4,
      totalLikes: 1,
      totalComments: 2,
      change: { videos: 1, views: 3, likes: 1, comments: 1 },
      avgViewsPerVideo: 2,
      avgLikesPerVideo: 0.5,
      avgCommentsPerVideo: 1,
      likesPer100Views: 25,
      commentsPer100Views: 50,
      mostPopularCategory: 'Other',
      timeZone: 'Asia/Kathmandu',
      days: 7,
    })
    expect(stats.videosByCategory).toEqual([
      { category: 'other', name: 'Other', videos: 1, views: 3 },
      { category: 'natural-sciences-physics', name: 'Natural Sciences - Physics', videos: 1, views: 1 },
    ])
  })

  it("gives zero-filled daily points in the creator's time zone", async () => {
    const stats = await dashboardStats(creator.claims, creator.id)
    expect(stats.viewsOverTime).toEqual(
      [6, 5, 4, 3, 2, 1, 0].map((ago) => ({ date: localDate(ago), count: ago === 0 || ago === 1 || ago === 2 ? 1 : 0 })),
    )
    expect(stats.likesOverTime.map((point) => point.count)).toEqual([0, 0, 0, 0, 0, 0, 1])
    expect(stats.daily.map((point) => point.comments)).toEqual([0, 0, 0, 1, 0, 0, 0])
    const month = await dashboardStats(creator.claims, creator.id, { days: 28 })
    expect(month.daily).toHaveLength(28)
    expect(month.daily.reduce((sum, point) => sum + point.views, 0)).toBe(4)
    expect(month.daily[27 - 10]).toMatchObject({ date: localDate(10), views: 1 })
  })

  it('lists videos by views, likes or newest, with watch time and the share watched', async () => {
    expect((await dashboardVideos(creator.claims, creator.id, 'views')).map((video) => video.id)).toEqual([lesson, spark])
    expect((await dashboardVideos(creator.claims, creator.id, 'newest')).map((video) => video.id)).toEqual([lesson, spark])
    const [first] = await dashboardVideos(creator.claims, creator.id, 'likes')
    expect(first).toMatchObject({ id: lesson, views: 3, likes: 1, comments: 2, watchSeconds: 0, plays: 0, avgShareWatched: null })
  })

  it("draws one video's retention curve from the progress reports", async () => {
    const video = await fixture.makeVideo(otherCreator) // lasts 2 s
    const pool = fixture.running.database.pool
    for (const tenths of [0b1111111111, 0b0000011111]) {
      const session = randomUUID()
      await reportWatch({ claims: learner.claims }, { session, video, played: 0 })
      await pool.query(`update public.video_watch_sessions set started_at = started_at - interval '1 minute' where id = $1`, [
        session,
      ])
      await reportWatch({ claims: learner.claims }, { session, video, played: tenths === 1023 ? 2 : 1, tenths })
    }
    const insight = await videoInsight(otherCreator.claims, video)
    expect(insight).toMatchObject({ views: 1, plays: 2, watchSeconds: 3, durationSeconds: 2 })
    expect(insight.retention.map((point) => point.share)).toEqual([1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5])
    expect(insight.daily.at(-1)).toMatchObject({ views: 1, watchSeconds: 3 })
    const [row] = await dashboardVideos(otherCreator.claims, otherCreator.id, 'retention')
    expect(row).toMatchObject({ id: video, plays: 2, watchSeconds: 3, avgShareWatched: 0.75 })
  })

  it("lets a creator read only their own analytics, and an admin anyone's", async () => {
    expect(await refusal(dashboardStats(otherCreator.claims, creator.id))).toEqual({
      status: 403,
      message: DASHBOARD_MESSAGES.notYours,
    })
    expect((await refusal(dashboardStats(learner.claims, creator.id))).status).toBe(403)
    expect((await refusal(videoInsight(otherCreator.claims, lesson))).status).toBe(403)
    expect((await refusal(videoInsight(creator.claims, randomUUID()))).status).toBe(404)
    expect((await dashboardStats(admin.claims, creator.id)).totalViews).toBe(4)
    expect((await refusal(platformOverview(creator.claims))).status).toBe(403)
    const platform = await platformOverview(admin.claims)
    expect(platform.daily).toHaveLength(7)
    expect(platform.daily.at(-1)!.users).toBeGreaterThanOrEqual(4)
  })

  it('shows the owner why an upload failed, and refuses an unknown time zone', async () => {
    const failed = await fixture.makeVideo(creator, { status: 'failed' })
    const uploads = await recentUploads(creator.claims)
    expect(uploads.find((upload) => upload.id === failed)).toMatchObject({
      status: 'failed',
      statusMessage: 'Please select a valid video file',
    })
    expect(uploads.find((upload) => upload.id === failed)?.moreQualitiesPending).toBe(false)
    // Ready after the worker's phase 1, more qualities coming (ADR 0025): the card says so.
    const playable = await fixture.makeVideo(creator)
    await fixture.running.database.pool.query('update public.videos set more_qualities_pending = true where id = $1', [playable])
    expect((await recentUploads(creator.claims)).find((upload) => upload.id === playable)).toMatchObject({
      status: 'ready',
      moreQualitiesPending: true,
    })
    expect(await refusal(setTimeZone(creator.claims, 'Mars/Olympus'))).toEqual({
      status: 400,
      message: DASHBOARD_MESSAGES.badTimeZone,
    })
  })
})
