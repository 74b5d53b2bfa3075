import { EventEmitter } from 'node:events'
import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import { DatabaseHealth } from './health'

/** A stand-in for pg.Pool with the counters DatabaseHealth reads. */
function fakePool(counts: { total: number; idle: number; max: number }): pg.Pool {
  return Object.assign(new EventEmitter(), {
    options: { max: counts.max },
    totalCount: counts.total,
    idleCount: counts.idle,
  }) as unknown as pg.Pool
}

const acquireTimeout = new Error('timeout exceeded when trying to connect')

describe('DatabaseHealth.noteFailure', () => {
  it('keeps the gate open when the timeout came from a pool whose every connection is busy', () => {
    const health = new DatabaseHealth(fakePool({ total: 10, idle: 0, max: 10 }))
    health.noteFailure(acquireTimeout)
    expect(health.down).toBe(false)
  })

  it('closes the gate when the pool had room: the database itself did not answer', () => {
    const health = new DatabaseHealth(fakePool({ total: 3, idle: 0, max: 10 }))
    health.noteFailure(acquireTimeout)
    expect(health.down).toBe(true)
  })

  it('closes the gate when a connection is lost, however busy the pool', () => {
    const pool = fakePool({ total: 10, idle: 0, max: 10 })
    const health = new DatabaseHealth(pool)
    pool.emit('error', Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' }))
    expect(health.down).toBe(true)
  })
})
