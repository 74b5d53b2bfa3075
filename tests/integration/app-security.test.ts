import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIGN_IN_RETRY_AFTER_SECONDS, signIn } from '../../app/server/accounts.server'
import { asServiceRole } from '../../app/server/db.server'
import { requireUser } from '../../app/server/permissions.server'
import { getSession, safeRedirect } from '../../app/server/session.server'
import { createSupabaseServerClient } from '../../app/server/supabase.server'
import { contentSecurityPolicy } from '../../app/server/http/csp.server'
import { context, setCookies, startShellHarness, thrown, type ShellHarness } from './shell-harness'

/**
 * The app's half of the security issue (#8): ended sessions open nothing,
 * deleted users' tokens open nothing, the session cookie is out of scripts'
 * reach, only same-origin paths are followed after sign-in, and pages carry a
 * nonce-based Content-Security-Policy.
 */
describe('sessions end when they are ended', () => {
  let h: ShellHarness

  beforeAll(async () => {
    h = await startShellHarness()
  })
  afterAll(async () => {
    await h?.close()
  })

  it('after signing out, the old cookies no longer open a page or pass a guard (finding 3)', async () => {
    const account = await h.createAccount()
    const session = await h.signIn(account)
    expect((await getSession(h.request('/profile', { session }), context)).user?.id).toBe(account.id)

    const client = h.anon()
    await client.auth.setSession({ access_token: session.access_token, refresh_token: session.refresh_token })
    await client.auth.signOut({ scope: 'local' })

    expect((await getSession(h.request('/profile', { session }), context)).user).toBeNull()
    const response = await thrown(() => requireUser(h.request('/video/x', { session, method: 'POST', form: { intent: 'like' } }), context))
    expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fvideo%2Fx')
  })

  it('deleting a user ends their sessions at once: their unexpired token opens nothing', async () => {
    const account = await h.createAccount()
    const session = await h.signIn(account)
    await asServiceRole('test: an admin deletes a user', (tx) => tx.deleteFrom('profiles').where('id', '=', account.id).execute())
    expect((await getSession(h.request('/profile', { session }), context)).user).toBeNull()
    const sessions = await h.stack.database.pool.query('select count(*)::int as n from auth.sessions where user_id = $1', [account.id])
    expect(sessions.rows[0].n).toBe(0)
  })

  it('reads the session once per request, however many loaders ask', async () => {
    const account = await h.createAccount()
    const request = h.request('/profile', { session: await h.signIn(account) })
    const first = getSession(request, context)
    expect(getSession(request, context)).toBe(first)
    expect((await first).user?.id).toBe(account.id)
  })

  it('the session cookies are HttpOnly, so no script on the page can read them (finding 2)', async () => {
    const account = await h.createAccount()
    const { supabase, headers } = createSupabaseServerClient(h.request('/login', { method: 'POST' }), context)
    const { error } = await supabase.auth.signInWithPassword({ email: account.email, password: account.password })
    expect(error).toBeNull()
    const cookies = [...setCookies(headers).entries()].filter(([name]) => name.startsWith(h.cookieName))
    expect(cookies.length).toBeGreaterThan(0)
    for (const [, line] of cookies) expect(line).toMatch(/;\s*HttpOnly/i)
  })

  it('after 15 wrong passwords for one account, the sign-in page is told to wait (finding 7)', async () => {
    const account = await h.createAccount()
    // Each attempt from its own address: the per-account limit holds whatever address a guesser uses.
    const attempt = (i: number, password: string) =>
      signIn(createSupabaseServerClient(h.request('/login', { method: 'POST' }), { clientIp: `198.51.100.${i}` }).supabase, {
        email: account.email,
        password,
      })
    for (let i = 1; i <= 15; i++) {
      const result = await attempt(i, 'Wrong-Password-1')
      expect(result).toMatchObject({ ok: false, message: 'Failed to login. Please check your credentials.' })
      expect(result).not.toHaveProperty('retryAfterSeconds')
    }
    expect(await attempt(16, account.password)).toEqual({
      ok: false,
      message: 'Too many attempts from your connection. Please wait a few minutes and try again.',
      retryAfterSeconds: SIGN_IN_RETRY_AFTER_SECONDS,
    })
  })
})

describe('redirects after sign-in stay on this site (finding 5)', () => {
  it.each([
    '/\t/evil.example/x',
    '/\n/evil.example/x',
    '/\r\n/evil.example',
    '//evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '/a//evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/%0A',
    ' /profile',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (target) => {
    const decoded = target === '/%0A' ? decodeURIComponent(target) : target
    expect(safeRedirect(decoded, '/profile')).toBe('/profile')
  })

  it.each(['/feed', '/video/5b1c3f0e-8a43-4a8e-9f51-0d7c1b2a3e4f?x=1#comments', '/sparks?search=a%2F%2Fb'])('follows %j', (target) => {
    expect(safeRedirect(target, '/profile')).toBe(target)
  })

  it('refuses what is not a string', () => {
    expect(safeRedirect(null, '/feed')).toBe('/feed')
    expect(safeRedirect(undefined, '/feed')).toBe('/feed')
  })
})

describe('the Content-Security-Policy of pages', () => {
  it('allows scripts only with the response nonce, and no plugins, framing or foreign form targets', () => {
    const policy = contentSecurityPolicy('abc123', 'https://project.supabase.co')
    expect(policy).toContain("script-src 'nonce-abc123' 'strict-dynamic'")
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(policy).toContain("object-src 'none'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).toContain("form-action 'self'")
    expect(policy).toContain("base-uri 'self'")
    expect(policy).toContain('connect-src \'self\' https://project.supabase.co')
  })
})
