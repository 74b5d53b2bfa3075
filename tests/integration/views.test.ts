import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_MESSAGES } from '../../app/lib/schemas/dashboard'
import { action as reportAction } from '../../app/routes/_watch+/views.report'
import { loader as pixelLoader } from '../../app/routes/_watch+/views.page.$id'
import { recordPageView, reportWatch } from '../../app/server/views.server'
import { refusal } from './support/refusal'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Honest view counting (ADR 0015) against PostgreSQL: progress
 * reports count a view after 10 s credited (half of a clip under 20 s), never
 * faster than the wall clock, once per viewer, video and hour; reports for
 * videos the caller cannot see are refused; the no-JS page view counts once
 * an hour. Wall-clock time is simulated by ageing a session's start.
 */
describe('view counting', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let secondLearner: Person
  let otherCreator: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, secondLearner, otherCreator] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
      fixture.makeUser('creator'),
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const pool = () => fixture.running.database.pool
  const longVideo = async (options: { isPublic?: boolean } = {}) => {
    const id = await fixture.makeVideo(creator, options)
    await pool().query('update public.videos set duration_seconds = 300 where id = $1', [id])
    return id
  }
  const viewCount = async (id: string) =>
    Number((await pool().query<{ n: string }>('select view_count as n from public.videos where id = $1', [id])).rows[0]!.n)
  const age = (session: string, seconds = 60) =>
    pool().query(`update public.video_watch_sessions set started_at = started_at - make_interval(secs => $2) where id = $1`, [
      session,
      seconds,
    ])
  /** A viewer plays `seconds` in one go: the start report, time passes, then the rest. */
  const watch = async (viewer: Person, video: string, seconds: number) => {
    const session = randomUUID()
    await reportWatch({ claims: viewer.claims }, { session, video, played: 0 })
    await age(session)
    return (await reportWatch({ claims: viewer.claims }, { session, video, played: seconds, tenths: 1 })).counted
  }

  it('refuses unreadable reports and videos the caller cannot see', async () => {
    const hidden = await longVideo({ isPublic: false })
    expect(await refusal(reportWatch({ claims: learner.claims }, { session: 'x', video: hidden, played: 1 }))).toEqual({
      status: 400,
      message: DASHBOARD_MESSAGES.badReport,
    })
    expect(await refusal(reportWatch({ claims: learner.claims }, { session: randomUUID(), video: hidden, played: 0 }))).toEqual({
      status: 404,
      message: DASHBOARD_MESSAGES.videoNotFound,
    })
    expect(
      (await refusal(reportWatch({ claims: learner.claims }, { session: randomUUID(), video: randomUUID(), played: 0 }))).status,
    ).toBe(404)
    const processing = await fixture.makeVideo(creator, { status: 'processing' })
    expect(
      (await refusal(reportWatch({ claims: learner.claims }, { session: randomUUID(), video: processing, played: 0 }))).status,
    ).toBe(404)
    expect(await viewCount(hidden)).toBe(0)
  })

  it('counts 10 s but not 9 s, once per viewer and hour; another viewer counts', async () => {
    const video = await longVideo()
    expect(await watch(learner, video, 9)).toBe(false)
    expect(await viewCount(video)).toBe(0)
    expect(await watch(learner, video, 12)).toBe(true)
    expect(await viewCount(video)).toBe(1)
    // A reload is a new session: within the hour it does not count again.
    expect(await watch(learner, video, 30)).toBe(false)
    expect(await recordPageView(learner.claims, video)).toBe(false)
    expect(await watch(secondLearner, video, 10)).toBe(true)
    expect(await viewCount(video)).toBe(2)
  })

  it('never credits more than the wall clock: a burst of claims right after the start does not count', async () => {
    const video = await longVideo()
    const session = randomUUID()
    for (const played of [0, 10, 10, 10, 10]) {
      expect((await reportWatch({ claims: learner.claims }, { session, video, played })).counted).toBe(false)
    }
    const { rows } = await pool().query<{ watched: string }>(
      'select watched_seconds as watched from public.video_watch_sessions where id = $1',
      [session],
    )
    expect(Number(rows[0]!.watched)).toBeLessThan(5) // 2 s of slack plus the real time these calls took
    expect(await viewCount(video)).toBe(0)
  })

  it('counts half of a clip shorter than 20 s', async () => {
    const clip = await fixture.makeVideo(creator) // the fixture's videos last 2 s
    expect(await watch(learner, clip, 0.9)).toBe(false)
    expect(await watch(secondLearner, clip, 1)).toBe(true)
  })

  it("refuses a report on another viewer's session", async () => {
    const video = await longVideo()
    const session = randomUUID()
    await reportWatch({ claims: learner.claims }, { session, video, played: 0 })
    expect((await refusal(reportWatch({ claims: otherCreator.claims }, { session, video, played: 5 }))).status).toBe(404)
  })

  it('counts a visitor by their browser key, once an hour', async () => {
    const video = await longVideo()
    const key = randomUUID()
    const session = randomUUID()
    await reportWatch({ browserKey: key }, { session, video, played: 0 })
    await age(session)
    expect((await reportWatch({ browserKey: key }, { session, video, played: 11 })).counted).toBe(true)
    const again = randomUUID()
    await reportWatch({ browserKey: key }, { session: again, video, played: 0 })
    await age(again)
    expect((await reportWatch({ browserKey: key }, { session: again, video, played: 11 })).counted).toBe(false)
    expect(await viewCount(video)).toBe(1)
  })

  describe('routes', () => {
    it('POST /views/report answers { counted } for a signed-in viewer and sets a browser key for a visitor', async () => {
      const video = await longVideo()
      const cookie = await sessionCookieHeader(fixture, learner)
      const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
        reportAction({
          request: new Request('http://lumen.test/views/report', { method: 'POST', body: new URLSearchParams(fields), headers }),
          params: {},
          context: { clientIp: '127.0.0.1' },
        })
      const signedIn = await post({ session: randomUUID(), video, played: '0' }, { Cookie: cookie })
      expect(signedIn.status).toBe(200)
      expect(await signedIn.json()).toEqual({ counted: false })

      const visitor = await post({ session: randomUUID(), video, played: '0' })
      expect(visitor.status).toBe(200)
      expect(visitor.headers.getSetCookie().join(';')).toMatch(/lumen_vk=[0-9a-f-]{36}; Path=\/views;.*HttpOnly/)

      const bad = await post({ session: randomUUID(), video: randomUUID(), played: '0' }, { Cookie: cookie })
      expect(bad.status).toBe(404)
      expect(await bad.json()).toMatchObject({ error: DASHBOARD_MESSAGES.videoNotFound })
    })

    it('GET /views/page/:id counts a same-origin page view once an hour, and not a cross-site one', async () => {
      const video = await longVideo()
      const cookie = await sessionCookieHeader(fixture, learner)
      const get = (site: string) =>
        pixelLoader({
          request: new Request(`http://lumen.test/views/page/${video}`, { headers: { Cookie: cookie, 'Sec-Fetch-Site': site } }),
          params: { id: video },
          context: { clientIp: '127.0.0.1' },
        })
      const crossSite = await get('cross-site')
      expect(crossSite.headers.get('Content-Type')).toBe('image/gif')
      expect(await viewCount(video)).toBe(0)
      await get('same-origin')
      await get('same-origin')
      expect(await viewCount(video)).toBe(1)
    })
  })
})
