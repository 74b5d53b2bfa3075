import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../db/connect'
import { kyselyFor, runAs } from '../../db/kysely'
import { migrate } from '../../db/migrate'
import { apiRateLimits } from '../../app/server/api/limits.server'
import { memoryCounter, postgresWindowCounter, WindowLimiter, type WindowCounter } from '../../app/server/rate-limits.server'
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres'

/**
 * The app's rate limits with several processes: each "process" here is a front door with its own
 * connection pool on one PostgreSQL database, as server mode's processes (one per core) and a
 * fleet's instances are. Counted in Postgres, two processes allow what one allows; counted in
 * memory (the way it was), they allowed twice as much.
 */
describe('rate limits shared by every process (PostgreSQL)', () => {
  let scratch: ScratchDatabase
  const handles: DatabaseHandle[] = []
  const servers: Array<ReturnType<ReturnType<typeof express>['listen']>> = []

  async function processCounter(): Promise<WindowCounter> {
    const handle = await openDatabase({ databaseUrl: scratch.url, maxConnections: 2 })
    handles.push(handle)
    const db = kyselyFor(handle)
    return postgresWindowCounter((work) => runAs(db, 'service_role', { role: 'service_role' }, work))
  }

  async function frontDoor(counter: WindowCounter): Promise<string> {
    const app = express()
    app.use('/api', ...apiRateLimits({ perAddress: 4, perToken: 100, accountCalls: 100 }, counter))
    app.all('/api/*', (_req, res) => void res.json({ ok: true }))
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening))
    })
    servers.push(server)
    const address = server.address()
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  }

  /** Ten calls from one address, alternating between the two front doors: how many were allowed. */
  async function allowedOf(first: string, second: string): Promise<number> {
    let allowed = 0
    for (let call = 0; call < 10; call++) {
      const answer = await fetch(`${call % 2 ? second : first}/api/videos`)
      if (answer.status === 200) allowed++
      else expect(answer.status).toBe(429)
    }
    return allowed
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase('rate-limits')
    const handle = await openDatabase({ databaseUrl: scratch.url, maxConnections: 2 })
    await migrate(handle.pool)
    await handle.close()
  })

  afterAll(async () => {
    for (const server of servers) server.close()
    for (const handle of handles) await handle.close()
    await scratch?.drop()
  })

  it('one process allows four /api calls per address', async () => {
    const one = await frontDoor(await processCounter())
    expect(await allowedOf(one, one)).toBe(4)
  })

  it('counted in memory, each process would allow its own share (the fault this fixes)', async () => {
    expect(await allowedOf(await frontDoor(memoryCounter()), await frontDoor(memoryCounter()))).toBe(8)
  })

  it('counted in Postgres, two processes together allow four', async () => {
    const pool = handles[0]!.pool
    await pool.query('delete from public.rate_limits')
    const first = await frontDoor(await processCounter())
    const second = await frontDoor(await processCounter())
    expect(await allowedOf(first, second)).toBe(4)
    const { rows } = await pool.query<{ key: string; count: number }>('select key, count from public.rate_limits')
    expect(rows).toEqual([{ key: expect.stringMatching(/^api:address:/), count: 10 }])
  })

  it('the email check counts across processes too', async () => {
    const first = new WindowLimiter(3, 60_000, 'email-check', await processCounter())
    const second = new WindowLimiter(3, 60_000, 'email-check', await processCounter())
    const answers = []
    for (const limiter of [first, second, first, second, first]) answers.push(await limiter.take('198.51.100.7'))
    expect(answers).toEqual([true, true, true, false, false])
    expect(await first.take('198.51.100.8')).toBe(true)
  })
})
