import { combineChunks, createChunks, createServerClient, stringFromBase64URL, stringToBase64URL } from '@supabase/ssr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'
import { PASSWORD, signUp, uniqueEmail } from './auth-support'

/**
 * Cookie sessions the way the Remix server keeps them with @supabase/ssr:
 * a sign-in writes `sb-<host>-auth-token` cookies (`base64-` encoded, chunked
 * `.0`, `.1` when long), a later request's server client reads the session
 * back from them, and an expiring session is refreshed and rewritten.
 */
announceSkippedRealSupabase()

interface Session {
  access_token: string
  refresh_token: string
  expires_at: number
  user: { id: string }
}

/** The browser's cookie store between requests, and what each server client wrote to it. */
class CookieJar {
  readonly values = new Map<string, string>()
  writes = 0

  constructor(entries: [string, string][] = []) {
    for (const [name, value] of entries) this.values.set(name, value)
  }

  readonly methods = {
    getAll: () => [...this.values].map(([name, value]) => ({ name, value })),
    setAll: (cookies: { name: string; value: string; options: { maxAge?: number } }[]) => {
      this.writes++
      for (const { name, value, options } of cookies) {
        if (!value || options.maxAge === 0) this.values.delete(name)
        else this.values.set(name, value)
      }
    },
  }

  names(): string[] {
    return [...this.values.keys()].sort()
  }

  /** The session stored under `key`, reassembled from its chunks and decoded. */
  async session(key: string): Promise<Session> {
    const combined = await combineChunks(key, (name) => this.values.get(name))
    expect(combined?.startsWith('base64-')).toBe(true)
    return JSON.parse(stringFromBase64URL(combined!.slice('base64-'.length))) as Session
  }
}

describe.each(targetNames)('@supabase/ssr cookie sessions on %s', (name) => {
  let target: ContractTarget
  let cookieName: string

  beforeAll(async () => {
    target = await openTarget(name)
    cookieName = `sb-${new URL(target.url).hostname.split('.')[0]}-auth-token`
  })
  afterAll(async () => {
    await target?.close()
  })

  const serverClient = (jar: CookieJar) =>
    createServerClient(target.url, target.anonKey, { ...nodeRealtimeOptions, cookies: jar.methods })

  it('a sign-in writes base64- cookies, chunked .0/.1 when the session is long', async () => {
    if (target.running) expect(cookieName).toBe('sb-127-auth-token')
    const user = await signUp(target, 'cookies', { notes: 'n'.repeat(3000) })
    const jar = new CookieJar()

    const { error } = await serverClient(jar).auth.signInWithPassword({ email: user.email, password: PASSWORD })
    expect(error).toBeNull()
    expect(jar.names().length).toBeGreaterThanOrEqual(2)
    expect(jar.names()).toEqual(jar.names().map((_, index) => `${cookieName}.${index}`))
    expect(jar.values.get(`${cookieName}.0`)!.startsWith('base64-')).toBe(true)
    const session = await jar.session(cookieName)
    expect(session.user.id).toBe(user.id)
    expect(session.refresh_token).toEqual(expect.any(String))
  })

  it('a sign-up through a server client (PKCE flow) answers a session and sets the cookies', async () => {
    const jar = new CookieJar()
    const { data, error } = await serverClient(jar).auth.signUp({ email: uniqueEmail('ssrsignup'), password: PASSWORD })
    expect(error).toBeNull()
    expect(data.session).not.toBeNull()
    expect((await jar.session(cookieName)).user.id).toBe(data.user!.id)
  })

  it("the next request's server client reads the session from the cookies, and getUser works", async () => {
    const user = await signUp(target, 'nextreq')
    const login = new CookieJar()
    await serverClient(login).auth.signInWithPassword({ email: user.email, password: PASSWORD })

    const nextRequest = new CookieJar([...login.values])
    const { data, error } = await serverClient(nextRequest).auth.getUser()
    expect(error).toBeNull()
    expect(data.user!.id).toBe(user.id)
    // Nothing changed, so nothing was written back.
    expect(nextRequest.writes).toBe(0)
  })

  it('an expiring session is refreshed through the cookies: the token rotates and new cookies are written', async () => {
    const user = await signUp(target, 'expiring')
    const login = new CookieJar()
    await serverClient(login).auth.signInWithPassword({ email: user.email, password: PASSWORD })
    const before = await login.session(cookieName)

    // The browser comes back after the access token ran out.
    const stale = { ...before, expires_at: Math.floor(Date.now() / 1000) - 10 }
    const chunks = createChunks(cookieName, `base64-${stringToBase64URL(JSON.stringify(stale))}`)
    const later = new CookieJar(chunks.map((chunk) => [chunk.name, chunk.value]))

    const { data, error } = await serverClient(later).auth.getUser()
    expect(error).toBeNull()
    expect(data.user!.id).toBe(user.id)
    expect(later.writes).toBeGreaterThan(0)
    const after = await later.session(cookieName)
    expect(after.refresh_token).not.toBe(before.refresh_token)
    expect(after.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000)

    const old = await clientFor(target).auth.refreshSession({ refresh_token: before.refresh_token })
    expect(old.data.session?.refresh_token).toBe(after.refresh_token) // the live token's parent, within GoTrue's grace
  })

  it("an app's /auth/confirm route: verifyOtp with a token_hash sets the session cookies", async () => {
    const user = await signUp(target, 'confirm')
    const { data: link } = await clientFor(target, 'service').auth.admin.generateLink({ type: 'recovery', email: user.email })
    const jar = new CookieJar()

    const { error } = await serverClient(jar).auth.verifyOtp({ type: 'recovery', token_hash: link.properties!.hashed_token })
    expect(error).toBeNull()
    expect((await jar.session(cookieName)).user.id).toBe(user.id)
    const { error: updateError } = await serverClient(new CookieJar([...jar.values])).auth.updateUser({ password: 'reset-via-cookies' })
    expect(updateError).toBeNull()
  })
})
