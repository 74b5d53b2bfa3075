import { EventEmitter } from 'node:events'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import type pg from 'pg'
import { describe, expect, it, vi } from 'vitest'
import { databaseErrors, DatabaseHealth } from './health'
import { logger } from './log'

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

describe('databaseErrors', () => {
  /**
   * A page whose client goes away mid-answer: the handler has sent its headers and a first chunk when
   * the connection closes, and (as Remix's Express adapter does) passes the abort on to the error
   * handlers. Express's own last handler would print its stack (console.error, which fails this file).
   */
  async function abortedMidAnswer(headersFirst: boolean) {
    const app = express()
    app.set('env', 'production')
    const aborted = new Promise<void>((resolve) => {
      app.get('/page', (_req, res, next) => {
        if (headersFirst) res.writeHead(200, { 'Content-Type': 'text/html' }).write('<!doctype html>')
        res.on('close', () => {
          next(new DOMException('This operation was aborted', 'AbortError'))
          // Express's own handler logs on the next turn.
          setTimeout(resolve, 20)
        })
      })
    })
    app.use(databaseErrors(new DatabaseHealth(fakePool({ total: 0, idle: 0, max: 10 }))))
    const server = createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const request = httpRequest({ host: '127.0.0.1', port, path: '/page' })
      request.on('error', () => {})
      if (headersFirst) request.on('response', (response) => response.once('data', () => request.destroy()))
      else setTimeout(() => request.destroy(), 50)
      request.end()
      await aborted
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  }

  it('ends a request whose client went away after its answer began, without logging an error', async () => {
    await abortedMidAnswer(true)
  })

  it('ends a request whose client went away before its answer began, without logging an error', async () => {
    // The handler's own logger (silent under Vitest): what it was asked to log at error level.
    const error = vi.fn()
    const child = vi.spyOn(logger, 'child').mockReturnValue({ error } as unknown as ReturnType<typeof logger.child>)
    try {
      await abortedMidAnswer(false)
    } finally {
      child.mockRestore()
    }
    expect(error).not.toHaveBeenCalled()
  })
})
