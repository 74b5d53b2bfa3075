import { randomBytes } from 'node:crypto'
import { createChunks, stringToBase64URL } from '@supabase/ssr'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { haveBuild } from './support/processes'
import { openServerMode, type ServerMode } from './support/server-mode'

/**
 * The session cache with pushed invalidation (docs/decisions/0033-session-cache-pushed-invalidation.md),
 * on real processes: two app instances on one PostgreSQL. A user signs in on the first instance and
 * uses the second (which caches their session); signing out, being deleted, banned or demoted on
 * the first takes effect on the second within 1 s. With the second instance's notification channel
 * cut, it asks the database on every request. The bell's unread count, kept beside the sessions
 * (docs/decisions/0062-unread-count-with-the-session-cache.md), follows the same way.
 */
describe.skipIf(!haveBuild())('revocation reaches a second app instance within 1 s', () => {
  let mode: ServerMode

  beforeAll(async () => {
    mode = await openServerMode('revocation')
    await mode.startApp()
  }, 180_000)
  afterAll(async () => {
    await mode?.close()
  })

  async function signedIn(role: 'user' | 'admin' = 'user') {
    const [first] = mode.apps
    const email = `revoke-${randomBytes(4).toString('hex')}@example.test`
    const password = `Pw-${randomBytes(8).toString('hex')}`
    const created = await mode.service.auth.admin.createUser({ email, password, email_confirm: true })
    expect(created.error).toBeNull()
    const id = created.data.user!.id
    if (role === 'admin') await mode.pool.query("update public.profiles set role = 'admin' where id = $1", [id])
    const client = createClient(first!.url, mode.anonKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const { data, error } = await client.auth.signInWithPassword({ email, password })
    expect(error).toBeNull()
    const cookie = createChunks('sb-127-auth-token', `base64-${stringToBase64URL(JSON.stringify(data.session))}`)
      .map((chunk) => `${chunk.name}=${chunk.value}`)
      .join('; ')
    return { id, client, cookie }
  }

  /** The second instance's answer to `path` with the cookie: 200, or where it sends the visitor. */
  async function onSecond(path: string, cookie: string): Promise<string> {
    const response = await fetch(`${mode.apps[1]!.url}${path}`, { headers: { cookie }, redirect: 'manual' })
    const body = await response.text()
    if (response.status !== 200) return `${response.status} ${response.headers.get('location') ?? ''}`
    // The dashboard a learner gets, or the one creators and admins get, by the session's role.
    if (body.includes('Welcome to Lumen,')) return '200 learner'
    if (body.includes('Creator Dashboard')) return '200 creator'
    return '200'
  }

  /** Polls until the second instance answers `expected`; the 1 s deadline is the guarantee under test. */
  async function within1s(path: string, cookie: string, expected: RegExp): Promise<void> {
    const deadline = Date.now() + 1_000
    let last = ''
    while (!expected.test((last = await onSecond(path, cookie)))) {
      if (Date.now() > deadline) throw new Error(`still "${last}" 1 s after the change`)
    }
  }

  async function usedOnSecond(path: string, cookie: string) {
    // Several requests: the second instance has read the session and cached it.
    for (let index = 0; index < 3; index++) expect(await onSecond(path, cookie)).toMatch(/^200/)
  }

  it('signing out', async () => {
    const { client, cookie } = await signedIn()
    await usedOnSecond('/profile', cookie)
    expect((await client.auth.signOut()).error).toBeNull()
    await within1s('/profile', cookie, /^302 \/login/)
  })

  it('being deleted', async () => {
    const { id, cookie } = await signedIn()
    await usedOnSecond('/profile', cookie)
    expect((await mode.service.auth.admin.deleteUser(id)).error).toBeNull()
    await within1s('/profile', cookie, /^302 \/login/)
  })

  it('being banned', async () => {
    const { id, cookie } = await signedIn()
    await usedOnSecond('/profile', cookie)
    expect((await mode.service.auth.admin.updateUserById(id, { ban_duration: '24h' })).error).toBeNull()
    await within1s('/profile', cookie, /^302 \/login/)
  })

  it('being demoted from admin', async () => {
    const { id, cookie } = await signedIn('admin')
    // The admin pages ask the database themselves; the dashboard goes by the session's role.
    await usedOnSecond('/dashboard', cookie)
    expect(await onSecond('/dashboard', cookie)).toBe('200 creator')
    await mode.pool.query("update public.profiles set role = 'user' where id = $1", [id])
    await within1s('/dashboard', cookie, /^200 learner$/)
  })

  it('with its notification channel cut, the second instance asks the database on every request', async () => {
    const { id, cookie } = await signedIn('admin')
    await usedOnSecond('/dashboard', cookie)
    expect(await onSecond('/dashboard', cookie)).toBe('200 creator')
    // Cut every listening connection (both instances') and demote at once, with the notification
    // suppressed, so only a per-request check can see it.
    await mode.pool.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lumen-session-listener'",
    )
    const client = await mode.pool.connect()
    try {
      await client.query('begin')
      await client.query('alter table public.profiles disable trigger notify_profile_changed')
      await client.query("update public.profiles set role = 'user' where id = $1", [id])
      await client.query('alter table public.profiles enable trigger notify_profile_changed')
      await client.query('commit')
    } finally {
      client.release()
    }
    await within1s('/dashboard', cookie, /^200 learner$/)
  })

  /** The second instance's bell count for the cookie (GET /notifications/count). */
  async function unreadOnSecond(cookie: string): Promise<number> {
    const response = await fetch(`${mode.apps[1]!.url}/notifications/count`, { headers: { cookie } })
    return ((await response.json()) as { unread: number }).unread
  }

  async function unreadWithin1s(cookie: string, expected: number): Promise<void> {
    const deadline = Date.now() + 1_000
    let last: number
    while ((last = await unreadOnSecond(cookie)) !== expected) {
      if (Date.now() > deadline) throw new Error(`the count still ${last} 1 s after the change`)
    }
  }

  it('a new notification counts on the second instance within 1 s; with the channel cut, the count is asked for', async () => {
    const { id, cookie } = await signedIn()
    // Several requests: the second instance has counted and kept the count.
    for (let index = 0; index < 3; index++) expect(await unreadOnSecond(cookie)).toBe(0)
    await mode.pool.query("insert into public.notifications (recipient_id, type) values ($1, 'followed')", [id])
    await unreadWithin1s(cookie, 1)
    for (let index = 0; index < 3; index++) expect(await unreadOnSecond(cookie)).toBe(1)

    // The listening connections cut and the next notification suppressed: only a per-request count sees it.
    await mode.pool.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lumen-session-listener'",
    )
    const client = await mode.pool.connect()
    try {
      await client.query('begin')
      await client.query('alter table public.notifications disable trigger notify_unread_inserted')
      await client.query("insert into public.notifications (recipient_id, type) values ($1, 'followed')", [id])
      await client.query('alter table public.notifications enable trigger notify_unread_inserted')
      await client.query('commit')
    } finally {
      client.release()
    }
    await unreadWithin1s(cookie, 2)
  })
})
