import { combineChunks, stringFromBase64URL } from '@supabase/ssr'
import type { Session } from '@supabase/supabase-js'
import { SignJWT, decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asServiceRole } from '../../app/server/db.server'
import { requireRole, requireUser } from '../../app/server/permissions.server'
import { getSession } from '../../app/server/session.server'
import { expiredCopyOf } from '../support/tokens'
import { clearsCookie, context, setCookies, startShellHarness, thrown, type Account, type ShellHarness } from './shell-harness'

/**
 * The session layer (app/server/session.server.ts) against the Auth
 * stand-in and its database: what a request's cookies make of the visitor,
 * which cookies go back, and where the guards send them.
 */
describe('sessions from cookies', () => {
  let h: ShellHarness
  let learner: Account
  let learnerSession: Session

  beforeAll(async () => {
    h = await startShellHarness()
    learner = await h.createAccount()
    learnerSession = await h.signIn(learner)
  })
  afterAll(async () => {
    await h?.close()
  })

  /** `session` with its access token replaced (and, unless told, still "fresh" by its expires_at). */
  const withToken = (session: Session, accessToken: string, expiresAt = Math.floor(Date.now() / 1000) + 3600): Session => ({
    ...session,
    access_token: accessToken,
    expires_at: expiresAt,
  })

  const sign = (claims: Record<string, unknown>, secret: string) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret))

  const authCookieCleared = (headers: Headers) => {
    const cookies = setCookies(headers)
    return [...cookies.keys()].some((name) => name.startsWith(h.cookieName) && clearsCookie(cookies.get(name)))
  }

  it('a request without cookies has no user and sets no cookie', async () => {
    const session = await getSession(h.request('/profile'), context)
    expect(session.user).toBeNull()
    expect(session.claims).toBeNull()
    expect(session.headers.getSetCookie()).toEqual([])
  })

  it('valid cookies give the user, with rights read from the database', async () => {
    const session = await getSession(h.request('/profile', { session: learnerSession }), context)
    expect(session.user).toEqual({
      id: learner.id,
      email: learner.email,
      username: learner.username,
      role: 'user',
      isVerified: false,
      avatarPath: null,
    })
    expect(session.claims?.sub).toBe(learner.id)
    // Nothing to refresh, so nothing is rewritten.
    expect(session.headers.getSetCookie()).toEqual([])
  })

  it('a creator who has not been reviewed is a creator, unverified', async () => {
    const creator = await h.createAccount({ role: 'creator' })
    const session = await getSession(h.request('/', { session: await h.signIn(creator) }), context)
    expect(session.user).toMatchObject({ id: creator.id, role: 'creator', isVerified: false })
  })

  it('asking for admin in the sign-up metadata grants nothing', async () => {
    const sneaky = await h.createAccount({ metadata: { role: 'admin' } })
    const session = await getSession(h.request('/', { session: await h.signIn(sneaky) }), context)
    expect(session.user?.role).toBe('user')
  })

  it('an expired access token with a valid refresh token is refreshed, and the new cookies go out in headers', async () => {
    const account = await h.createAccount()
    const fresh = await h.signIn(account)
    const stale = withToken(fresh, await expiredCopyOf(fresh.access_token, h.stack.jwtSecret), Math.floor(Date.now() / 1000) - 60)

    const session = await getSession(h.request('/profile', { session: stale }), context)
    expect(session.user?.id).toBe(account.id)
    // The refreshed session is a new, valid one, and it is what the new cookies carry.
    expect(session.claims!.exp).toBeGreaterThan(Date.now() / 1000 + 600)
    const written = setCookies(session.headers)
    const value = await combineChunks(h.cookieName, (name) => {
      const line = written.get(name)
      return line ? decodeURIComponent(line.slice(name.length + 1).split(';')[0]!) : undefined
    })
    expect(value, 'a new auth cookie is set').toMatch(/^base64-/)
    const stored = JSON.parse(stringFromBase64URL(value!.slice('base64-'.length))) as Session
    expect(stored.refresh_token).not.toBe(fresh.refresh_token)
    expect(decodeJwt(stored.access_token).exp).toBe(session.claims!.exp)
  })

  it('a token signed with the wrong secret signs the visitor out and clears the cookies', async () => {
    const forged = await sign({ ...decodeJwt(learnerSession.access_token) }, 'not-the-secret-not-the-secret-not-the-secret')
    const session = await getSession(h.request('/profile', { session: withToken(learnerSession, forged) }), context)
    expect(session.user).toBeNull()
    expect(authCookieCleared(session.headers)).toBe(true)
  })

  it('an unsigned (alg: none) token signs the visitor out', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
    const body = Buffer.from(JSON.stringify(decodeJwt(learnerSession.access_token))).toString('base64url')
    const session = await getSession(h.request('/', { session: withToken(learnerSession, `${header}.${body}.`) }), context)
    expect(session.user).toBeNull()
    expect(authCookieCleared(session.headers)).toBe(true)
  })

  it('a correctly signed token claiming the service role, or another audience, is refused', async () => {
    // Its own account: signing out "locally" tells Auth to end the session the token names.
    const own = await h.signIn(await h.createAccount())
    const claims = decodeJwt(own.access_token)
    for (const forged of [
      await sign({ ...claims, role: 'service_role' }, h.stack.jwtSecret),
      await sign({ ...claims, aud: 'somewhere-else' }, h.stack.jwtSecret),
    ]) {
      const session = await getSession(h.request('/', { session: withToken(own, forged) }), context)
      expect(session.user).toBeNull()
      expect(authCookieCleared(session.headers)).toBe(true)
    }
  })

  it('a deleted user’s still-unexpired token gives no user', async () => {
    const doomed = await h.createAccount()
    const session = await h.signIn(doomed)
    const { error } = await h.service.auth.admin.deleteUser(doomed.id)
    expect(error).toBeNull()
    const after = await getSession(h.request('/profile', { session }), context)
    expect(after.user).toBeNull()
    expect(authCookieCleared(after.headers)).toBe(true)
  })

  it('requireUser sends a visitor to /login?redirectTo=<path and query>, with the session headers', async () => {
    const response = await thrown(() => requireUser(h.request('/create-quote?videoId=x'), context))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fcreate-quote%3FvideoId%3Dx')

    const forged = await sign({ ...decodeJwt(learnerSession.access_token) }, 'wrong-secret-wrong-secret-wrong-secret')
    const cleared = await thrown(() =>
      requireUser(h.request('/dashboard', { session: withToken(learnerSession, forged) }), context),
    )
    expect(cleared.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard')
    expect(authCookieCleared(cleared.headers)).toBe(true)
  })

  it('requireUser returns the signed-in user', async () => {
    const session = await requireUser(h.request('/profile', { session: learnerSession }), context)
    expect(session.user.id).toBe(learner.id)
  })

  it('the loaders of one GET share one read: each gets its own Request copy, but the same load context', async () => {
    // server.ts gives every GET a fresh requestCache; Remix hands the root loader and the route's loader
    // different Request objects for the same request.
    const requestContext = { ...context, requestCache: {} }
    const root = await getSession(h.request('/feed', { session: learnerSession }), requestContext)
    const guard = await requireUser(h.request('/feed', { session: learnerSession }), requestContext)
    expect(guard).toBe(root)
    expect(root.user?.id).toBe(learner.id)
    // Another request (another context) reads again.
    const next = await getSession(h.request('/feed', { session: learnerSession }), { ...context, requestCache: {} })
    expect(next).not.toBe(root)
    expect(next.user).toEqual(root.user)
  })

  it('a valid session read from the cookie still offers a Supabase client acting for the user', async () => {
    const session = await getSession(h.request('/profile', { session: learnerSession }), { ...context, requestCache: {} })
    const { data, error } = await session.supabase.auth.getUser()
    expect(error).toBeNull()
    expect(data.user?.id).toBe(learner.id)
  })

  it('a session ended elsewhere is signed out here at once, though its access token still verifies', async () => {
    const account = await h.createAccount()
    const session = await h.signIn(account)
    const elsewhere = h.anon()
    await elsewhere.auth.setSession({ access_token: session.access_token, refresh_token: session.refresh_token })
    await elsewhere.auth.signOut({ scope: 'global' })

    // The database says the session is gone (public.session_is_active), so even a plain read has no user...
    expect((await getSession(h.request('/profile', { session }), context)).user).toBeNull()
    // ...and a guard sends the visitor to sign in, clearing the cookies.
    const response = await thrown(() => requireUser(h.request('/profile', { session }), context, { verify: true }))
    expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fprofile')
    expect(authCookieCleared(response.headers)).toBe(true)
  })

  it('requireRole lets the role in and sends everyone else to the fallback', async () => {
    const response = await thrown(() => requireRole(h.request('/admin', { session: learnerSession }), context, ['admin']))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/profile')
    const elsewhere = await thrown(() =>
      requireRole(h.request('/upload', { session: learnerSession }), context, ['creator', 'admin'], '/feed'),
    )
    expect(elsewhere.headers.get('Location')).toBe('/feed')
    const visitor = await thrown(() => requireRole(h.request('/admin'), context, ['admin']))
    expect(visitor.headers.get('Location')).toBe('/login?redirectTo=%2Fadmin')
  })

  it('a demoted admin loses admin at once, with the same cookies', async () => {
    const account = await h.createAccount()
    const session = await h.signIn(account)
    const setRole = (role: 'user' | 'admin') =>
      asServiceRole('test: promote and demote an admin', (tx) =>
        tx.updateTable('profiles').set({ role }).where('id', '=', account.id).execute(),
      )

    await setRole('admin')
    const admin = await requireRole(h.request('/admin', { session }), context, ['admin'])
    expect(admin.user.role).toBe('admin')

    await setRole('user')
    expect((await getSession(h.request('/admin', { session }), context)).user?.role).toBe('user')
    const response = await thrown(() => requireRole(h.request('/admin', { session }), context, ['admin']))
    expect(response.headers.get('Location')).toBe('/profile')
  })
})
