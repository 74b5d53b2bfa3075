import type { Session } from '@supabase/supabase-js'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action as checkStatus, STATUS_MESSAGES } from '../../app/routes/_auth+/account.check-status'
import { loader as unknownPath } from '../../app/routes/$'
import { loader as dashboardLoader } from '../../app/routes/_studio+/dashboard'
import { action as feedbackAction, loader as feedbackLoader } from '../../app/routes/_me+/feedback'
import { action as logout, loader as logoutLoader, SIGNED_OUT_MESSAGE } from '../../app/routes/_auth+/logout'
import { loader as rootLoader } from '../../app/root'
import { FEEDBACK_MESSAGES } from '../../app/lib/schemas/feedback'
import { asCaller, asServiceRole } from '../../app/server/db.server'
import { readFeedback, sendFeedback } from '../../app/server/feedback.server'
import { getSession } from '../../app/server/session.server'
import { claimsFor } from '../support/databases'
import { clearsCookie, context, setCookies, startShellHarness, thrown, type Account, type ShellHarness } from './shell-harness'

/**
 * The shell's loaders and actions called the way Remix calls them, with
 * real sessions against the stand-in: sign-out, Check Status, feedback, the
 * dashboard and unknown paths — status, Location, cookies, stored rows.
 */
type DataResult<T> = { data: T; init: ResponseInit | null }
const args = (request: Request) => ({ request, context, params: {} })

/** The cookies a redirect's Set-Cookie lines leave in the browser, as a Cookie header. */
function cookiesAfter(response: Response, before = ''): string {
  const jar = new Map(
    before
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
  )
  for (const [name, line] of setCookies(response.headers)) {
    if (clearsCookie(line)) jar.delete(name)
    else jar.set(name, line.slice(name.length + 1).split(';')[0]!)
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
}

async function flashOn(h: ShellHarness, path: string, cookie: string) {
  const result = (await rootLoader(args(h.request(path, { cookie })))) as unknown as DataResult<{
    flash: { kind: string; message: string } | null
  }>
  return result.data.flash
}

describe('the shell’s routes', () => {
  let h: ShellHarness
  let learner: Account
  let learnerSession: Session
  let admin: Account

  beforeAll(async () => {
    h = await startShellHarness()
    learner = await h.createAccount()
    learnerSession = await h.signIn(learner)
    admin = await h.createAccount()
    await asServiceRole('test: make an admin', (tx) =>
      tx.updateTable('profiles').set({ role: 'admin' }).where('id', '=', admin.id).execute(),
    )
    await h.signIn(admin)
  })
  afterAll(async () => {
    await h?.close()
  })

  describe('root loader', () => {
    it('gives the shell the user (rights from the database, no email: ADR 0030) and no flash', async () => {
      const result = (await rootLoader(args(h.request('/', { session: learnerSession })))) as unknown as DataResult<{
        user: Record<string, unknown>
        flash: unknown
      }>
      expect(result.data.user).toEqual({
        id: learner.id,
        username: learner.username,
        role: 'user',
        isVerified: false,
        avatarUrl: null,
      })
      expect(result.data.flash).toBeNull()
    })

    it('sends the session’s refreshed cookies and the flash’s removal together', async () => {
      const account = await h.createAccount()
      const fresh = await h.signIn(account)
      const stale = { ...fresh, expires_at: Math.floor(Date.now() / 1000) - 30 }
      const signedOut = await logout(args(h.request('/logout', { session: await h.signIn(account), form: {} })))
      const flashCookie = cookiesAfter(signedOut)
        .split('; ')
        .find((pair) => pair.startsWith('lumen_flash='))!

      const result = (await rootLoader(
        args(h.request('/login', { cookie: `${h.cookieHeader(stale)}; ${flashCookie}` })),
      )) as unknown as DataResult<{ user: { id: string } | null; flash: { message: string } | null }>
      expect(result.data.user?.id).toBe(account.id)
      expect(result.data.flash?.message).toBe(SIGNED_OUT_MESSAGE)
      const names = [...setCookies(new Headers(result.init?.headers)).keys()]
      expect(names).toContain('lumen_flash')
      expect(names.some((name) => name.startsWith(h.cookieName))).toBe(true)
    })
  })

  describe('sign out', () => {
    it('ends the session at Auth, clears the cookies and opens /login with a flash', async () => {
      const account = await h.createAccount()
      const session = await h.signIn(account)
      const response = await logout(args(h.request('/logout', { session, form: {} })))
      expect(response.status).toBe(302)
      expect(response.headers.get('Location')).toBe('/login')
      const cookies = setCookies(response.headers)
      const auth = [...cookies.keys()].filter((name) => name.startsWith(h.cookieName))
      expect(auth.length).toBeGreaterThan(0)
      for (const name of auth) expect(clearsCookie(cookies.get(name))).toBe(true)

      const after = cookiesAfter(response, h.cookieHeader(session))
      expect(after).not.toContain(h.cookieName)
      expect(await flashOn(h, '/login', after)).toEqual({ kind: 'success', message: SIGNED_OUT_MESSAGE, id: expect.any(String) })
      // The refresh token is dead too: the old cookies cannot be revived.
      const { error } = await h.anon().auth.refreshSession({ refresh_token: session.refresh_token })
      expect(error).not.toBeNull()
    })

    it('is a POST only: GET /logout changes nothing and goes home', async () => {
      const response = logoutLoader()
      expect(response.status).toBe(302)
      expect(response.headers.get('Location')).toBe('/')
      expect(response.headers.getSetCookie()).toEqual([])
    })
  })

  describe('Check Status', () => {
    it('tells a pending creator they are still pending, then verified once an admin approves', async () => {
      const creator = await h.createAccount({ role: 'creator', metadata: { creator_categories: ['media'] } })
      const session = await h.signIn(creator)
      const check = () => checkStatus(args(h.request('/account/check-status', { session, form: { returnTo: '/dashboard' } })))

      const pending = await check()
      expect(pending.headers.get('Location')).toBe('/dashboard')
      expect(await flashOn(h, '/dashboard', cookiesAfter(pending))).toMatchObject({
        kind: 'info',
        message: STATUS_MESSAGES.pending,
      })

      const application = await asServiceRole('test: find the pending application', (tx) =>
        tx.selectFrom('creator_applications').select('id').where('creator_id', '=', creator.id).executeTakeFirstOrThrow(),
      )
      await asCaller(claimsFor(admin.id), (tx) =>
        sql`select public.review_creator_application(${application.id}::uuid, true, null)`.execute(tx),
      )

      const verified = await check()
      expect(await flashOn(h, '/dashboard', cookiesAfter(verified))).toMatchObject({
        kind: 'success',
        message: STATUS_MESSAGES.verified,
      })
      // The banner follows the user the shell reads: verified now.
      expect((await getSession(h.request('/dashboard', { session }), context)).user?.isVerified).toBe(true)
    })

    it('returns only to a path on this site', async () => {
      const response = await checkStatus(
        args(h.request('/account/check-status', { session: learnerSession, form: { returnTo: '//evil.example/x' } })),
      )
      expect(response.headers.get('Location')).toBe('/profile')
    })

    it('sends a visitor to sign in', async () => {
      const response = await thrown(() => checkStatus(args(h.request('/account/check-status', { form: { returnTo: '/' } }))))
      expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Faccount%2Fcheck-status')
    })
  })

  describe('feedback', () => {
    const answer = { liked: 'yes', usage: 'Sparks on the train.', recommendations: 'More physics, please.' }

    it('stores the panel’s feedback as the caller and answers ok; admins read it, the sender cannot', async () => {
      const result = (await feedbackAction(
        args(h.request('/feedback', { session: learnerSession, form: { ...answer, surface: 'panel' } })),
      )) as unknown as DataResult<{ ok: boolean }>
      expect(result.data).toEqual({ ok: true })
      expect(result.init?.status ?? 200).toBe(200)

      const seen = await readFeedback(claimsFor(admin.id))
      expect(seen[0]).toMatchObject({
        userId: learner.id,
        username: learner.username,
        liked: true,
        usage: 'Sparks on the train.',
        recommendations: 'More physics, please.',
      })
      expect(await readFeedback(claimsFor(learner.id))).toEqual([])
    })

    it('without JavaScript, sends the visitor back where they were with a thank-you flash', async () => {
      const response = (await feedbackAction(
        args(h.request('/feedback', { session: learnerSession, form: { ...answer, liked: 'no', returnTo: '/profile?tab=x' } })),
      )) as Response
      expect(response.status).toBe(302)
      expect(response.headers.get('Location')).toBe('/profile?tab=x')
      expect(await flashOn(h, '/profile', cookiesAfter(response))).toMatchObject({ message: 'Thank you for your feedback!' })
      expect((await readFeedback(claimsFor(admin.id)))[0]).toMatchObject({ liked: false })
    })

    it('refuses a missing answer with 400 and the schema’s messages, storing nothing', async () => {
      const before = (await readFeedback(claimsFor(admin.id), { limit: 200 })).length
      const result = (await feedbackAction(
        args(h.request('/feedback', { session: learnerSession, form: { usage: '  ', surface: 'panel' } })),
      )) as unknown as DataResult<{ ok: boolean; fieldErrors: Record<string, string>; values: Record<string, string> }>
      expect(result.init?.status).toBe(400)
      expect(result.data.fieldErrors).toEqual({
        liked: FEEDBACK_MESSAGES.liked,
        usage: FEEDBACK_MESSAGES.usage,
        recommendations: FEEDBACK_MESSAGES.recommendations,
      })
      expect((await readFeedback(claimsFor(admin.id), { limit: 200 })).length).toBe(before)
    })

    it('sends a visitor to sign in, remembering the feedback page', async () => {
      const page = await thrown(() => feedbackLoader(args(h.request('/feedback?returnTo=%2Fdashboard'))))
      expect(page.headers.get('Location')).toBe('/login?redirectTo=%2Ffeedback%3FreturnTo%3D%252Fdashboard')
      const post = await thrown(() => feedbackAction(args(h.request('/feedback', { form: answer }))))
      expect(post.headers.get('Location')).toBe('/login?redirectTo=%2Ffeedback')
    })

    it('never returns to another site or to the feedback page itself', async () => {
      for (const returnTo of ['https://evil.example/', '//evil.example', '/feedback?returnTo=/feedback']) {
        const result = (await feedbackLoader(
          args(h.request(`/feedback?returnTo=${encodeURIComponent(returnTo)}`, { session: learnerSession })),
        )) as unknown as DataResult<{ returnTo: string }>
        expect(result.data.returnTo).toBe('/')
      }
    })

    it('the database refuses feedback written in someone else’s name', async () => {
      await expect(
        asCaller(claimsFor(learner.id), (tx) =>
          tx.insertInto('feedback').values({ user_id: admin.id, liked: true, usage: 'x', recommendations: 'y' }).execute(),
        ),
      ).rejects.toMatchObject({ code: '42501' })
      await expect(
        sendFeedback(claimsFor(learner.id), { liked: true, usage: 'ok', recommendations: 'ok' }),
      ).resolves.toBeUndefined()
    })
  })

  describe('dashboard', () => {
    it('adds up the creator’s own videos (private and processing ones too), and nobody else’s', async () => {
      const creator = await h.createAccount({ role: 'creator' })
      const other = await h.createAccount({ role: 'creator' })
      await asServiceRole('test: seed videos for the dashboard', (tx) =>
        tx
          .insertInto('videos')
          .values([
            {
              creator_id: creator.id,
              title: 'Optics 101',
              status: 'ready',
              external_url: 'https://youtu.be/a',
              view_count: 1200,
              like_count: 30,
              comment_count: 4,
            },
            {
              creator_id: creator.id,
              title: 'Private draft',
              status: 'processing',
              is_public: false,
              external_url: 'https://youtu.be/b',
              view_count: 5,
              like_count: 1,
              comment_count: 0,
            },
            {
              creator_id: other.id,
              title: 'Someone else',
              status: 'ready',
              external_url: 'https://youtu.be/c',
              view_count: 999,
              like_count: 99,
              comment_count: 9,
            },
          ])
          .execute(),
      )
      const result = (await dashboardLoader(
        args(h.request('/dashboard', { session: await h.signIn(creator) })),
      )) as unknown as DataResult<{
        kind: string
        stats: Record<string, unknown>
        uploads: { title: string }[]
      }>
      expect(result.data.kind).toBe('creator')
      expect(result.data.stats).toMatchObject({ totalVideos: 2, totalViews: 1205, totalLikes: 31, totalComments: 4 })
      expect(result.data.uploads.map((video) => video.title).sort()).toEqual(['Optics 101', 'Private draft'])
    })

    it('gives a new creator zeros, and a learner the learner dashboard instead of an error', async () => {
      const creator = await h.createAccount({ role: 'creator' })
      const empty = (await dashboardLoader(
        args(h.request('/dashboard', { session: await h.signIn(creator) })),
      )) as unknown as DataResult<{
        stats: Record<string, unknown>
        uploads: unknown[]
        pendingVerification: boolean
      }>
      expect(empty.data.stats).toMatchObject({ totalVideos: 0, totalViews: 0, totalLikes: 0, totalComments: 0 })
      expect(empty.data.uploads).toEqual([])
      expect(empty.data.pendingVerification).toBe(true)

      const learnerView = (await dashboardLoader(
        args(h.request('/dashboard', { session: learnerSession })),
      )) as unknown as DataResult<{
        kind: string
      }>
      expect(learnerView.data).toEqual({ kind: 'learner', username: learner.username })
    })

    it('is for signed-in users only', async () => {
      const response = await thrown(() => dashboardLoader(args(h.request('/dashboard'))))
      expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard')
    })
  })

  describe('unknown paths', () => {
    it('go to /login; a login-required route not built yet remembers the way back for visitors', async () => {
      const cases: [string, Session | null, string][] = [
        ['/no/such/page', null, '/login'],
        ['/no/such/page', learnerSession, '/login'],
        ['/sparks-reels', null, '/login?redirectTo=%2Fsparks-reels'],
        ['/video/abc', null, '/login?redirectTo=%2Fvideo%2Fabc'],
        ['/create-quote?videoId=x', null, '/login?redirectTo=%2Fcreate-quote%3FvideoId%3Dx'],
        ['/video/abc/extra', null, '/login'],
      ]
      for (const [path, session, location] of cases) {
        const response = await unknownPath(args(h.request(path, { session })))
        expect(response.status, path).toBe(302)
        expect(response.headers.get('Location'), path).toBe(location)
      }
    })
  })
})
