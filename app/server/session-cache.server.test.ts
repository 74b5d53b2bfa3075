import { describe, expect, it } from 'vitest'
import { HEALTHY_FOR_MS, MAX_AGE_MS, MAX_ENTRIES, SessionCache, type CachedSession } from './session-cache.server'

const value = (username: string, role: CachedSession['role'] = 'user'): CachedSession => ({
  username,
  role,
  isVerified: false,
  avatarPath: null,
})

function clocked() {
  const clock = { now: 1_000_000 }
  const cache = new SessionCache(() => clock.now)
  return { clock, cache }
}

describe('SessionCache', () => {
  it('serves nothing until the channel is confirmed listening', () => {
    const { cache } = clocked()
    cache.store('u1:s1', 'u1', value('ada'), cache.begin())
    expect(cache.get('u1:s1')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('serves a stored session while the channel is healthy, and falls back once heartbeats stop', () => {
    const { clock, cache } = clocked()
    cache.confirmed(clock.now)
    cache.store('u1:s1', 'u1', value('ada'), cache.begin())
    expect(cache.get('u1:s1')).toEqual(value('ada'))
    // No heartbeat answered for HEALTHY_FOR_MS: every request asks the database again.
    clock.now += HEALTHY_FOR_MS
    expect(cache.get('u1:s1')).toBeUndefined()
    // A later heartbeat makes the entry servable again (nothing was missed while the connection held).
    cache.confirmed(clock.now)
    expect(cache.get('u1:s1')).toEqual(value('ada'))
  })

  it('drops every session of a user on their notification, and only theirs', () => {
    const { clock, cache } = clocked()
    cache.confirmed(clock.now)
    cache.store('u1:s1', 'u1', value('ada'), cache.begin())
    cache.store('u1:s2', 'u1', value('ada'), cache.begin())
    cache.store('u2:s3', 'u2', value('bob'), cache.begin())
    cache.invalidateUser('u1')
    expect(cache.get('u1:s1')).toBeUndefined()
    expect(cache.get('u1:s2')).toBeUndefined()
    expect(cache.get('u2:s3')).toEqual(value('bob'))
  })

  it('does not store a read begun before a notification arrived (it may predate the change)', () => {
    const { clock, cache } = clocked()
    cache.confirmed(clock.now)
    const generation = cache.begin()
    // The admin demotes the user while the read is in flight; the notification arrives before the read ends.
    cache.invalidateUser('u1')
    cache.store('u1:s1', 'u1', value('ada', 'admin'), generation)
    expect(cache.get('u1:s1')).toBeUndefined()
    // A read begun after it is kept.
    cache.store('u1:s1', 'u1', value('ada', 'user'), cache.begin())
    expect(cache.get('u1:s1')?.role).toBe('user')
  })

  it('forgets everything when the channel is lost, and does not keep reads that were in flight', () => {
    const { clock, cache } = clocked()
    cache.confirmed(clock.now)
    cache.store('u1:s1', 'u1', value('ada'), cache.begin())
    const inFlight = cache.begin()
    cache.down()
    expect(cache.size).toBe(0)
    cache.confirmed(clock.now)
    cache.store('u2:s2', 'u2', value('bob'), inFlight)
    expect(cache.get('u1:s1')).toBeUndefined()
    expect(cache.get('u2:s2')).toBeUndefined()
  })

  it('keeps an entry no longer than its maximum age, nor past the session’s own end', () => {
    const { clock, cache } = clocked()
    cache.confirmed(clock.now, Infinity)
    cache.store('u1:s1', 'u1', value('ada'), cache.begin())
    cache.store('u2:s2', 'u2', value('bob'), cache.begin(), clock.now + 50)
    cache.store('u3:s3', 'u3', value('cy'), cache.begin(), clock.now - 1)
    expect(cache.get('u3:s3')).toBeUndefined()
    clock.now += 50
    expect(cache.get('u2:s2')).toBeUndefined()
    expect(cache.get('u1:s1')).toEqual(value('ada'))
    clock.now += MAX_AGE_MS
    expect(cache.get('u1:s1')).toBeUndefined()
  })

  it('holds at most MAX_ENTRIES sessions, letting the oldest go', () => {
    const { clock, cache } = clocked()
    cache.confirmed(clock.now)
    for (let index = 0; index <= MAX_ENTRIES; index++) cache.store(`u${index}:s`, `u${index}`, value('x'), cache.begin())
    expect(cache.size).toBe(MAX_ENTRIES)
    expect(cache.get('u0:s')).toBeUndefined()
    expect(cache.get(`u${MAX_ENTRIES}:s`)).toEqual(value('x'))
  })

  describe('unread counts', () => {
    it('serves a stored count only while the channel is healthy', () => {
      const { clock, cache } = clocked()
      cache.storeUnread('u1', 3, cache.beginUnread())
      expect(cache.getUnread('u1')).toBeUndefined()
      cache.confirmed(clock.now)
      cache.storeUnread('u1', 3, cache.beginUnread())
      expect(cache.getUnread('u1')).toBe(3)
      clock.now += HEALTHY_FOR_MS
      expect(cache.getUnread('u1')).toBeUndefined()
    })

    it('drops a user’s count on their notification, and only theirs; their sessions stay', () => {
      const { clock, cache } = clocked()
      cache.confirmed(clock.now)
      cache.store('u1:s1', 'u1', value('ada'), cache.begin())
      cache.storeUnread('u1', 3, cache.beginUnread())
      cache.storeUnread('u2', 0, cache.beginUnread())
      cache.invalidateUnread('u1')
      expect(cache.getUnread('u1')).toBeUndefined()
      expect(cache.getUnread('u2')).toBe(0)
      expect(cache.get('u1:s1')).toEqual(value('ada'))
    })

    it('does not store a count begun before a count’s notification arrived; a session’s notification does not hold counts back', () => {
      const { clock, cache } = clocked()
      cache.confirmed(clock.now)
      const generation = cache.beginUnread()
      cache.invalidateUnread('u2')
      cache.storeUnread('u1', 3, generation)
      expect(cache.getUnread('u1')).toBeUndefined()
      // A session's notification does not hold counts back (their own channel says when they change).
      const next = cache.beginUnread()
      cache.invalidateUser('u1')
      cache.storeUnread('u1', 2, next)
      expect(cache.getUnread('u1')).toBe(2)
    })

    it('forgets every count when the channel is lost, and does not keep counts that were in flight', () => {
      const { clock, cache } = clocked()
      cache.confirmed(clock.now)
      cache.storeUnread('u1', 3, cache.beginUnread())
      const inFlight = cache.beginUnread()
      cache.down()
      expect(cache.unreadSize).toBe(0)
      cache.confirmed(clock.now)
      cache.storeUnread('u2', 1, inFlight)
      expect(cache.getUnread('u1')).toBeUndefined()
      expect(cache.getUnread('u2')).toBeUndefined()
    })

    it('keeps a count at most MAX_AGE_MS, and at most MAX_ENTRIES of them', () => {
      const { clock, cache } = clocked()
      cache.confirmed(clock.now, Infinity)
      for (let index = 0; index <= MAX_ENTRIES; index++) cache.storeUnread(`u${index}`, index, cache.beginUnread())
      expect(cache.unreadSize).toBe(MAX_ENTRIES)
      expect(cache.getUnread('u0')).toBeUndefined()
      expect(cache.getUnread('u1')).toBe(1)
      clock.now += MAX_AGE_MS
      expect(cache.getUnread('u1')).toBeUndefined()
    })
  })
})
