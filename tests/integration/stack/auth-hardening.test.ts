import { SignJWT, type JWTPayload } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'
import { authFetch, PASSWORD, signUp, uniqueEmail, uniqueUsername, withAuthConfig } from './auth-support'

/**
 * What the auth server says to callers it should refuse: no or a wrong API
 * key, bad tokens of every kind, malformed or hostile bodies, and too many
 * requests from one address. Raw HTTP where the contract is about the wire.
 */
announceSkippedRealSupabase()

const encoder = new TextEncoder()
const jwtSecret = (target: ContractTarget) => target.running?.jwtSecret ?? process.env.CONTRACT_SUPABASE_JWT_SECRET

function sign(claims: JWTPayload, secret: string) {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(encoder.encode(secret))
}

/** `alg: none`: a header and a payload, no signature. */
function unsigned(claims: JWTPayload) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`
}

describe.each(targetNames)('auth refusals on %s', (name) => {
  let target: ContractTarget

  beforeAll(async () => {
    target = await openTarget(name)
  })
  afterAll(async () => {
    await target?.close()
  })

  const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) })
  const getUser = (token: string) => authFetch(target, '/user', { headers: { authorization: `Bearer ${token}` } })

  describe('the gateway in front', () => {
    it('refuses a request without an API key, or with one that is not the project’s, with 401', async () => {
      const missing = await fetch(`${target.url}/auth/v1/settings`)
      expect(missing.status).toBe(401)
      expect(await missing.json()).toMatchObject({ message: 'No API key found in request' })

      const wrong = await authFetch(target, '/settings', { headers: { apikey: 'not-a-key' } })
      expect(wrong.status).toBe(401)
      expect(await wrong.json()).toMatchObject({ message: 'Invalid API key' })

      expect((await fetch(`${target.url}/auth/v1/settings?apikey=${target.anonKey}`)).status).toBe(200)
    })

    it('leaves the health check, the public keys and email links open', async () => {
      expect((await fetch(`${target.url}/auth/v1/health`)).status).toBe(200)
      const jwks = await fetch(`${target.url}/auth/v1/.well-known/jwks.json`)
      expect(jwks.status).toBe(200)
      if (target.running) expect(await jwks.json()).toEqual({ keys: [] })
      const link = await fetch(`${target.url}/auth/v1/verify?token=nonsense&type=recovery`, { redirect: 'manual' })
      expect(link.status).toBe(303)
    })

    it('answers CORS preflights from any origin and exposes the headers auth-js reads', async () => {
      const preflight = await fetch(`${target.url}/auth/v1/token?grant_type=password`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://somewhere.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'apikey, authorization, content-type, x-client-info, x-supabase-api-version',
        },
      })
      expect(preflight.status).toBeLessThan(300)
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
      const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase()
      for (const header of ['apikey', 'authorization', 'content-type', 'x-client-info', 'x-supabase-api-version']) {
        expect(allowed).toContain(header)
      }

      const response = await authFetch(target, '/settings', { headers: { origin: 'https://somewhere.example' } })
      expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01')
      const exposed = response.headers.get('access-control-expose-headers')!.toLowerCase()
      for (const header of ['x-supabase-api-version', 'x-total-count', 'link']) expect(exposed).toContain(header)
    })
  })

  describe('tokens', () => {
    it('refuses a missing bearer with 401 no_authorization', async () => {
      const response = await authFetch(target, '/user')
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ code: 'no_authorization' })
    })

    it('refuses malformed, alg:none, wrong-secret and forged service_role tokens with 403 bad_jwt', async () => {
      const user = await signUp(target, 'tokens')
      const claims = { sub: user.id, aud: 'authenticated', role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 600 }
      const forged = [
        'not.a.jwt',
        unsigned(claims),
        await sign(claims, 'a-secret-that-is-not-the-projects-secret-at-all'),
        user.session.access_token.slice(0, -4) + 'AAAA',
      ]
      for (const token of forged) {
        const response = await getUser(token)
        expect(response.status).toBe(403)
        expect(await response.json()).toMatchObject({ code: 'bad_jwt' })
      }

      const fakeAdmin = await sign({ ...claims, role: 'service_role' }, 'a-secret-that-is-not-the-projects-secret-at-all')
      const listed = await authFetch(target, '/admin/users', { headers: { authorization: `Bearer ${fakeAdmin}` } })
      expect(listed.status).toBe(403)
      expect(await listed.json()).toMatchObject({ code: 'bad_jwt' })
    })

    it('refuses an expired token, and one for another audience', async (context) => {
      const secret = jwtSecret(target)
      if (!secret) return context.skip() // needs the project's JWT secret: CONTRACT_SUPABASE_JWT_SECRET
      const user = await signUp(target, 'expired')
      const now = Math.floor(Date.now() / 1000)
      const base = { sub: user.id, role: 'authenticated', session_id: undefined }

      const expired = await getUser(await sign({ ...base, aud: 'authenticated', iat: now - 7200, exp: now - 3600 }, secret))
      expect(expired.status).toBe(403)
      expect(await expired.json()).toMatchObject({ code: 'bad_jwt' })

      const elsewhere = await getUser(await sign({ ...base, aud: 'another-app', exp: now + 600 }, secret))
      expect(elsewhere.status).toBe(400)
      expect(await elsewhere.json()).toMatchObject({ code: 'validation_failed' })
    })

    it('refuses the anon key as a user token (no sub claim)', async () => {
      const response = await getUser(target.anonKey)
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ code: 'bad_jwt' })
    })
  })

  describe('bodies', () => {
    it('answers malformed JSON with 400 bad_json and a wrong field type with bad_json too', async () => {
      const broken = await authFetch(target, '/signup', { method: 'POST', body: '{"email": ' })
      expect(broken.status).toBe(400)
      expect(await broken.json()).toMatchObject({ code: 'bad_json' })

      const wrongType = await authFetch(target, '/token?grant_type=password', json({ email: 42, password: PASSWORD }))
      expect(wrongType.status).toBe(400)
      expect(await wrongType.json()).toMatchObject({ code: 'bad_json' })
    })

    it('refuses a body over 1 MB with 413', async (context) => {
      if (!target.running) return context.skip() // the real gateway's limit differs
      const response = await authFetch(target, '/signup', {
        method: 'POST',
        body: JSON.stringify({ email: uniqueEmail('huge'), password: PASSWORD, data: { blob: 'x'.repeat(1_100_000) } }),
      })
      expect(response.status).toBe(413)
    })

    it("answers an unknown grant type like GoTrue: 400, message 'unsupported_grant_type'", async () => {
      const response = await authFetch(target, '/token?grant_type=client_credentials', json({}))
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ message: 'unsupported_grant_type' })
    })

    it('refuses a null byte anywhere with 400, never 500', async (context) => {
      if (!target.running) return context.skip() // GoTrue answers some of these with 500
      const cases = [
        json({ email: `nul\u0000${uniqueEmail('nul')}`, password: PASSWORD }),
        json({ email: uniqueEmail('nul'), password: `pass\u0000word` }),
        json({ email: uniqueEmail('nul'), password: PASSWORD, data: { username: 'a\u0000b' } }),
        json({ email: uniqueEmail('nul'), password: PASSWORD, data: { 'key\u0000': 1 } }),
      ]
      for (const request of cases) {
        const response = await authFetch(target, '/signup', request)
        expect(response.status).toBe(400)
      }
    })

    it('keeps __proto__ keys harmless and refuses absurd nesting', async (context) => {
      const email = uniqueEmail('proto')
      const body = `{"email":"${email}","password":"${PASSWORD}","data":{"username":"${uniqueUsername('proto')}","__proto__":{"polluted":true}}}`
      const response = await authFetch(target, '/signup', { method: 'POST', body })
      expect(response.status).toBe(200)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      const session = (await response.json()) as { user: { user_metadata: Record<string, unknown> } }
      expect(session.user.user_metadata.polluted).toBeUndefined()

      if (!target.running) return context.skip()
      const deep = `{"email":"${uniqueEmail('deep')}","password":"${PASSWORD}","data":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`
      const nested = await authFetch(target, '/signup', { method: 'POST', body: deep })
      expect(nested.status).toBe(400)
    })

    it('speaks GoTrue’s older error shape to clients that send no API version', async () => {
      const response = await fetch(`${target.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: target.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: uniqueEmail('legacy'), password: PASSWORD }),
      })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({
        code: 400,
        error_code: 'invalid_credentials',
        msg: 'Invalid login credentials',
      })
    })
  })

  describe('rate limits (per client address, from [auth.rate_limit])', () => {
    // The counters are rows in auth.rate_limits, shared by every process on the database (and kept
    // across a restart): cleared here, whatever the tests above spent.
    beforeAll(async () => {
      await target.running?.database.pool.query('delete from auth.rate_limits').catch(() => {})
    })

    it('refuses sign-ups past sign_in_sign_ups with 429 over_request_rate_limit', async (context) => {
      if (!target.running) return context.skip() // the limits are the project's config
      await withAuthConfig(
        target,
        (auth) => (auth.rate_limit.sign_in_sign_ups = 2),
        async () => {
          for (let i = 0; i < 2; i++) {
            const ok = await clientFor(target).auth.signUp({ email: uniqueEmail('burst'), password: PASSWORD })
            expect(ok.error).toBeNull()
          }
          const { error } = await clientFor(target).auth.signUp({ email: uniqueEmail('burst'), password: PASSWORD })
          expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' })
        },
      )
    })

    it('counts every /token grant against token_refresh, and believes a forwarded address only with the service key', async (context) => {
      if (!target.running) return context.skip()
      const user = await signUp(target, 'tokenlimit')
      const signIn = (headers: Record<string, string>) =>
        authFetch(target, '/token?grant_type=password', { ...json({ email: user.email, password: PASSWORD }), headers })
      await withAuthConfig(
        target,
        (auth) => (auth.rate_limit.token_refresh = 2),
        async () => {
          const asVisitor = (ip: string) => ({ apikey: target.serviceRoleKey, 'sb-forwarded-for': ip })
          expect((await signIn(asVisitor('203.0.113.7'))).status).toBe(200)
          expect((await signIn(asVisitor('203.0.113.7'))).status).toBe(200)
          const limited = await signIn(asVisitor('203.0.113.7'))
          expect(limited.status).toBe(429)
          expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
          expect(await limited.json()).toMatchObject({ code: 'over_request_rate_limit' })
          // Another visitor behind the same app server has their own allowance.
          expect((await signIn(asVisitor('198.51.100.9'))).status).toBe(200)

          // With the anon key, X-Forwarded-For counts only from a peer TRUSTED_PROXY trusts (ADR 0012,
          // finding 7: loopback by default, the app's own server); otherwise the socket address counts.
          expect((await signIn({ 'x-forwarded-for': '192.0.2.9' })).status).toBe(200)
          const context = target.running!.stack.context
          context.trustedProxy = 'none'
          try {
            expect((await signIn({ 'x-forwarded-for': '192.0.2.1' })).status).toBe(200)
            expect((await signIn({ 'x-forwarded-for': '192.0.2.2' })).status).toBe(200)
            expect((await signIn({ 'x-forwarded-for': '192.0.2.3' })).status).toBe(429)
          } finally {
            context.trustedProxy = 'loopback'
          }
        },
      )
    })

    it('stops sending emails past email_sent with 429 over_email_send_rate_limit', async (context) => {
      if (!target.running) return context.skip()
      const first = await signUp(target, 'mail1')
      const second = await signUp(target, 'mail2')
      await withAuthConfig(
        target,
        (auth) => (auth.rate_limit.email_sent = 1),
        async () => {
          expect((await clientFor(target).auth.resetPasswordForEmail(first.email)).error).toBeNull()
          const { error } = await clientFor(target).auth.resetPasswordForEmail(second.email)
          expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
        },
      )
    })
  })
})
