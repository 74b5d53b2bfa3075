import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../db/connect'
import { connect, disconnect } from '../../app/server/db.server'
import { markNotificationsRead, unreadCount } from '../../app/server/notifications.server'
import { listenForInvalidation, SessionCache } from '../../app/server/session-cache.server'
import { sessionCache } from '../../app/server/session.server'
import { claimsFor, databaseKinds, insertAuthUser, migratedDatabase } from '../support/databases'
import { listeningDatabase, waitFor, within1s } from './support/cache-listeners'

/**
 * The bell's unread count kept with the cached sessions
 * (docs/decisions/0062-unread-count-with-the-session-cache.md): every change of a user's unread
 * notifications reaches this process and every other listening one within 1 s; marking read here
 * shows on the very next read; a lost channel makes every read count again.
 */

/** Runs `sql` with the unread triggers off, as a change the cache is never told of. */
function unnotified(sql: string): string {
  const triggers = ['notify_unread_inserted', 'notify_unread_updated', 'notify_unread_deleted']
  return (
    'begin; ' +
    triggers.map((name) => `alter table public.notifications disable trigger ${name}; `).join('') +
    `${sql}; ` +
    triggers.map((name) => `alter table public.notifications enable trigger ${name}; `).join('') +
    'commit'
  )
}

type Change = [string, (handle: DatabaseHandle, userId: string) => Promise<unknown>, number]
const changes: Change[] = [
  [
    'a new notification',
    (h, user) => h.pool.query("insert into public.notifications (recipient_id, type) values ($1, 'followed')", [user]),
    3,
  ],
  [
    'one marked read elsewhere',
    (h, user) =>
      h.pool.query(
        'update public.notifications set read_at = now() where id = (select id from public.notifications where recipient_id = $1 limit 1)',
        [user],
      ),
    1,
  ],
  [
    'one deleted',
    (h, user) =>
      h.pool.query(
        'delete from public.notifications where id = (select id from public.notifications where recipient_id = $1 limit 1)',
        [user],
      ),
    1,
  ],
]

describe.each(databaseKinds)('unread count invalidation (%s)', (kind) => {
  const t = listeningDatabase(kind)

  /** A user with `unread` notifications whose count this process has read and keeps. */
  async function recipient(unread: number) {
    const user = await insertAuthUser(t.db.handle.pool)
    for (let index = 0; index < unread; index++)
      await t.db.handle.pool.query("insert into public.notifications (recipient_id, type) values ($1, 'followed')", [user])
    const claims = claimsFor(user)
    await waitFor(() => sessionCache().healthy(), 'this process to listen')
    await waitFor(
      async () => (await unreadCount(claims)) === unread && sessionCache().getUnread(user) === unread,
      'the count to be kept',
    )
    return { user, claims }
  }

  it.skipIf(t.skip)('a count is served from the cache while nothing changes', async () => {
    const { user, claims } = await recipient(2)
    // Changed behind the cache's back (its notification suppressed): the cache answers, so nothing asked the database.
    await t.db.handle.pool.query(
      unnotified(`insert into public.notifications (recipient_id, type) values ('${user}', 'followed')`),
    )
    expect(await unreadCount(claims)).toBe(2)
  })

  it.skipIf(t.skip).each(changes)('%s reaches this process and the others within 1 s', async (_name, change, expected) => {
    const { user, claims } = await recipient(2)
    t.other?.cache.storeUnread(user, 2, t.other.cache.beginUnread())
    expect(t.other?.cache.getUnread(user) ?? 2).toBe(2)

    await change(t.db.handle, user)

    await within1s(async () => (await unreadCount(claims)) === expected)
    if (t.other) await within1s(() => t.other!.cache.getUnread(user) === undefined)
  })

  it.skipIf(t.skip)('marking read here shows on the very next read, before the database’s notification', async () => {
    const { user, claims } = await recipient(3)
    // The database tells nobody: only the action's own drop of this process's count can show it.
    await t.db.handle.pool.query('alter table public.notifications disable trigger notify_unread_updated')
    try {
      expect(await markNotificationsRead(claims, { all: true })).toBe(3)
      expect(sessionCache().getUnread(user)).toBeUndefined()
      expect(await unreadCount(claims)).toBe(0)
    } finally {
      await t.db.handle.pool.query('alter table public.notifications enable trigger notify_unread_updated')
    }
  })

  it.skipIf(t.skip)('another user’s notification leaves this user’s count alone', async () => {
    const { user } = await recipient(1)
    const { user: someoneElse } = await recipient(0)
    await t.db.handle.pool.query("insert into public.notifications (recipient_id, type) values ($1, 'followed')", [someoneElse])
    await within1s(() => sessionCache().getUnread(someoneElse) === undefined)
    expect(sessionCache().getUnread(user)).toBe(1)
  })
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('unread counts and a lost notification channel (postgres)', () => {
  let db: Awaited<ReturnType<typeof migratedDatabase>>
  beforeAll(async () => {
    db = await migratedDatabase('postgres')
    await disconnect()
    await connect(db.handle)
  }, 120_000)
  afterAll(async () => {
    await disconnect()
    await db?.dispose()
  })

  it('keeps nothing while the channel is down, then caches again', async () => {
    const cache = new SessionCache()
    const listener = await listenForInvalidation(db.handle, cache)
    try {
      await waitFor(() => cache.healthy(), 'the listener')
      cache.storeUnread('u', 4, cache.beginUnread())
      expect(cache.getUnread('u')).toBe(4)
      await db.handle.pool.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lumen-session-listener' and datname = current_database()",
      )
      await waitFor(() => !cache.healthy(), 'the cache to notice')
      expect(cache.getUnread('u')).toBeUndefined()
      cache.storeUnread('u', 4, cache.beginUnread())
      expect(cache.getUnread('u')).toBeUndefined()
      await waitFor(() => cache.healthy(), 'the listener to reconnect')
      cache.storeUnread('u', 5, cache.beginUnread())
      expect(cache.getUnread('u')).toBe(5)
    } finally {
      await listener.stop()
    }
  })

  it('with the channel cut and the change never told, the count is right within 1 s: it is counted per request', async () => {
    const user = await insertAuthUser(db.handle.pool)
    const claims = claimsFor(user)
    await waitFor(() => sessionCache().healthy(), 'this process to listen')
    await waitFor(async () => (await unreadCount(claims)) === 0 && sessionCache().getUnread(user) === 0, 'the count to be kept')
    await db.handle.pool.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lumen-session-listener' and datname = current_database()",
    )
    await db.handle.pool.query(unnotified(`insert into public.notifications (recipient_id, type) values ('${user}', 'followed')`))
    await within1s(async () => (await unreadCount(claims)) === 1)
  })
})
