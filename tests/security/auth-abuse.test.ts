import { randomUUID } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RateLimiter } from '../../stack/auth/rate-limit'
import { forwardedClientIp, isTrustedProxy } from '../../stack/net'
import { clientFor, openTarget, type ContractTarget } from '../support/target'

/**
 * ADR 0012, findings 6 and 7 on the Auth stand-in: bad sign-up data is a 422
 * naming the field and creates nothing; password sign-ins are limited to 15
 * failures per 5 minutes per client address and per account, then 429 with
 * Retry-After; X-Forwarded-For counts only from a trusted (loopback) peer.
 */
describe('auth abuse', () => {
  let target: ContractTarget
  let admin: SupabaseClient
  beforeAll(async () => {
    target = await openTarget('stand-in')
    admin = clientFor(target, 'service')
  })
  afterAll(async () => {
    await target?.close()
  })

  const authPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${target.url}/auth/v1${path}`, {
      method: 'POST',
      headers: { apikey: target.anonKey, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01', ...headers },
      body: JSON.stringify(body),
    })

  async function users(email: string): Promise<number> {
    const { rows } = await target.running!.database.pool.query('select 1 from auth.users where email = $1', [email])
    return rows.length
  }

  describe('sign-up data', () => {
    const cases: [string, (id: string) => Record<string, unknown>, RegExp][] = [
      ['a 600-character bio', () => ({ bio: 'b'.repeat(600) }), /bio must be at most 500 characters/],
      ['a bio that is not text', () => ({ bio: { nested: true } }), /bio must be text/],
      ['an unknown field of interest', () => ({ field_of_interest: 'Alchemy' }), /unknown field of interest: Alchemy/],
      ['an unknown concentration', () => ({ concentration: 'Necromancy' }), /unknown concentration/],
      ['51 interests', () => ({ interests: Array.from({ length: 51 }, (_, i) => `i${i}`) }), /interests/],
      [
        'a foreign portfolio path',
        () => ({ role: 'creator', portfolio_path: `${randomUUID()}/cv.pdf`, portfolio_type: 'document' }),
        /own folder/,
      ],
      [
        'a traversal portfolio path',
        () => ({ role: 'creator', portfolio_path: '../x/cv.pdf', portfolio_type: 'document' }),
        /own folder/,
      ],
      ['an unknown portfolio type', () => ({ role: 'creator', portfolio_type: 'script' }), /portfolio_type/],
      [
        'an unknown category',
        () => ({ role: 'creator', creator_categories: ['media', 'Black Magic'] }),
        /unknown category: Black Magic/,
      ],
    ]
    it.each(cases)('%s is a 422 validation_failed naming the field, and creates nothing', async (_label, data, message) => {
      const email = `bad-${randomUUID().slice(0, 8)}@lumen.test`
      const response = await authPost('/signup', { email, password: 'Good-Password-1', data: data(randomUUID()) })
      expect(response.status).toBe(422)
      const body = (await response.json()) as { code: string; message: string }
      expect(body.code).toBe('validation_failed')
      expect(body.message).toMatch(message)
      expect(await users(email)).toBe(0)
    })

    it('the admin API refuses the same data with 422', async () => {
      const email = `bad-admin-${randomUUID().slice(0, 8)}@lumen.test`
      const { error } = await admin.auth.admin.createUser({
        email,
        password: 'Good-Password-1',
        user_metadata: { bio: 'x'.repeat(501) },
      })
      expect(error).toMatchObject({ status: 422, code: 'validation_failed' })
      expect(await users(email)).toBe(0)
    })

    it('good data still signs up a creator with known categories', async () => {
      const email = `good-${randomUUID().slice(0, 8)}@lumen.test`
      const response = await authPost('/signup', {
        email,
        password: 'Good-Password-1',
        data: {
          role: 'creator',
          bio: 'b'.repeat(500),
          field_of_interest: 'Physics',
          creator_categories: ['media', 'Technology & Innovation'],
        },
      })
      expect(response.status).toBe(200)
    })
  })

  describe('password sign-in rate limits', () => {
    const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
      authPost('/token?grant_type=password', { email, password }, headers)

    it("refuses the 16th failure from one address with 429, Retry-After and GoTrue's body, even with the right password", async () => {
      const email = `victim-${randomUUID().slice(0, 8)}@lumen.test`
      await admin.auth.admin.createUser({ email, password: 'Right-Password-1', email_confirm: true })
      const from = { 'X-Forwarded-For': '203.0.113.7' }
      for (let i = 0; i < 15; i++) {
        // Different accounts: only the address limit applies.
        expect((await signIn(`nobody-${i}-${randomUUID().slice(0, 4)}@lumen.test`, 'wrong', from)).status).toBe(400)
      }
      const refused = await signIn(email, 'Right-Password-1', from)
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(300)
      expect(await refused.json()).toMatchObject({ code: 'over_request_rate_limit', message: expect.stringMatching(/Too many/) })
      // Another address is not affected.
      expect((await signIn(email, 'Right-Password-1', { 'X-Forwarded-For': '203.0.113.8' })).status).toBe(200)
    })

    it('refuses an account after 15 failures spread over many addresses', async () => {
      const email = `target-${randomUUID().slice(0, 8)}@lumen.test`
      await admin.auth.admin.createUser({ email, password: 'Right-Password-1', email_confirm: true })
      for (let i = 0; i < 15; i++) {
        expect((await signIn(email.toUpperCase(), 'wrong', { 'X-Forwarded-For': `198.51.100.${i + 1}` })).status).toBe(400)
      }
      const refused = await signIn(email, 'Right-Password-1', { 'X-Forwarded-For': '198.51.100.200' })
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBeTruthy()
    })

    it('counts failures in Postgres, so a second server process on the same database refuses too', async () => {
      // Two limiters with nothing in common but the database: what server mode's processes (one per
      // core, or one per machine) are. Failures counted by either add up.
      const email = `spread-${randomUUID().slice(0, 8)}@lumen.test`
      await admin.auth.admin.createUser({ email, password: 'Right-Password-1', email_confirm: true })
      const one = new RateLimiter(target.running!.stack.context)
      const another = new RateLimiter(target.running!.stack.context)
      for (let i = 0; i < 15; i++) await (i % 2 ? one : another).failedSignIn(`192.0.2.${i + 1}`, email)
      await expect(another.checkSignIn('192.0.2.99', email)).rejects.toMatchObject({ status: 429 })
      // And the running server, a third process's worth of limiter, refuses the account too.
      expect((await signIn(email, 'Right-Password-1', { 'X-Forwarded-For': '192.0.2.100' })).status).toBe(429)
    })

    it('successful sign-ins do not count', async () => {
      const email = `busy-${randomUUID().slice(0, 8)}@lumen.test`
      await admin.auth.admin.createUser({ email, password: 'Right-Password-1', email_confirm: true })
      for (let i = 0; i < 20; i++)
        expect((await signIn(email, 'Right-Password-1', { 'X-Forwarded-For': '192.0.2.50' })).status).toBe(200)
    })
  })

  it('believes X-Forwarded-For only from a trusted peer, read from the right', () => {
    expect(isTrustedProxy('loopback', '127.0.0.1')).toBe(true)
    expect(isTrustedProxy('loopback', '::ffff:127.0.0.1')).toBe(true)
    expect(isTrustedProxy('loopback', '10.0.0.2')).toBe(false)
    expect(isTrustedProxy('none', '127.0.0.1')).toBe(false)
    expect(isTrustedProxy('10.0.0.2, loopback', '10.0.0.2')).toBe(true)
    // A visitor on the network cannot pick an address.
    expect(forwardedClientIp('loopback', '10.9.9.9', '1.2.3.4')).toBe('10.9.9.9')
    // The app's server on this machine passes on its visitor.
    expect(forwardedClientIp('loopback', '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9')
    // A client-prepended entry does not win over the hop the proxy added.
    expect(forwardedClientIp('loopback', '127.0.0.1', '1.2.3.4, 203.0.113.9')).toBe('203.0.113.9')
    expect(forwardedClientIp('none', '127.0.0.1', '203.0.113.9')).toBe('127.0.0.1')
    expect(forwardedClientIp('loopback', '127.0.0.1', 'garbage')).toBe('127.0.0.1')
  })
})
