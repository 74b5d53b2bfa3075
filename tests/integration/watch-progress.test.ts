import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_MESSAGES } from '../../app/lib/schemas/api'
import { PROGRESS_MESSAGES, resumeMoment } from '../../app/lib/schemas/progress'
import { action as reportAction } from '../../app/routes/_watch+/views.report'
import { listVideos } from '../../app/server/feed/lists.server'
import {
  clearHistory,
  getWatchPosition,
  listContinueWatching,
  listHistory,
  removeFromHistory,
  saveWatchPosition,
} from '../../app/server/progress.server'
import { call, tokenFor } from './support/api-client'
import { refusal } from './support/refusal'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Resume where you left off (ADR 0034) against PostgreSQL: the player's
 * progress reports carry the position, saved in the same batched call that
 * counts the view (nothing for visitors); History, Continue watching and the
 * cards read it; remove and clear; the API twin; and nobody else reads a
 * learner's positions, through /api or /rest/v1.
 */
describe('watch progress', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let other: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, other] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const pool = () => fixture.running.database.pool
  const lesson = async (seconds = 300, options: { isPublic?: boolean } = {}) => {
    const id = await fixture.makeVideo(creator, options)
    await pool().query('update public.videos set duration_seconds = $2 where id = $1', [id, seconds])
    return id
  }
  const rows = async (video: string) =>
    (
      await pool().query<{ user_id: string; position_seconds: string }>(
        'select * from public.watch_progress where video_id = $1',
        [video],
      )
    ).rows

  describe('the player’s reports (POST /views/report)', () => {
    const post = (fields: Record<string, string>, cookie?: string) =>
      reportAction({
        request: new Request('http://lumen.test/views/report', {
          method: 'POST',
          body: new URLSearchParams(fields),
          headers: cookie ? { Cookie: cookie } : {},
        }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      })

    it('saves a signed-in learner’s position with the report, one row however many reports', async () => {
      const video = await lesson()
      const cookie = await sessionCookieHeader(fixture, learner)
      const session = randomUUID()
      expect((await post({ session, video, played: '0', position: '0' }, cookie)).status).toBe(200)
      expect((await post({ session, video, played: '4', position: '64.25', duration: '300' }, cookie)).status).toBe(200)
      expect((await post({ session, video, played: '0', position: '100.5' }, cookie)).status).toBe(200)
      const saved = await rows(video)
      expect(saved).toHaveLength(1)
      expect(Number(saved[0]!.position_seconds)).toBe(100.5)
      expect(await getWatchPosition(learner.claims, video)).toMatchObject({
        positionSeconds: 100.5,
        durationSeconds: 300,
        finished: false,
      })
    })

    it('a report without a position (an older page) counts as before and moves nothing', async () => {
      const video = await lesson()
      const cookie = await sessionCookieHeader(fixture, learner)
      const session = randomUUID()
      await post({ session, video, played: '0', position: '42' }, cookie)
      expect((await post({ session, video, played: '1' }, cookie)).status).toBe(200)
      expect((await getWatchPosition(learner.claims, video))?.positionSeconds).toBe(42)
    })

    it('a repeat within 1 s of the position saved in the last minute writes nothing; a move, finishing or a later visit does (ADR 0056)', async () => {
      const video = await lesson(200)
      const cookie = await sessionCookieHeader(fixture, learner)
      const session = randomUUID()
      const saved = async () =>
        (
          await pool().query<{ position_seconds: string; updated_at: string | Date; xmin: string }>(
            'select position_seconds, updated_at, xmin::text from public.watch_progress where user_id = $1 and video_id = $2',
            [learner.id, video],
          )
        ).rows[0]!
      await post({ session, video, played: '0', position: '50' }, cookie)
      const first = await saved()
      // Paused, then the page hidden, then left: the same place again (and a hair further) is not written.
      expect((await post({ session, video, played: '0', position: '50.4' }, cookie)).status).toBe(200)
      expect((await post({ session, video, played: '0', position: '49.2' }, cookie)).status).toBe(200)
      expect(await saved()).toEqual(first)
      // A second further is.
      await post({ session, video, played: '0', position: '51' }, cookie)
      expect(Number((await saved()).position_seconds)).toBe(51)
      expect((await saved()).xmin).not.toBe(first.xmin)
      // Back a minute later at the same place: written, so History's order has the visit.
      await pool().query(`update public.watch_progress set updated_at = now() - interval '2 minutes' where video_id = $1`, [
        video,
      ])
      const old = await saved()
      await post({ session: randomUUID(), video, played: '0', position: '51.3' }, cookie)
      expect(Number((await saved()).position_seconds)).toBe(51.3)
      expect(new Date((await saved()).updated_at).getTime()).toBeGreaterThan(new Date(old.updated_at).getTime())
      // Finishing is always written, however little it moved (190 is 95 % of 200).
      await post({ session, video, played: '0', position: '189.5' }, cookie)
      expect(await getWatchPosition(learner.claims, video)).toMatchObject({ positionSeconds: 189.5, finished: false })
      await post({ session, video, played: '0', position: '190' }, cookie)
      expect(await getWatchPosition(learner.claims, video)).toMatchObject({ positionSeconds: 190, finished: true })
    })

    it('as the player reports while playing (the position every third report) and on leaving: the last position sent is the one saved', async () => {
      const video = await lesson(600)
      const cookie = await sessionCookieHeader(fixture, learner)
      const session = randomUUID()
      // Reports every 4 s; the position rides on the first and then once it moved 10 s (use-watch-reporter).
      await post({ session, video, played: '0', position: '0', duration: '600' }, cookie)
      await post({ session, video, played: '4', tenths: '1', duration: '600' }, cookie)
      await post({ session, video, played: '4', tenths: '1', duration: '600' }, cookie)
      await post({ session, video, played: '4', tenths: '1', position: '12', duration: '600' }, cookie)
      expect((await getWatchPosition(learner.claims, video))?.positionSeconds).toBe(12)
      await post({ session, video, played: '4', tenths: '1', duration: '600' }, cookie)
      expect((await getWatchPosition(learner.claims, video))?.positionSeconds).toBe(12)
      // Leaving the page (the beacon): where playback was.
      await post({ session, video, played: '2.5', tenths: '1', position: '18.5', duration: '600' }, cookie)
      expect(await getWatchPosition(learner.claims, video)).toMatchObject({ positionSeconds: 18.5, finished: false })
      expect(await rows(video)).toHaveLength(1)
    })

    it('a report on a video the learner cannot watch is refused and saves nothing, the position checked first', async () => {
      const hidden = await lesson(300, { isPublic: false })
      const cookie = await sessionCookieHeader(fixture, learner)
      const answer = await post({ session: randomUUID(), video: hidden, played: '0', position: '30' }, cookie)
      expect(answer.status).toBe(404)
      expect(await rows(hidden)).toEqual([])
    })

    it('someone else’s watch session is refused and the position in the same report is not saved', async () => {
      const video = await lesson()
      const session = randomUUID()
      await post({ session, video, played: '0', position: '5' }, await sessionCookieHeader(fixture, other))
      const answer = await post({ session, video, played: '0', position: '40' }, await sessionCookieHeader(fixture, learner))
      expect(answer.status).toBe(404)
      expect((await rows(video)).map((row) => row.user_id)).toEqual([other.id])
    })

    it('saves nothing for a visitor, whose report still counts toward views', async () => {
      const video = await lesson()
      const answer = await post({ session: randomUUID(), video, played: '0', position: '30' })
      expect(answer.status).toBe(200)
      expect(await rows(video)).toEqual([])
    })

    it('refuses an unreadable position like any unreadable report, and saves nothing', async () => {
      const video = await lesson()
      const cookie = await sessionCookieHeader(fixture, learner)
      expect((await post({ session: randomUUID(), video, played: '0', position: '-3' }, cookie)).status).toBe(400)
      expect(await rows(video)).toEqual([])
    })
  })

  it('past 95 % counts as finished; a finished or barely started video offers no resume', async () => {
    const video = await lesson(200)
    expect(await saveWatchPosition(learner.claims, video, { position: 189 })).toMatchObject({ finished: false })
    expect(resumeMoment(await getWatchPosition(learner.claims, video))).toBe(189)
    expect(await saveWatchPosition(learner.claims, video, { position: 190 })).toMatchObject({ finished: true })
    expect(resumeMoment(await getWatchPosition(learner.claims, video))).toBeNull()
    expect(await saveWatchPosition(learner.claims, video, { position: 4 })).toMatchObject({ finished: false })
    expect(resumeMoment(await getWatchPosition(learner.claims, video))).toBeNull()
  })

  it('refuses videos the learner cannot watch and bad positions', async () => {
    const hidden = await lesson(300, { isPublic: false })
    expect(await refusal(saveWatchPosition(learner.claims, hidden, { position: 10 }))).toEqual({
      status: 404,
      message: PROGRESS_MESSAGES.videoNotFound,
    })
    expect((await refusal(saveWatchPosition(learner.claims, 'nope', { position: 10 }))).status).toBe(404)
    expect(await refusal(saveWatchPosition(learner.claims, hidden, { position: 'soon' }))).toEqual({
      status: 400,
      message: PROGRESS_MESSAGES.badPosition,
    })
  })

  it('History, Continue watching and the cards: the learner’s own, latest first; remove and clear', async () => {
    const person = await fixture.makeUser('user')
    const [first, second, finished, barely] = [await lesson(), await lesson(), await lesson(100), await lesson()]
    await saveWatchPosition(person.claims, first, { position: 60 })
    await saveWatchPosition(person.claims, second, { position: 120 })
    await saveWatchPosition(person.claims, finished, { position: 100 })
    await saveWatchPosition(person.claims, barely, { position: 2 })
    await saveWatchPosition(other.claims, first, { position: 10 })

    const history = await listHistory(person.claims, { limit: 3 })
    expect(history.items.map((item) => item.id)).toEqual([barely, finished, second])
    expect(history.nextCursor).not.toBeNull()
    const rest = await listHistory(person.claims, { limit: 3, cursor: history.nextCursor })
    expect(rest.items.map((item) => [item.id, item.progress.positionSeconds])).toEqual([[first, 60]])

    expect((await listContinueWatching(person.claims)).map((item) => item.id)).toEqual([second, first])

    const feed = await listVideos(person.claims, { type: 'video', limit: 50 })
    expect(feed.items.find((item) => item.id === second)?.progress).toMatchObject({ positionSeconds: 120, finished: false })
    expect(feed.items.find((item) => item.id === finished)?.progress?.finished).toBe(true)
    const othersFeed = await listVideos(other.claims, { type: 'video', limit: 50 })
    expect(othersFeed.items.find((item) => item.id === second)?.progress).toBeUndefined()
    expect(othersFeed.items.find((item) => item.id === first)?.progress?.positionSeconds).toBe(10)

    expect(await removeFromHistory(person.claims, second)).toBe(PROGRESS_MESSAGES.removed)
    expect((await listContinueWatching(person.claims)).map((item) => item.id)).toEqual([first])
    expect(await clearHistory(person.claims)).toBe(PROGRESS_MESSAGES.cleared)
    expect((await listHistory(person.claims, { limit: 10 })).items).toEqual([])
    expect(await getWatchPosition(other.claims, first)).toMatchObject({ positionSeconds: 10 })
  })

  it('deleting the video removes its positions', async () => {
    const video = await lesson()
    await saveWatchPosition(learner.claims, video, { position: 50 })
    await pool().query('delete from public.videos where id = $1', [video])
    expect(await rows(video)).toEqual([])
  })

  describe('/api', () => {
    it('PUT and GET /videos/{id}/progress, GET and DELETE /users/{id}/history; someone else’s is 403', async () => {
      const person = await fixture.makeUser('user')
      const token = await tokenFor(fixture, person)
      const video = await lesson()
      expect((await call('PUT', `/videos/${video}/progress`, { json: { position: 30 } })).status).toBe(401)
      expect((await call('PUT', `/videos/${video}/progress`, { token, json: { position: -1 } })).status).toBe(400)
      expect((await call('PUT', `/videos/${randomUUID()}/progress`, { token, json: { position: 1 } })).status).toBe(404)
      expect((await call('GET', `/videos/${video}/progress`, { token })).json).toEqual({ progress: null })
      const saved = await call('PUT', `/videos/${video}/progress`, { token, json: { position: 75.5 } })
      expect(saved.status).toBe(200)
      expect(saved.json.progress).toMatchObject({ position: 75.5, duration: 300, finished: false })
      expect((await call('GET', `/videos/${video}/progress`, { token })).json.progress).toMatchObject({ position: 75.5 })

      const history = await call('GET', `/users/${person.id}/history`, { token })
      expect(history.status).toBe(200)
      expect(history.body).toEqual([
        expect.objectContaining({ _id: video, progress: expect.objectContaining({ position: 75.5 }) }),
      ])

      const otherToken = await tokenFor(fixture, other)
      const refused = await call('GET', `/users/${person.id}/history`, { token: otherToken })
      expect(refused.status).toBe(403)
      expect(refused.json.error).toBe(API_MESSAGES.ownHistoryOnly)
      expect((await call('DELETE', `/users/${person.id}/history`, { token: otherToken })).status).toBe(403)
      expect((await call('GET', `/videos/${video}/progress`, { token: otherToken })).json).toEqual({ progress: null })

      expect((await call('DELETE', `/users/${person.id}/history/${video}`, { token })).json.message).toBe(
        PROGRESS_MESSAGES.removed,
      )
      await call('PUT', `/videos/${video}/progress`, { token, json: { position: 12 } })
      expect((await call('DELETE', `/users/${person.id}/history`, { token })).json.message).toBe(PROGRESS_MESSAGES.cleared)
      expect((await call('GET', `/users/${person.id}/history`, { token })).body).toEqual([])
    })

    it('/rest/v1 shows a learner’s positions to nobody else: not another learner, the creator or a visitor', async () => {
      const video = await lesson()
      await saveWatchPosition(learner.claims, video, { position: 33 })
      const read = async (token: string | null) => {
        const response = await fetch(`${fixture.running.url}/rest/v1/watch_progress?select=user_id,position_seconds`, {
          headers: { apikey: fixture.running.anonKey, Authorization: `Bearer ${token ?? fixture.running.anonKey}` },
        })
        return { status: response.status, body: (await response.json()) as unknown }
      }
      expect((await read(await tokenFor(fixture, learner))).body).toEqual(
        expect.arrayContaining([expect.objectContaining({ user_id: learner.id })]),
      )
      const mine = (await read(await tokenFor(fixture, learner))).body as { user_id: string }[]
      expect(mine.every((row) => row.user_id === learner.id)).toBe(true)
      expect((await read(await tokenFor(fixture, other))).body).not.toEqual(
        expect.arrayContaining([expect.objectContaining({ user_id: learner.id })]),
      )
      expect((await read(await tokenFor(fixture, creator))).body).toEqual([])
      const visitor = await read(null)
      expect(Array.isArray(visitor.body) && visitor.body.length > 0).toBe(false)
      const write = await fetch(`${fixture.running.url}/rest/v1/watch_progress`, {
        method: 'POST',
        headers: {
          apikey: fixture.running.anonKey,
          Authorization: `Bearer ${await tokenFor(fixture, other)}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ user_id: other.id, video_id: video, position_seconds: 1 }),
      })
      expect(write.ok).toBe(false)
    })
  })
})
