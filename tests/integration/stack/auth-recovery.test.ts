import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'
import {
  authFetch,
  fragmentOf,
  latestEmail,
  linksIn,
  PASSWORD,
  signUp,
  standIn,
  uniqueEmail,
  withAuthConfig,
} from './auth-support'

/**
 * Password recovery end to end: resetPasswordForEmail mails a link; following
 * it (implicit flow: a session in the fragment; PKCE: a code to exchange) or
 * sending its token hash to verifyOtp yields a session that can set a new
 * password, after which the old one no longer signs in.
 */
announceSkippedRealSupabase()

const NEW_PASSWORD = 'a-fresh-new-password'

describe.each(targetNames)('password recovery on %s', (name) => {
  let target: ContractTarget
  let appUrl: string

  beforeAll(async () => {
    target = await openTarget(name)
    // config.toml's default allows two emails an hour for the whole server; this suite sends more.
    if (target.running) standIn(target).config.auth.rate_limit.email_sent = 100
    // The app shares the stand-in's origin in embedded mode; a real Supabase allows its site URL.
    appUrl = target.running ? target.url : (process.env.CONTRACT_SUPABASE_SITE_URL ?? 'http://127.0.0.1:3000')
  })
  afterAll(async () => {
    await target?.close()
  })

  /** A PKCE client that keeps its code verifier, like a browser tab. */
  function pkceClient(): SupabaseClient {
    const store = new Map<string, string>()
    return createClient(target.url, target.anonKey, {
      ...nodeRealtimeOptions,
      auth: {
        flowType: 'pkce',
        persistSession: true,
        autoRefreshToken: false,
        detectSessionInUrl: false,
        storage: {
          getItem: (key) => store.get(key) ?? null,
          setItem: (key, value) => void store.set(key, value),
          removeItem: (key) => void store.delete(key),
        },
      },
    })
  }

  async function followEmailLink(email: string): Promise<string> {
    const message = await latestEmail(target, email)
    expect(message?.subject).toBe('Reset Your Password')
    const link = linksIn(message!).find((url) => url.pathname === '/auth/v1/verify')
    expect(link?.searchParams.get('type')).toBe('recovery')
    const response = await fetch(link!, { redirect: 'manual' })
    expect(response.status).toBe(303)
    return response.headers.get('location')!
  }

  async function expectPasswordChanged(email: string) {
    const old = await clientFor(target).auth.signInWithPassword({ email, password: PASSWORD })
    expect(old.error).toMatchObject({ code: 'invalid_credentials' })
    const fresh = await clientFor(target).auth.signInWithPassword({ email, password: NEW_PASSWORD })
    expect(fresh.error).toBeNull()
  }

  it('mails a link whose session (in the redirect fragment) can set a new password', async () => {
    const user = await signUp(target, 'reset')
    const { error } = await clientFor(target).auth.resetPasswordForEmail(user.email, { redirectTo: `${appUrl}/reset-password` })
    expect(error).toBeNull()

    const location = await followEmailLink(user.email)
    expect(location.startsWith(`${appUrl}/reset-password#`)).toBe(true)
    const fragment = fragmentOf(location)
    expect(fragment.get('type')).toBe('recovery')
    expect(fragment.get('token_type')).toBe('bearer')

    const client = clientFor(target)
    const set = await client.auth.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    })
    expect(set.data.user?.id).toBe(user.id)
    expect((await client.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull()
    await expectPasswordChanged(user.email)
  })

  it('with PKCE, the link redirects with a code that exchangeCodeForSession turns into a session', async () => {
    const user = await signUp(target, 'pkce')
    const client = pkceClient()
    expect((await client.auth.resetPasswordForEmail(user.email, { redirectTo: `${appUrl}/reset-password` })).error).toBeNull()

    const location = new URL(await followEmailLink(user.email))
    const code = location.searchParams.get('code')
    expect(code).toEqual(expect.any(String))

    const exchanged = await client.auth.exchangeCodeForSession(code!)
    expect(exchanged.error).toBeNull()
    expect(exchanged.data.user!.id).toBe(user.id)
    expect((await client.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull()
    await expectPasswordChanged(user.email)

    // The code was spent.
    const again = await pkceClient().auth.exchangeCodeForSession(code!)
    expect(again.error).not.toBeNull()
  })

  it("the email also links to the app's /auth/confirm with a token_hash that verifyOtp accepts once", async (context) => {
    if (!target.running) context.skip() // a real Supabase's template is whatever the project configured
    const user = await signUp(target, 'ssrlink')
    await clientFor(target).auth.resetPasswordForEmail(user.email, { redirectTo: `${appUrl}/reset-password` })

    const link = linksIn((await latestEmail(target, user.email))!).find((url) => url.pathname === '/auth/confirm')
    expect(link?.origin).toBe(appUrl)
    expect(link?.searchParams.get('type')).toBe('recovery')
    expect(link?.searchParams.get('next')).toBe('/reset-password')
    const tokenHash = link!.searchParams.get('token_hash')!

    const client = clientFor(target)
    const verified = await client.auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })
    expect(verified.error).toBeNull()
    expect(verified.data.session!.user.id).toBe(user.id)
    expect((await client.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull()
    await expectPasswordChanged(user.email)

    const reused = await clientFor(target).auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })
    expect(reused.error).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('verifyOtp accepts the hashed token of an admin-generated recovery link', async () => {
    const user = await signUp(target, 'genlink')
    const { data, error } = await clientFor(target, 'service').auth.admin.generateLink({ type: 'recovery', email: user.email })
    expect(error).toBeNull()
    expect(data.properties).toMatchObject({ verification_type: 'recovery', hashed_token: expect.any(String) })
    expect(data.properties!.action_link).toContain('/auth/v1/verify?token=')

    const verified = await clientFor(target).auth.verifyOtp({ type: 'recovery', token_hash: data.properties!.hashed_token })
    expect(verified.error).toBeNull()
    expect(verified.data.user!.id).toBe(user.id)
  })

  it('answers an unknown address like a known one, and sends nothing', async () => {
    const email = uniqueEmail('ghost')
    const { data, error } = await clientFor(target).auth.resetPasswordForEmail(email)
    expect(error).toBeNull()
    expect(data).toEqual({})
    expect(await latestEmail(target, email)).toBeUndefined()
  })

  it('a used or forged link redirects back with otp_expired in the fragment', async () => {
    const user = await signUp(target, 'usedlink')
    const { data } = await clientFor(target, 'service').auth.admin.generateLink({
      type: 'recovery',
      email: user.email,
      options: { redirectTo: `${appUrl}/reset-password` },
    })
    const link = data.properties!.action_link
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(303)

    for (const url of [link, link.replace(/token=[^&]+/, 'token=forged')]) {
      const response = await fetch(url, { redirect: 'manual' })
      expect(response.status).toBe(303)
      const fragment = fragmentOf(response.headers.get('location')!)
      expect(fragment.get('error')).toBe('access_denied')
      expect(fragment.get('error_code')).toBe('otp_expired')
      expect(fragment.get('error_description')).toBe('Email link is invalid or has expired')
    }
  })

  it("a second reset for the same user within max_frequency is over_email_send_rate_limit", async (context) => {
    if (!target.running) context.skip() // depends on the project's [auth.email] max_frequency
    const user = await signUp(target, 'twice')
    await withAuthConfig(
      target,
      (auth) => Object.assign(auth, { email: { max_frequency: '60s' } }),
      async () => {
        expect((await clientFor(target).auth.resetPasswordForEmail(user.email)).error).toBeNull()
        const second = await authFetch(target, '/recover', { method: 'POST', body: JSON.stringify({ email: user.email }) })
        expect(second.status).toBe(429)
        expect(await second.json()).toMatchObject({
          code: 'over_email_send_rate_limit',
          message: expect.stringMatching(/^For security purposes, you can only request this after \d+ seconds\.$/),
        })
      },
    )
  })
})
