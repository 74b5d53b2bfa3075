import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'
import { authFetch, PASSWORD, profileOf, signUp, uniqueEmail, uniqueUsername } from './auth-support'

/**
 * GoTrue's admin API through `supabase.auth.admin`: only the service role may
 * call it; it creates, lists, reads, updates, bans and deletes users, and a
 * deleted user's tokens stop working.
 */
announceSkippedRealSupabase()

describe.each(targetNames)('auth admin on %s', (name) => {
  let target: ContractTarget

  beforeAll(async () => {
    target = await openTarget(name)
  })
  afterAll(async () => {
    await target?.close()
  })

  const admin = () => clientFor(target, 'service').auth.admin

  async function createConfirmedUser(label: string) {
    const email = uniqueEmail(label)
    const username = uniqueUsername(label)
    const { data, error } = await admin().createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { username },
    })
    expect(error).toBeNull()
    return { email, username, user: data.user! }
  }

  it('creates a confirmed user who can sign in, with a profile from the metadata', async () => {
    const { email, username, user } = await createConfirmedUser('created')
    expect(user).toMatchObject({
      email,
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { username, email_verified: true },
      identities: [expect.objectContaining({ provider: 'email' })],
    })
    expect(user.email_confirmed_at).toEqual(expect.any(String))
    expect(await profileOf(target, user.id)).toMatchObject({ username })

    const { error } = await clientFor(target).auth.signInWithPassword({ email, password: PASSWORD })
    expect(error).toBeNull()
  })

  it('refuses to create a second user with the same email as email_exists', async () => {
    const { email } = await createConfirmedUser('twice')
    const { error } = await admin().createUser({ email, password: PASSWORD, email_confirm: true })
    expect(error).toMatchObject({ status: 422, code: 'email_exists' })
  })

  it('lists users a page at a time, with X-Total-Count and Link', async () => {
    await createConfirmedUser('listed-a')
    await createConfirmedUser('listed-b')
    await createConfirmedUser('listed-c')

    const { data, error } = await admin().listUsers({ page: 1, perPage: 2 })
    expect(error).toBeNull()
    expect(data.users).toHaveLength(2)
    expect(data).toMatchObject({ aud: 'authenticated', nextPage: 2, total: expect.any(Number) })
    expect((data as { total: number }).total).toBeGreaterThanOrEqual(3)

    const response = await authFetch(target, '/admin/users?page=2&per_page=2', {
      headers: { apikey: target.serviceRoleKey, authorization: `Bearer ${target.serviceRoleKey}` },
    })
    expect(response.status).toBe(200)
    expect(Number(response.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3)
    expect(response.headers.get('link')).toMatch(/<[^>]+\/auth\/v1\/admin\/users\?page=\d+&per_page=2>; rel="last"/)
    const page2 = (await response.json()) as { users: { id: string }[] }
    expect(page2.users.map((user) => user.id)).not.toContain(data.users[0]!.id)
  })

  it('reads and updates a user: metadata merges, a ban keeps them out until lifted', async () => {
    const { email, user } = await createConfirmedUser('updated')
    expect((await admin().getUserById(user.id)).data.user!.email).toBe(email)

    const updated = await admin().updateUserById(user.id, {
      user_metadata: { bio: 'Teaches optics' },
      app_metadata: { plan: 'pro' },
      ban_duration: '24h',
    })
    expect(updated.error).toBeNull()
    expect(updated.data.user!.user_metadata).toMatchObject({ bio: 'Teaches optics', username: expect.any(String) })
    expect(updated.data.user!.app_metadata).toMatchObject({ provider: 'email', plan: 'pro' })
    expect(updated.data.user!.banned_until).toEqual(expect.any(String))

    const banned = await clientFor(target).auth.signInWithPassword({ email, password: PASSWORD })
    expect(banned.error).toMatchObject({ status: 400, code: 'user_banned' })

    expect((await admin().updateUserById(user.id, { ban_duration: 'none' })).error).toBeNull()
    expect((await clientFor(target).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
  })

  it('sets a new password for a user, which ends their sessions', async () => {
    const user = await signUp(target, 'adminpw')
    expect((await admin().updateUserById(user.id, { password: 'set-by-an-admin' })).error).toBeNull()

    const refreshed = await clientFor(target).auth.refreshSession({ refresh_token: user.session.refresh_token })
    expect(refreshed.error).toMatchObject({ code: 'refresh_token_not_found' })
    const signedIn = await clientFor(target).auth.signInWithPassword({ email: user.email, password: 'set-by-an-admin' })
    expect(signedIn.error).toBeNull()
  })

  it("deletes a user: reads answer user_not_found, and the user's unexpired tokens stop working", async () => {
    const user = await signUp(target, 'deleted')
    expect((await admin().deleteUser(user.id)).error).toBeNull()

    expect((await admin().getUserById(user.id)).error).toMatchObject({ status: 404, code: 'user_not_found' })
    const me = await authFetch(target, '/user', { headers: { authorization: `Bearer ${user.session.access_token}` } })
    expect(me.status).toBe(403)
    expect(await me.json()).toMatchObject({ code: 'user_not_found' })
    const refreshed = await clientFor(target).auth.refreshSession({ refresh_token: user.session.refresh_token })
    expect(refreshed.error).toMatchObject({ code: 'refresh_token_not_found' })
    expect(await profileOf(target, user.id)).toBeUndefined()
  })

  it('soft-deletes a user: they can no longer sign in and their session is gone', async () => {
    const user = await signUp(target, 'soft')
    expect((await admin().deleteUser(user.id, true)).error).toBeNull()

    const signIn = await clientFor(target).auth.signInWithPassword({ email: user.email, password: PASSWORD })
    expect(signIn.error).toMatchObject({ code: 'invalid_credentials' })
    const me = await authFetch(target, '/user', { headers: { authorization: `Bearer ${user.session.access_token}` } })
    expect(me.status).toBe(403)
    expect(await me.json()).toMatchObject({ code: 'session_not_found' })
  })

  it("refuses a user's own token on every admin route with not_admin", async () => {
    const user = await signUp(target, 'notadmin')
    const asUser = createClient(target.url, target.anonKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { headers: { Authorization: `Bearer ${user.session.access_token}` } },
    }).auth.admin

    const attempts = [
      asUser.listUsers(),
      asUser.createUser({ email: uniqueEmail('sneaky'), password: PASSWORD }),
      asUser.getUserById(user.id),
      asUser.updateUserById(user.id, { app_metadata: { role: 'admin' } }),
      asUser.deleteUser(user.id),
      asUser.generateLink({ type: 'recovery', email: user.email }),
    ]
    for (const { error } of await Promise.all(attempts)) {
      expect(error).toMatchObject({ status: 403, code: 'not_admin' })
    }
    expect((await admin().getUserById(user.id)).data.user!.app_metadata).not.toHaveProperty('role')
  })

  it('generates signup and magic links without sending email', async () => {
    const email = uniqueEmail('linked')
    const signupLink = await admin().generateLink({ type: 'signup', email, password: PASSWORD })
    expect(signupLink.error).toBeNull()
    expect(signupLink.data.user!.email).toBe(email)
    expect(signupLink.data.user!.email_confirmed_at).toBeUndefined()
    expect(signupLink.data.properties).toMatchObject({ verification_type: 'signup', email_otp: expect.stringMatching(/^\d{6}$/) })

    const unconfirmed = await clientFor(target).auth.signInWithPassword({ email, password: PASSWORD })
    expect(unconfirmed.error).toMatchObject({ code: 'email_not_confirmed' })
    const confirmed = await clientFor(target).auth.verifyOtp({ type: 'signup', token_hash: signupLink.data.properties!.hashed_token })
    expect(confirmed.error).toBeNull()
    expect(confirmed.data.user!.email_confirmed_at).toEqual(expect.any(String))

    const magic = await admin().generateLink({ type: 'magiclink', email })
    expect(magic.data.properties).toMatchObject({ verification_type: 'magiclink' })
    const signedIn = await clientFor(target).auth.verifyOtp({ type: 'magiclink', token_hash: magic.data.properties!.hashed_token })
    expect(signedIn.data.session!.user.id).toBe(confirmed.data.user!.id)
  })
})
