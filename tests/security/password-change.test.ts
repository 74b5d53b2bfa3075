import { randomUUID } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, openTarget, type ContractTarget } from '../support/target'
import { createSignedInUser } from '../support/tokens'

/**
 * ADR 0012, finding 2: PUT /auth/v1/user changed a password with any valid
 * session. Now, as GoTrue's secure_password_change, the session must be
 * less than 24 hours old (a recovery link's session is new), or the
 * current password must come with the change.
 */
describe('secure password change', () => {
  let target: ContractTarget
  let admin: SupabaseClient
  beforeAll(async () => {
    target = await openTarget('stand-in')
    admin = clientFor(target, 'service')
  })
  afterAll(async () => {
    await target?.close()
  })

  const age = (sessionId: string, hours: number) =>
    target.running!.database.pool.query(`update auth.sessions set created_at = now() - make_interval(hours => $2) where id = $1`, [sessionId, hours])
  const sessionOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).session_id as string
  const put = (token: string, body: unknown) =>
    fetch(`${target.url}/auth/v1/user`, {
      method: 'PUT',
      headers: { apikey: target.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
      body: JSON.stringify(body),
    })

  it('a fresh session changes the password', async () => {
    const user = await createSignedInUser(target, 'fresh')
    expect((await user.client.auth.updateUser({ password: `New-${randomUUID()}` })).error).toBeNull()
  })

  it('a day-old session is refused with reauthentication_needed, and the password stays', async () => {
    const user = await createSignedInUser(target, 'stale')
    await age(sessionOf(user.accessToken), 25)
    const response = await put(user.accessToken, { password: 'Stolen-Session-1' })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'reauthentication_needed', message: 'Password update requires reauthentication' })
    const signIn = await clientFor(target).auth.signInWithPassword({ email: user.email, password: 'Stolen-Session-1' })
    expect(signIn.error).not.toBeNull()
    // Metadata changes need no reauthentication.
    expect((await put(user.accessToken, { data: { theme: 'dark' } })).status).toBe(200)
  })

  it('a day-old session with the current password may change it', async () => {
    const email = `cur-${randomUUID().slice(0, 8)}@lumen.test`
    await admin.auth.admin.createUser({ email, password: 'Current-Password-1', email_confirm: true })
    const client = clientFor(target)
    const { data } = await client.auth.signInWithPassword({ email, password: 'Current-Password-1' })
    await age(data.session!.user.id && sessionOf(data.session!.access_token), 25)
    expect((await put(data.session!.access_token, { password: 'Next-Password-2', current_password: 'wrong' })).status).toBe(400)
    expect((await put(data.session!.access_token, { password: 'Next-Password-2', current_password: 'Current-Password-1' })).status).toBe(200)
  })

  it('a recovery link\'s session is recent: the reset flow keeps working', async () => {
    const email = `reset-${randomUUID().slice(0, 8)}@lumen.test`
    await admin.auth.admin.createUser({ email, password: 'Forgotten-Password-1', email_confirm: true })
    const link = await admin.auth.admin.generateLink({ type: 'recovery', email })
    const client = clientFor(target)
    const verified = await client.auth.verifyOtp({ type: 'recovery', token_hash: link.data.properties!.hashed_token })
    expect(verified.error).toBeNull()
    expect((await client.auth.updateUser({ password: 'Remembered-Password-2' })).error).toBeNull()
  })
})
