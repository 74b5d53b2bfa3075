import { randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'
import * as tus from 'tus-js-client'
import { supabaseFor } from './support/stand-in'

/**
 * `npm start` serves the product and Supabase's APIs on one origin: the
 * official clients work against it unchanged (the contract suites under
 * tests/integration/stack go deep; this proves the wiring of the real server).
 */
test.describe('the Supabase APIs on the app’s own origin', () => {
  test('supabase-js signs up, signs in, refreshes, updates and signs out a user', async ({ baseURL }) => {
    const supabase = supabaseFor(baseURL!, 'anon')
    const email = `origin-${Date.now()}@example.test`
    const signUp = await supabase.auth.signUp({ email, password: 'Origin-test-2026', options: { data: { username: `origin_${Date.now()}` } } })
    expect(signUp.error).toBeNull()
    expect(signUp.data.session?.access_token).toBeTruthy()

    const signIn = await supabase.auth.signInWithPassword({ email, password: 'Origin-test-2026' })
    expect(signIn.error).toBeNull()
    const firstRefresh = signIn.data.session!.refresh_token

    const refreshed = await supabase.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    expect(refreshed.data.session?.refresh_token).not.toBe(firstRefresh)

    const updated = await supabase.auth.updateUser({ data: { bio: 'updated on one origin' } })
    expect(updated.error).toBeNull()
    expect(updated.data.user?.user_metadata.bio).toBe('updated on one origin')

    expect((await supabase.auth.signOut()).error).toBeNull()
    const { error } = await supabase.auth.refreshSession({ refresh_token: refreshed.data.session!.refresh_token })
    expect(error?.code).toMatch(/refresh_token_not_found|session_not_found|refresh_token_already_used/)
  })

  test('the service role creates and deletes users; a user’s token cannot', async ({ baseURL }) => {
    const admin = supabaseFor(baseURL!, 'service')
    const email = `made-by-admin-${Date.now()}@example.test`
    const created = await admin.auth.admin.createUser({ email, password: 'Admin-made-2026', email_confirm: true })
    expect(created.error).toBeNull()

    const user = supabaseFor(baseURL!, 'anon')
    await user.auth.signInWithPassword({ email, password: 'Admin-made-2026' })
    const denied = await user.auth.admin.listUsers()
    expect(denied.error?.status).toBe(403)

    expect((await admin.auth.admin.deleteUser(created.data.user!.id)).error).toBeNull()
    const gone = await user.auth.signInWithPassword({ email, password: 'Admin-made-2026' })
    expect(gone.error?.code).toBe('invalid_credentials')
  })

  test('a resumable upload lands in storage and downloads by range', async ({ baseURL }) => {
    const supabase = supabaseFor(baseURL!, 'anon')
    const { data, error } = await supabase.auth.signInWithPassword({ email: 'creator@lumen.test', password: 'Lumen-demo-2026' })
    expect(error).toBeNull()
    const bytes = randomBytes(3 * 1024 * 1024 + 17)
    const objectName = `${data.user!.id}/videos/origin-${Date.now()}.mp4`
    await new Promise<void>((resolve, reject) => {
      new tus.Upload(bytes, {
        endpoint: `${baseURL}/storage/v1/upload/resumable`,
        headers: { authorization: `Bearer ${data.session!.access_token}` },
        chunkSize: 1024 * 1024,
        uploadDataDuringCreation: true,
        metadata: { bucketName: 'uploads', objectName, contentType: 'video/mp4' },
        onError: reject,
        onSuccess: () => resolve(),
      }).start()
    })
    const response = await fetch(`${baseURL}/storage/v1/object/authenticated/uploads/${objectName}`, {
      headers: { authorization: `Bearer ${data.session!.access_token}`, range: 'bytes=1000-1999' },
    })
    expect(response.status).toBe(206)
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes.subarray(1000, 2000))
  })

  test('a learner may not upload a video source (403 in Storage’s shape)', async ({ baseURL }) => {
    const supabase = supabaseFor(baseURL!, 'anon')
    const { data } = await supabase.auth.signInWithPassword({ email: 'learner@lumen.test', password: 'Lumen-demo-2026' })
    const { error } = await supabase.storage
      .from('uploads')
      .upload(`${data.user!.id}/videos/not-allowed.mp4`, new Blob([randomBytes(64)], { type: 'video/mp4' }))
    expect(error).toMatchObject({ statusCode: '403' })
  })
})
