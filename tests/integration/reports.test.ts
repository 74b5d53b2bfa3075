import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPORT_DUPLICATE, REPORT_FLASH_SUCCESS, REPORT_THANKS, type ReportActionData } from '../../app/components/report-dialog'
import { REPORT_MESSAGES, SPARK_MENU_REPORT } from '../../app/lib/schemas/report'
import { action, loader } from '../../app/routes/_me+/report'
import { asCaller } from '../../app/server/db.server'
import { createReport, isOwnContent } from '../../app/server/reports.server'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Reporting content (app/routes/_me+/report.tsx over app/server/reports.server.ts),
 * walked the PeerTube way: signed out (to /login), bad input (400), content
 * that is not there or not visible (404), a duplicate (a friendly answer,
 * no second row), then success — for the modal's fetcher, the spark menu's
 * quick report and the no-JS page — and who can read the report afterwards.
 */
type DataResult = {
  type: 'DataWithResponseInit'
  data: ReportActionData
  init: { status?: number; headers?: HeadersInit } | null
}

describe('reports', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let otherLearner: Person
  let admin: Person
  let cookie: string
  let video: string
  let privateVideo: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, otherLearner, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
    video = await fixture.makeVideo(creator)
    privateVideo = await fixture.makeVideo(creator, { isPublic: false })
    cookie = await sessionCookieHeader(fixture, learner)
  })

  afterAll(async () => {
    await fixture?.close()
  })

  function post(fields: Record<string, string>, headers: Record<string, string> = { Cookie: cookie }) {
    const request = new Request('http://lumen.test/report', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
    })
    return action({ request, params: {}, context: { clientIp: '127.0.0.1' } })
  }

  /** The action's answer as status + data, or status + headers for a redirect (returned or thrown). */
  async function answer(fields: Record<string, string>, headers?: Record<string, string>) {
    let result: unknown
    try {
      result = await post(fields, headers)
    } catch (thrown) {
      result = thrown
    }
    if (result instanceof Response)
      return { status: result.status, location: result.headers.get('Location'), headers: result.headers }
    const data = result as DataResult
    return { status: data.init?.status ?? 200, data: data.data }
  }

  async function reportsOf(contentId: string, reader: Person = admin) {
    return asCaller(reader.claims, (tx) =>
      tx
        .selectFrom('reports')
        .select(['reporter_id', 'reason', 'details', 'status', 'content_type'])
        .where('content_id', '=', contentId)
        .execute(),
    )
  }

  it('sends a signed-out visitor to /login, remembering the report page', async () => {
    const result = await answer({ surface: 'dialog', contentType: 'video', contentId: video, reason: 'spam' }, {})
    expect(result.status).toBe(302)
    expect(result.location).toMatch(/^\/login\?redirectTo=%2Freport/)
    expect(await reportsOf(video)).toEqual([])
  })

  it('refuses a report without a reason with the spec’s message (400) and stores nothing', async () => {
    for (const reason of [undefined, '', 'not-a-reason']) {
      const fields: Record<string, string> = { surface: 'dialog', contentType: 'video', contentId: video, details: 'x' }
      if (reason !== undefined) fields.reason = reason
      const result = await answer(fields)
      expect(result.status).toBe(400)
      expect(result.data).toMatchObject({ ok: false, fieldErrors: { reason: REPORT_MESSAGES.reason } })
    }
    expect(await reportsOf(video)).toEqual([])
  })

  it('refuses details over 2,000 characters or with a NUL byte (400), never a 500', async () => {
    for (const details of ['x'.repeat(2001), 'bad\u0000byte']) {
      const result = await answer({ surface: 'dialog', contentType: 'video', contentId: video, reason: 'spam', details })
      expect(result.status).toBe(400)
      expect(result.data && !result.data.ok && result.data.fieldErrors?.details).toBeTruthy()
    }
  })

  it('answers 404 for content that does not exist, is malformed, or is private to someone else', async () => {
    for (const target of [
      { contentType: 'video', contentId: '00000000-0000-4000-8000-000000000000' },
      { contentType: 'video', contentId: "1' OR 1=1--" },
      { contentType: 'playlist', contentId: video },
      { contentType: 'video', contentId: privateVideo },
    ]) {
      const result = await answer({ surface: 'dialog', reason: 'spam', ...target })
      expect(result.status, JSON.stringify(target)).toBe(404)
      expect(result.data).toMatchObject({ ok: false, formError: REPORT_MESSAGES.content })
    }
    expect(await reportsOf(privateVideo)).toEqual([])
  })

  it('stores the modal’s report, answers the spec’s thanks, and a second one is a friendly duplicate', async () => {
    const first = await answer({
      surface: 'dialog',
      contentType: 'video',
      contentId: video,
      reason: 'misinformation',
      details: '  The dates are wrong.  ',
    })
    expect(first).toEqual({ status: 200, data: { ok: true, outcome: 'created', message: REPORT_THANKS } })
    const again = await answer({ surface: 'dialog', contentType: 'video', contentId: video, reason: 'spam' })
    expect(again).toEqual({ status: 200, data: { ok: true, outcome: 'duplicate', message: REPORT_DUPLICATE } })
    expect(await reportsOf(video)).toEqual([
      {
        reporter_id: learner.id,
        reason: 'misinformation',
        details: 'The dates are wrong.',
        status: 'pending',
        content_type: 'video',
      },
    ])
  })

  it('lets the reporter and admins read the report, and nobody else', async () => {
    expect(await reportsOf(video, admin)).toHaveLength(1)
    expect(await reportsOf(video, learner)).toHaveLength(1)
    expect(await reportsOf(video, otherLearner)).toEqual([])
    expect(await reportsOf(video, creator)).toEqual([])
  })

  it('redirects the no-JS page back with the flash, and only to a same-site path', async () => {
    const otherCookie = await sessionCookieHeader(fixture, otherLearner)
    const result = await answer(
      { surface: 'page', contentType: 'video', contentId: video, reason: 'harmful', returnTo: '/feed?search=light' },
      { Cookie: otherCookie },
    )
    expect(result.status).toBe(302)
    expect(result.location).toBe('/feed?search=light')
    expect(result.headers?.getSetCookie().some((value) => value.startsWith('lumen_flash='))).toBe(true)

    const second = await answer(
      { surface: 'page', contentType: 'video', contentId: video, reason: 'harmful', returnTo: 'https://evil.example/' },
      { Cookie: otherCookie },
    )
    expect(second.location).toBe('/feed')
  })

  it('stores the spark menu’s one-tap report with the fixed reason text', async () => {
    const spark = await fixture.makeVideo(creator)
    const result = await answer({ surface: 'quick', contentType: 'video', contentId: spark, ...SPARK_MENU_REPORT })
    expect(result).toMatchObject({ status: 200, data: { ok: true, outcome: 'created' } })
    expect(await reportsOf(spark)).toEqual([
      expect.objectContaining({ reason: 'inappropriate', details: 'inappropriate content' }),
    ])
  })

  it('shows the report page only to signed-in users and only for content they can see', async () => {
    const get = async (query: string, headers: Record<string, string> = { Cookie: cookie }) => {
      try {
        return await loader({
          request: new Request(`http://lumen.test/report?${query}`, { headers }),
          params: {},
          context: { clientIp: '' },
        })
      } catch (thrown) {
        return thrown
      }
    }
    const signedOut = (await get(`contentType=video&contentId=${video}`, {})) as Response
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('Location')).toMatch(/^\/login/)
    expect(((await get(`contentType=video&contentId=${privateVideo}`)) as Response).status).toBe(404)
    expect(((await get('contentType=video&contentId=nope')) as Response).status).toBe(404)
    const page = (await get(`contentType=video&contentId=${video}&returnTo=/sparks`)) as DataResult & {
      data: { target: { label: string }; returnTo: string }
    }
    expect(page.data.target.label).toMatch(/^Optics/)
    expect(page.data.returnTo).toBe('/sparks')
  })

  it('says “duplicate” in the domain function too, and the flash text is the spec’s', async () => {
    expect(await createReport(learner.claims, { contentType: 'video', contentId: video, reason: 'other', details: '' })).toEqual({
      status: 'duplicate',
    })
    expect(REPORT_FLASH_SUCCESS).toBe('Content reported successfully.')
  })

  it('refuses a report of one’s own content (403 with the reason), in the domain function and on the page', async () => {
    const own = { contentType: 'video' as const, contentId: video, reason: 'spam' as const, details: '' }
    expect(await createReport(creator.claims, own)).toEqual({ status: 'own' })
    expect(await isOwnContent(creator.claims, own)).toBe(true)
    expect(await isOwnContent(learner.claims, own)).toBe(false)
    const creatorCookie = await sessionCookieHeader(fixture, creator)
    const refused = await answer(
      { surface: 'dialog', contentType: 'video', contentId: video, reason: 'spam' },
      { Cookie: creatorCookie },
    )
    expect(refused).toMatchObject({ status: 403, data: { ok: false, formError: REPORT_MESSAGES.own } })
    let page: unknown
    try {
      page = await loader({
        request: new Request(`http://lumen.test/report?contentType=video&contentId=${video}`, {
          headers: { Cookie: creatorCookie },
        }),
        params: {},
        context: { clientIp: '' },
      })
    } catch (thrown) {
      page = thrown
    }
    expect((page as Response).status).toBe(403)
    expect((await reportsOf(video)).some((report) => report.reporter_id === creator.id)).toBe(false)
  })
})
