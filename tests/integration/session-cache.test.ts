import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../db/connect'
import { listenForInvalidation, SessionCache } from '../../app/server/session-cache.server'
import { readSessionUser, sessionCache, type SessionUser } from '../../app/server/session.server'
import { claimsFor, databaseKinds, insertAuthUser, migratedDatabase } from '../support/databases'
import { listeningDatabase, waitFor, within1s } from './support/cache-listeners'

/**
 * The session cache's pushed invalidation (docs/decisions/0033-session-cache-pushed-invalidation.md):
 * each change that takes access away, or changes what the pages show of the user, reaches every
 * listening cache; a lost channel makes every read ask the database again.
 */

async function newSession(handle: DatabaseHandle, userId: string): Promise<string> {
  const id = randomUUID()
  await handle.pool.query('insert into auth.sessions (id, user_id, created_at, updated_at) values ($1, $2, now(), now())', [
    id,
    userId,
  ])
  return id
}

type Revocation = [
  string,
  (handle: DatabaseHandle, userId: string, sessionId: string) => Promise<unknown>,
  /** What the process sees once the change reached it. */
  (user: SessionUser | null, before: SessionUser) => boolean,
]
const gone = (user: SessionUser | null) => user === null
const revocations: Revocation[] = [
  ['sign-out', (h, _user, session) => h.pool.query('delete from auth.sessions where id = $1', [session]), gone],
  ['deletion', (h, user) => h.pool.query('delete from auth.users where id = $1', [user]), gone],
  ['soft deletion', (h, user) => h.pool.query('update auth.users set deleted_at = now() where id = $1', [user]), gone],
  ['ban', (h, user) => h.pool.query("update auth.users set banned_until = now() + interval '1 day' where id = $1", [user]), gone],
  [
    'demotion',
    (h, user) => h.pool.query("update public.profiles set role = 'user' where id = $1", [user]),
    (u) => u?.role === 'user',
  ],
  [
    'losing verification',
    (h, user) => h.pool.query('update public.profiles set is_verified = false where id = $1', [user]),
    (u) => u?.isVerified === false,
  ],
  [
    'a new username',
    (h, user) =>
      h.pool.query("update public.profiles set username = 'renamed_' || substr(md5(random()::text), 1, 6) where id = $1", [user]),
    (u, before) => !!u && u.username !== before.username,
  ],
]

describe.each(databaseKinds)('session cache invalidation (%s)', (kind) => {
  const t = listeningDatabase(kind)

  /**
   * A new admin with a session, once this process listens. The set-up's own role change is notified
   * too; it is waited for, or arriving during the test's first read it would keep that read out of
   * the cache (as it should: the read may predate the change).
   */
  async function admin() {
    await waitFor(() => sessionCache().healthy(), 'this process to listen')
    const generation = sessionCache().begin()
    const user = await insertAuthUser(t.db.handle.pool)
    await t.db.handle.pool.query("update public.profiles set role = 'admin', is_verified = true where id = $1", [user])
    await waitFor(() => sessionCache().begin() > generation, 'the set-up’s own notification')
    const session = await newSession(t.db.handle, user)
    return { user, session, claims: { ...claimsFor(user), session_id: session } }
  }

  it.skipIf(t.skip).each(revocations)('%s reaches this process and the others within 1 s', async (_name, revoke, seen) => {
    const { user, session, claims } = await admin()
    const before = (await readSessionUser(claims))!
    expect(before.role).toBe('admin')
    const key = `${user}:${session}`
    expect(sessionCache().get(key)?.role).toBe('admin')
    t.other?.cache.store(
      key,
      user,
      { username: before.username, role: 'admin', isVerified: true, avatarPath: null },
      t.other.cache.begin(),
    )
    expect(t.other?.cache.get(key)?.role ?? 'admin').toBe('admin')

    await revoke(t.db.handle, user, session)

    await within1s(async () => seen(await readSessionUser(claims), before))
    if (t.other) await within1s(() => t.other!.cache.get(key) === undefined)
  })

  it.skipIf(t.skip)('a read of the session is served from the cache while nothing changes', async () => {
    const { user, claims } = await admin()
    const first = await readSessionUser(claims)
    expect(first?.role).toBe('admin')
    // Changed behind the cache's back (its notification suppressed): the cache answers, so nothing asked the database.
    await t.db.handle.pool.query(
      'begin; alter table public.profiles disable trigger notify_profile_changed; ' +
        "update public.profiles set role = 'creator' where id = '" +
        user +
        "'; alter table public.profiles enable trigger notify_profile_changed; commit",
    )
    expect((await readSessionUser(claims))?.role).toBe('admin')
  })
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('a lost notification channel (postgres)', () => {
  let db: Awaited<ReturnType<typeof migratedDatabase>>
  beforeAll(async () => {
    db = await migratedDatabase('postgres')
  }, 120_000)
  afterAll(async () => {
    await db?.dispose()
  })

  it('makes every read ask the database until the channel is back, then caches again', async () => {
    const cache = new SessionCache()
    const listener = await listenForInvalidation(db.handle, cache)
    try {
      await waitFor(() => cache.healthy(), 'the listener')
      cache.store('u:s', 'u', { username: 'ada', role: 'admin', isVerified: true, avatarPath: null }, cache.begin())
      expect(cache.get('u:s')?.role).toBe('admin')

      // The listening connection is cut, as a network failure or a restart would.
      await db.handle.pool.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lumen-session-listener' and datname = current_database()",
      )
      await waitFor(() => !cache.healthy(), 'the cache to notice')
      expect(cache.get('u:s')).toBeUndefined()
      // While it is down nothing is kept.
      cache.store('u:s', 'u', { username: 'ada', role: 'admin', isVerified: true, avatarPath: null }, cache.begin())
      expect(cache.get('u:s')).toBeUndefined()

      // It comes back by itself and caches again.
      await waitFor(() => cache.healthy(), 'the listener to reconnect')
      cache.store('u:s', 'u', { username: 'ada', role: 'user', isVerified: true, avatarPath: null }, cache.begin())
      expect(cache.get('u:s')?.role).toBe('user')
    } finally {
      await listener.stop()
    }
  })
})
