import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCluster, type Cluster } from './support/cluster'
import { freePort, haveBuild, readKeys, startServer, tempDataDir, type RunningServer } from './support/processes'

/**
 * ADR 0017: PostgreSQL crash-restarted (`pg_ctl restart -m immediate`) under
 * a server-mode `npm start` while writes run: every acknowledged write is
 * still there, the pool recovers by itself, and requests in the gap get a
 * clean 503 with Retry-After — never a hang, never a 500.
 */
describe.skipIf(!haveBuild())('PostgreSQL restart under load', () => {
  let cluster: Cluster
  let data: Awaited<ReturnType<typeof tempDataDir>>
  let server: RunningServer

  beforeAll(async () => {
    cluster = await startCluster(await freePort())
    data = await tempDataDir('pg-restart')
    server = await startServer({ dataDir: data.dir, port: await freePort(), databaseUrl: cluster.url })
  })
  afterAll(async () => {
    await server?.kill('SIGKILL')
    await cluster?.stop()
    await data?.remove()
  })

  it('keeps every acknowledged write, answers 503 with Retry-After in the gap, and recovers by itself', async () => {
    const { serviceRoleKey } = await readKeys(data.dir)
    const acknowledged: string[] = []
    const statuses = new Map<number, number>()
    let retryAfterMissing = 0
    const unexpected: string[] = []
    const note = async (what: string, response: Response) => {
      const text = await response.text()
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      if (response.status !== 200 && response.status !== 503) unexpected.push(`${what}: ${response.status} ${text.slice(0, 200)}`)
    }
    let running = true
    const writer = async (lane: number) => {
      for (let index = 0; running; index++) {
        const email = `pg-${lane}-${index}-${randomBytes(3).toString('hex')}@example.test`
        const response = await fetch(`${server.url}/auth/v1/admin/users`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${serviceRoleKey}`, apikey: serviceRoleKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: `Pw-${randomBytes(8).toString('hex')}`, email_confirm: true }),
          signal: AbortSignal.timeout(30_000),
        })
        await note('create user', response)
        if (response.status === 200) acknowledged.push(email)
        else if (response.status === 503) {
          if (!response.headers.get('retry-after')) retryAfterMissing++
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
    }
    const pages = async () => {
      while (running) {
        const response = await fetch(`${server.url}/`, { signal: AbortSignal.timeout(30_000) })
        await note('home page', response)
        if (response.status === 503 && !response.headers.get('retry-after')) retryAfterMissing++
        if (response.status === 503) await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    const lanes = [writer(0), writer(1), pages()]
    while (acknowledged.length < 5) await new Promise((resolve) => setTimeout(resolve, 50))
    await cluster.restartImmediate()
    // Writes go on until the pool has recovered and more are acknowledged after the restart.
    const before = acknowledged.length
    while (acknowledged.length < before + 5) await new Promise((resolve) => setTimeout(resolve, 100))
    running = false
    await Promise.all(lanes)

    expect(statuses.get(503) ?? 0).toBeGreaterThan(0)
    expect(retryAfterMissing).toBe(0)
    expect(unexpected).toEqual([])

    const client = new pg.Client({ connectionString: cluster.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ email: string }>('select email from auth.users where email = any($1)', [acknowledged])
      expect(rows.map((row) => row.email).sort()).toEqual([...acknowledged].sort())
    } finally {
      await client.end()
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
})
