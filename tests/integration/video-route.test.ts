import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action, loader } from '../../app/routes/_watch+/video.$id'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * /video/:id's loader and action as the server runs them (session cookies
 * in, status and data or redirect out): for every action, signed out (the
 * guard's redirect to /login), 400, 403 and 404 before the success case —
 * for a plain form post (redirect with a flash) and a scripted one (data).
 */

interface Outcome {
  status: number
  data?: Record<string, unknown>
  location?: string | null
  setCookie?: string[]
}

/** What a loader or action produced: a Response (redirect, thrown or not) or `data()` with its init. */
async function settle(run: () => Promise<unknown>): Promise<Outcome> {
  let value: unknown
  try {
    value = await run()
  } catch (thrown) {
    value = thrown
  }
  if (value instanceof Response) {
    return { status: value.status, location: value.headers.get('Location'), setCookie: value.headers.getSetCookie() }
  }
  const wrapped = value as { type?: string; data?: unknown; init?: { status?: number } | null }
  if (wrapped?.type === 'DataWithResponseInit') {
    return { status: wrapped.init?.status ?? 200, data: wrapped.data as Record<string, unknown> }
  }
  return { status: 200, data: value as Record<string, unknown> }
}

describe('/video/:id route', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let cookies: { creator: string; learner: string }
  let publicVideo: string
  let privateVideo: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner] = await Promise.all([fixture.makeUser('creator'), fixture.makeUser('user')])
    publicVideo = await fixture.makeVideo(creator)
    privateVideo = await fixture.makeVideo(creator, { isPublic: false })
    cookies = { creator: await sessionCookieHeader(fixture, creator), learner: await sessionCookieHeader(fixture, learner) }
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const load = (id: string, cookie?: string) =>
    settle(() =>
      loader({
        request: new Request(`http://lumen.test/video/${id}`, { headers: cookie ? { Cookie: cookie } : {} }),
        params: { id },
        context: { clientIp: '127.0.0.1' },
      }),
    )

  const post = (id: string, fields: Record<string, string>, cookie?: string) =>
    settle(() =>
      action({
        request: new Request(`http://lumen.test/video/${id}`, {
          method: 'POST',
          body: new URLSearchParams(fields),
          headers: cookie ? { Cookie: cookie } : {},
        }),
        params: { id },
        context: { clientIp: '127.0.0.1' },
      }),
    )

  describe('loader', () => {
    it('sends a signed-out visitor to /login, remembering the video', async () => {
      expect(await load(publicVideo)).toMatchObject({
        status: 302,
        location: `/login?redirectTo=${encodeURIComponent(`/video/${publicVideo}`)}`,
      })
    })

    it('answers 404 for a private video of someone else and for unknown ids', async () => {
      expect((await load(privateVideo, cookies.learner)).status).toBe(404)
      expect((await load(randomUUID(), cookies.learner)).status).toBe(404)
      expect((await load('short', cookies.learner)).status).toBe(404)
    })

    it('shows the video with its media URLs and counts no view itself (the player does, ADR 0015)', async () => {
      const video = await fixture.makeVideo(creator)
      const first = await load(video, cookies.learner)
      expect(first.status).toBe(200)
      expect(first.data).toMatchObject({
        video: { id: video, views: 0, canDelete: false },
        media: { hlsUrl: `/media/videos/${video}/hls/master.m3u8`, mp4Url: `/media/videos/${video}/video.mp4` },
        share: { ok: true, url: expect.stringMatching(new RegExp(`/video/${video}$`)) },
      })
      expect((await load(video, cookies.creator)).data).toMatchObject({ video: { views: 0, canDelete: true } })
    })

    it('says whether more qualities are coming, for the page to tell the creator (ADR 0025)', async () => {
      const video = await fixture.makeVideo(creator)
      expect((await load(video, cookies.creator)).data).toMatchObject({ video: { isOwner: true, moreQualitiesPending: false } })
      const pool = fixture.running.database.pool
      await pool.query(
        `update public.videos set more_qualities_pending = true, mp4_path = 'videos/' || id || '/video-360p.mp4' where id = $1`,
        [video],
      )
      expect((await load(video, cookies.creator)).data).toMatchObject({
        video: { isOwner: true, moreQualitiesPending: true },
        media: { mp4Url: `/media/videos/${video}/video-360p.mp4` },
      })
      expect((await load(video, cookies.learner)).data).toMatchObject({ video: { isOwner: false } })
    })
  })

  describe('action', () => {
    it('sends a signed-out visitor to /login', async () => {
      expect((await post(publicVideo, { intent: 'like' })).status).toBe(302)
    })

    it('refuses an unknown intent with 400', async () => {
      expect(await post(publicVideo, { intent: 'launch' }, cookies.learner)).toMatchObject({ status: 400, data: { ok: false } })
    })

    it('like: 404 for a hidden video; data for a script, a redirect for a plain form', async () => {
      expect(await post(privateVideo, { intent: 'like', like: 'true', js: '1' }, cookies.learner)).toMatchObject({
        status: 404,
        data: { ok: false, formError: 'Video not found' },
      })
      expect(await post(publicVideo, { intent: 'like', like: 'true', js: '1' }, cookies.learner)).toMatchObject({
        status: 200,
        data: { ok: true, intent: 'like', likes: 1, hasLiked: true },
      })
      expect(await post(publicVideo, { intent: 'like', like: 'false' }, cookies.learner)).toMatchObject({
        status: 302,
        location: `/video/${publicVideo}#actions`,
      })
      expect((await load(publicVideo, cookies.learner)).data).toMatchObject({ video: { likes: 0, hasLiked: false } })
    })

    it('comment: 400 with the message and the text kept, 404 for a hidden video, then a flash', async () => {
      expect(await post(publicVideo, { intent: 'comment', body: '   ' }, cookies.learner)).toMatchObject({
        status: 400,
        data: { ok: false, formError: 'Please enter a comment', values: { body: '   ' } },
      })
      expect((await post(privateVideo, { intent: 'comment', body: 'Hi' }, cookies.learner)).status).toBe(404)
      const added = await post(publicVideo, { intent: 'comment', body: 'Clear and calm, thank you' }, cookies.learner)
      expect(added).toMatchObject({ status: 302, location: `/video/${publicVideo}#comments` })
      expect(added.setCookie!.some((cookie) => cookie.startsWith('lumen_flash='))).toBe(true)
    })

    it('delete-comment and delete-quote: 404 for unknown ones, 403 for someone else’s', async () => {
      expect(await post(publicVideo, { intent: 'delete-comment', targetId: randomUUID() }, cookies.learner)).toMatchObject({
        status: 404,
        data: { formError: 'Comment not found' },
      })
      expect(await post(publicVideo, { intent: 'delete-quote', targetId: randomUUID() }, cookies.learner)).toMatchObject({
        status: 404,
        data: { formError: 'Quote not found' },
      })
      const { rows } = await fixture.running.database.pool.query<{ id: string }>(
        `insert into public.quotes (user_id, video_id, type, body) values ($1, $2, 'text', 'Mine') returning id`,
        [creator.id, publicVideo],
      )
      expect(await post(publicVideo, { intent: 'delete-quote', targetId: rows[0]!.id, js: '1' }, cookies.learner)).toMatchObject({
        status: 403,
        data: { formError: 'You can only delete your own quotes' },
      })
      expect(await post(publicVideo, { intent: 'delete-quote', targetId: rows[0]!.id, js: '1' }, cookies.creator)).toMatchObject({
        status: 200,
        data: { ok: true, message: 'Quote deleted successfully' },
      })
    })

    it('delete: 403 for others, 404 for hidden, 400 unconfirmed, then to /dashboard with the flash', async () => {
      const video = await fixture.makeVideo(creator)
      expect(await post(video, { intent: 'delete', confirm: 'yes' }, cookies.learner)).toMatchObject({
        status: 403,
        data: { formError: 'You can only delete your own videos' },
      })
      expect((await post(privateVideo, { intent: 'delete', confirm: 'yes' }, cookies.learner)).status).toBe(404)
      expect(await post(video, { intent: 'delete' }, cookies.creator)).toMatchObject({
        status: 400,
        data: { formError: 'Please confirm that you want to delete this video' },
      })
      const deleted = await post(video, { intent: 'delete', confirm: 'yes' }, cookies.creator)
      expect(deleted).toMatchObject({ status: 302, location: '/dashboard' })
      expect(deleted.setCookie!.some((cookie) => cookie.startsWith('lumen_flash='))).toBe(true)
      expect((await load(video, cookies.creator)).status).toBe(404)
    })
  })
})
