import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'
import { PASSWORD, profileOf, signUp, uniqueEmail, uniqueUsername, withAuthConfig } from './auth-support'

/**
 * The GoTrue contract the app lives on, through supabase-js: sign-up, sign-in,
 * getUser, refresh-token rotation, updateUser, sign-out. Against the stand-in
 * on PGlite and on the PostgreSQL server, and against a real Supabase when one
 * is configured.
 */
announceSkippedRealSupabase()

interface Variant {
  name: ContractTarget['name']
  database?: 'pglite' | 'postgres'
}

const targets = targetNames.flatMap((name): Variant[] =>
  name === 'stand-in'
    ? [
        { name, database: 'pglite' },
        { name, database: 'postgres' },
      ]
    : [{ name }],
)

describe.each(targets)('auth on $name ($database)', ({ name, database }: Variant) => {
  let target: ContractTarget

  beforeAll(async () => {
    target = await openTarget(name, { database })
  })
  afterAll(async () => {
    await target?.close()
  })

  /** A fresh client refreshing with a given token, as another tab (or an attacker) would. */
  const refreshWith = (refreshToken: string) => clientFor(target).auth.refreshSession({ refresh_token: refreshToken })

  it('signs up with metadata, answers with a session, and the profile trigger sees the username', async () => {
    const email = uniqueEmail('signup')
    const username = uniqueUsername('ada')
    const { data, error } = await clientFor(target).auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { username, role: 'user' } },
    })

    expect(error).toBeNull()
    expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 })
    expect(data.session!.refresh_token).toEqual(expect.any(String))
    expect(data.session!.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000)
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      phone: '',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { username, role: 'user', email, email_verified: true, phone_verified: false, sub: data.user!.id },
    })
    expect(data.user!.email_confirmed_at).toEqual(expect.any(String))
    expect(data.user!.identities).toEqual([
      expect.objectContaining({ provider: 'email', id: data.user!.id, user_id: data.user!.id, identity_id: expect.any(String) }),
    ])
    expect(await profileOf(target, data.user!.id)).toMatchObject({ username })
  })

  it("issues access tokens with GoTrue's claims", async () => {
    const user = await signUp(target, 'claims')
    const claims = decodeJwt(user.session.access_token)

    expect(claims).toMatchObject({
      iss: `${target.url}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      email: user.email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: expect.objectContaining({ username: user.username }),
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      is_anonymous: false,
    })
    expect(claims.exp! - claims.iat!).toBe(3600)
    expect(user.session.expires_at).toBe(claims.exp)
  })

  it('signs in with the password, and getUser answers the user', async () => {
    const user = await signUp(target, 'signin')
    const client = clientFor(target)

    const { data, error } = await client.auth.signInWithPassword({ email: user.email.toUpperCase(), password: PASSWORD })
    expect(error).toBeNull()
    expect(data.session!.user.id).toBe(user.id)
    expect(data.session!.refresh_token).not.toBe(user.session.refresh_token)

    const { data: got, error: getError } = await client.auth.getUser()
    expect(getError).toBeNull()
    expect(got.user).toMatchObject({ id: user.id, email: user.email, last_sign_in_at: expect.any(String) })
  })

  it('answers a wrong password or an unknown email with invalid_credentials', async () => {
    const user = await signUp(target, 'wrongpw')
    for (const credentials of [
      { email: user.email, password: 'not-the-password' },
      { email: uniqueEmail('nobody'), password: PASSWORD },
    ]) {
      const { data, error } = await clientFor(target).auth.signInWithPassword(credentials)
      expect(data.session).toBeNull()
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' })
    }
  })

  it('refuses a second sign-up with the same email as user_already_exists', async () => {
    const user = await signUp(target, 'dup')
    const { error } = await clientFor(target).auth.signUp({ email: user.email, password: 'another-password' })
    expect(error).toMatchObject({ status: 422, code: 'user_already_exists', message: 'User already registered' })
  })

  it('refuses a short password as weak_password with its reasons', async () => {
    const { data, error } = await clientFor(target).auth.signUp({ email: uniqueEmail('weak'), password: '12345' })
    expect(data.user).toBeNull()
    expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] })
    expect(error!.message).toBe('Password should be at least 6 characters.')
  })

  it('rotates the refresh token; a used one works again only as the live token’s parent or within the reuse interval', async () => {
    const user = await signUp(target, 'rotate')
    const first = user.session.refresh_token

    const second = await refreshWith(first)
    expect(second.error).toBeNull()
    const r2 = second.data.session!.refresh_token
    expect(r2).not.toBe(first)

    const third = await refreshWith(r2)
    const r3 = third.data.session!.refresh_token
    expect(r3).not.toBe(r2)

    // The client lost the answer to its last refresh: the parent of the live token gets that same token back.
    const retried = await refreshWith(r2)
    expect(retried.data.session!.refresh_token).toBe(r3)

    const interval = target.running ? 1 : 10
    const waitOut = () => new Promise((resolve) => setTimeout(resolve, interval * 1000 + 600))
    const tryAfterInterval = async (work: () => Promise<void>) =>
      target.running ? withAuthConfig(target, (auth) => (auth.refresh_token_reuse_interval = interval), work) : work()

    await tryAfterInterval(async () => {
      await waitOut()
      const reused = await refreshWith(first)
      expect(reused.data.session).toBeNull()
      expect(reused.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' })

      // Reuse revokes the whole family: once its own grace period is over, the live token is dead too.
      await waitOut()
      const live = await refreshWith(r3)
      expect(live.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' })
    })
  })

  it('refreshSession on a signed-in client keeps it signed in with a new session', async () => {
    const user = await signUp(target, 'refresh')
    const client = clientFor(target)
    await client.auth.signInWithPassword({ email: user.email, password: PASSWORD })
    const before = (await client.auth.getSession()).data.session!

    const { data, error } = await client.auth.refreshSession()
    expect(error).toBeNull()
    expect(data.session!.refresh_token).not.toBe(before.refresh_token)
    expect((await client.auth.getUser()).data.user!.id).toBe(user.id)
  })

  it('updateUser merges metadata, a null removing a key, and the token carries it after a refresh', async () => {
    const user = await signUp(target, 'meta', { theme: 'light', extra: 1 })
    const client = clientFor(target)
    await client.auth.setSession(user.session)

    const { data, error } = await client.auth.updateUser({ data: { theme: 'dark', extra: null } })
    expect(error).toBeNull()
    expect(data.user!.user_metadata).toMatchObject({ username: user.username, theme: 'dark' })
    expect(data.user!.user_metadata).not.toHaveProperty('extra')

    const refreshed = await client.auth.refreshSession()
    expect(decodeJwt(refreshed.data.session!.access_token).user_metadata).toMatchObject({ theme: 'dark' })
  })

  it('updateUser changes the password: the old one stops working, the same one again is same_password', async () => {
    const user = await signUp(target, 'newpw')
    const client = clientFor(target)
    await client.auth.setSession(user.session)

    const same = await client.auth.updateUser({ password: PASSWORD })
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' })
    const weak = await client.auth.updateUser({ password: 'abc' })
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' })

    const { error } = await client.auth.updateUser({ password: 'a-brand-new-password' })
    expect(error).toBeNull()
    const old = await clientFor(target).auth.signInWithPassword({ email: user.email, password: PASSWORD })
    expect(old.error).toMatchObject({ code: 'invalid_credentials' })
    const fresh = await clientFor(target).auth.signInWithPassword({ email: user.email, password: 'a-brand-new-password' })
    expect(fresh.error).toBeNull()
    // The session that changed the password lives on.
    expect((await client.auth.getUser()).error).toBeNull()
  })

  it("refuses to change one's own email (422), and an address already taken is email_exists", async (context) => {
    if (!target.running) return context.skip() // GoTrue mails confirmations instead; the stand-in refuses
    const user = await signUp(target, 'email')
    const other = await signUp(target, 'taken')
    const client = clientFor(target)
    await client.auth.setSession(user.session)

    const changed = await client.auth.updateUser({ email: uniqueEmail('new') })
    expect(changed.error).toMatchObject({ status: 422, code: 'validation_failed' })
    const taken = await client.auth.updateUser({ email: other.email })
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' })
    expect((await client.auth.getUser()).data.user!.email).toBe(user.email)
  })

  it('signOut ends the session: its refresh token and its access token stop working', async () => {
    const user = await signUp(target, 'signout')
    const client = clientFor(target)
    await client.auth.setSession(user.session)
    const { refresh_token: refreshToken, access_token: accessToken } = (await client.auth.getSession()).data.session!

    expect((await client.auth.signOut()).error).toBeNull()

    const refreshed = await refreshWith(refreshToken)
    expect(refreshed.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
    const { data, error } = await clientFor(target).auth.getUser(accessToken)
    expect(data.user).toBeNull()
    expect(error!.name).toBe('AuthSessionMissingError')
  })

  it("signOut with scope 'others' ends the other sessions and keeps this one; 'local' ends only this one", async () => {
    const user = await signUp(target, 'scopes')
    const here = clientFor(target)
    const elsewhere = clientFor(target)
    await here.auth.signInWithPassword({ email: user.email, password: PASSWORD })
    await elsewhere.auth.signInWithPassword({ email: user.email, password: PASSWORD })
    const elsewhereToken = (await elsewhere.auth.getSession()).data.session!.refresh_token

    expect((await here.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect((await refreshWith(elsewhereToken)).error).toMatchObject({ code: 'refresh_token_not_found' })
    expect((await here.auth.getUser()).error).toBeNull()

    const third = clientFor(target)
    await third.auth.signInWithPassword({ email: user.email, password: PASSWORD })
    const hereToken = (await here.auth.getSession()).data.session!.refresh_token
    expect((await third.auth.signOut({ scope: 'local' })).error).toBeNull()
    expect((await refreshWith(hereToken)).error).toBeNull()
  })
})
