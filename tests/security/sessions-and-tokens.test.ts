import { randomUUID } from 'node:crypto'
import { decodeJwt, SignJWT } from 'jose'
import * as tus from 'tus-js-client'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, openTarget, type ContractTarget } from '../support/target'
import { createSignedInUser, expiredCopyOf, type TestUser } from '../support/tokens'

/**
 * ADR 0012, findings 3 and 4: Storage trusted a token's signature alone, so a
 * deleted user's or a signed-out session's unexpired token still wrote. Now
 * every Storage request with a user token needs the user and the session to
 * exist; forged, `alg: none`, expired and re-signed tokens stay refused.
 */
describe('tokens on Storage and Auth', () => {
  let target: ContractTarget
  let admin: SupabaseClient
  beforeAll(async () => {
    target = await openTarget('stand-in')
    admin = clientFor(target, 'service')
  })
  afterAll(async () => {
    await target?.close()
  })

  const jwtSecret = () => target.running!.jwtSecret
  const headers = (token: string) => ({ apikey: target.anonKey, Authorization: `Bearer ${token}` })

  function plainUpload(user: TestUser, token = user.accessToken) {
    return fetch(`${target.url}/storage/v1/object/uploads/${user.id}/quotes/${randomUUID()}.mp4`, {
      method: 'POST',
      headers: { ...headers(token), 'Content-Type': 'video/mp4' },
      body: 'bytes',
    })
  }

  function tusCreate(user: TestUser, token = user.accessToken): Promise<tus.DetailedError | 'ok'> {
    return new Promise((resolve) => {
      const upload = new tus.Upload(Buffer.from('bytes'), {
        endpoint: `${target.url}/storage/v1/upload/resumable`,
        headers: headers(token),
        retryDelays: [],
        uploadDataDuringCreation: true,
        metadata: { bucketName: 'uploads', objectName: `${user.id}/quotes/${randomUUID()}.mp4`, contentType: 'video/mp4' },
        onError: (error) => resolve(error as tus.DetailedError),
        onSuccess: () => resolve('ok'),
      })
      upload.start()
    })
  }

  async function expectRefused(response: Response, message: RegExp) {
    expect(response.status).toBe(400)
    const body = (await response.json()) as { statusCode: string; message: string }
    expect(body.statusCode).toBe('403')
    expect(body.message).toMatch(message)
  }

  it('a live session writes by plain upload and TUS', async () => {
    const user = await createSignedInUser(target, 'live')
    expect((await plainUpload(user)).status).toBe(200)
    expect(await tusCreate(user)).toBe('ok')
  })

  it('a signed-out session\'s token no longer writes (plain, TUS) nor reads the user', async () => {
    const user = await createSignedInUser(target, 'signedout')
    const token = user.accessToken
    await user.client.auth.signOut()
    await expectRefused(await plainUpload(user, token), /Session .* does not exist/)
    const tusError = await tusCreate(user, token)
    expect(tusError).not.toBe('ok')
    // Refused before TUS sees it: Storage's JSON error (HTTP 400, statusCode "403").
    expect((tusError as tus.DetailedError).originalResponse?.getBody()).toMatch(/"statusCode":"403".*does not exist/)
    const me = await fetch(`${target.url}/auth/v1/user`, { headers: headers(token) })
    expect(me.status).toBe(403)
  })

  it.each([true, false])('a deleted user\'s token (soft delete: %s) no longer writes, TUS PATCH included', async (soft) => {
    const user = await createSignedInUser(target, 'deleted')
    // A TUS upload started while the user existed cannot be continued after.
    const endpoint = `${target.url}/storage/v1/upload/resumable`
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...headers(user.accessToken),
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '10',
        'Upload-Metadata': `bucketName ${Buffer.from('uploads').toString('base64')},objectName ${Buffer.from(`${user.id}/quotes/${randomUUID()}.mp4`).toString('base64')},contentType ${Buffer.from('video/mp4').toString('base64')}`,
      },
    })
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!

    expect((await admin.auth.admin.deleteUser(user.id, soft)).error).toBeNull()
    await expectRefused(await plainUpload(user), /does not exist/)
    const patched = await fetch(location, {
      method: 'PATCH',
      headers: { ...headers(user.accessToken), 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: '0123456789',
    })
    await expectRefused(patched, /does not exist/)
    expect((await fetch(`${target.url}/auth/v1/user`, { headers: headers(user.accessToken) })).status).toBe(403)
    const { rows } = await target.running!.database.pool.query('select count(*)::int as n from auth.sessions where user_id = $1', [user.id])
    expect(rows[0].n).toBe(0)
  })

  it('a ban ends the user\'s sessions at once', async () => {
    const user = await createSignedInUser(target, 'banned')
    expect((await admin.auth.admin.updateUserById(user.id, { ban_duration: '24h' })).error).toBeNull()
    await expectRefused(await plainUpload(user), /does not exist/)
  })

  it('deleting the profile (the SQL path of an admin delete) ends the sessions too', async () => {
    const user = await createSignedInUser(target, 'profile')
    await target.running!.database.pool.query('delete from public.profiles where id = $1', [user.id])
    await expectRefused(await plainUpload(user), /does not exist/)
  })

  it('forged tokens stay refused: alg none, wrong secret, expired, a session of someone else', async () => {
    const user = await createSignedInUser(target, 'forge')
    const other = await createSignedInUser(target, 'other')
    const claims = decodeJwt(user.accessToken)
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`
    const wrongSecret = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not the secret'))
    const expired = await expiredCopyOf(user.accessToken, jwtSecret())
    const swappedSession = await new SignJWT({ ...claims, session_id: decodeJwt(other.accessToken).session_id })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(jwtSecret()))
    const serviceByClaim = await new SignJWT({ ...claims, role: 'service_role ' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'))
    for (const token of [none, wrongSecret, expired, swappedSession, serviceByClaim]) {
      const response = await plainUpload(user, token)
      expect(response.status).toBe(400)
      expect(((await response.json()) as { statusCode: string }).statusCode).toBe('403')
    }
  })
})
