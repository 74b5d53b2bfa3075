import { afterAll, beforeAll } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../../db/connect'
import { connect, disconnect } from '../../../app/server/db.server'
import { listenForInvalidation, SessionCache, type SessionListener } from '../../../app/server/session-cache.server'
import { migratedDatabase, type DatabaseKind } from '../../support/databases'

/**
 * What the session cache's tests share (ADRs 0033 and 0062): waits, and a migrated database the app
 * is connected to, with — on PostgreSQL — a second "process" listening on it (its own pool, listener
 * and cache).
 */

/** Waits until `done` holds; the deadline is the guarantee itself (a change reaches every process within 1 s). */
export async function within1s(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 1_000
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('not within 1 s')
    await new Promise((resolve) => setImmediate(resolve))
  }
}

export async function waitFor(done: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export interface SecondProcess {
  handle: DatabaseHandle
  cache: SessionCache
  listener: SessionListener
}

/**
 * Registers the describe block's hooks: a database of `kind` the app connects to, and on PostgreSQL a
 * second listening process. The returned object's fields are set once `beforeAll` has run.
 */
export function listeningDatabase(kind: DatabaseKind): {
  skip: boolean
  db: Awaited<ReturnType<typeof migratedDatabase>>
  other: SecondProcess | undefined
} {
  const state = {
    skip: kind === 'postgres' && !process.env.TEST_DATABASE_URL,
    db: undefined as unknown as Awaited<ReturnType<typeof migratedDatabase>>,
    other: undefined as SecondProcess | undefined,
  }
  beforeAll(async () => {
    if (state.skip) return
    state.db = await migratedDatabase(kind)
    await disconnect()
    await connect(state.db.handle)
    if (kind === 'postgres') {
      const handle = await openDatabase({
        databaseUrl: (state.db.handle.pool.options as { connectionString: string }).connectionString,
        maxConnections: 2,
      })
      const cache = new SessionCache()
      state.other = { handle, cache, listener: await listenForInvalidation(handle, cache) }
      await waitFor(() => cache.healthy(), 'the second listener')
    }
  }, 120_000)
  afterAll(async () => {
    if (state.skip) return
    await state.other?.listener.stop()
    await state.other?.handle.close()
    await disconnect()
    await state.db?.dispose()
  })
  return state
}
