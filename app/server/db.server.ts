import { AsyncLocalStorage } from 'node:async_hooks'
import type { Kysely } from 'kysely'
import { openDatabase, type DatabaseHandle } from '../../db/connect'
import { kyselyFor, runAs, type DB, type Tx } from '../../db/kysely'
import { getEnv, usesPreparedStatements } from './env.server'

export { kyselyFor, preparedAs, runAs, type DB, type Tx } from '../../db/kysely'

/** The verified claims of an access token, as GoTrue issues them. */
export interface JwtClaims {
  sub: string
  role: 'authenticated'
  email?: string
  aud?: string | string[]
  session_id?: string
  [claim: string]: unknown
}

interface Connection {
  handle: DatabaseHandle
  db: Kysely<DB>
}

/**
 * The connection lives on globalThis: in development Vite may evaluate this
 * module twice, and two PGlite instances on one directory would corrupt it.
 */
const registry = globalThis as typeof globalThis & { __lumenDb?: Promise<Connection> }

export function connect(handle?: DatabaseHandle): Promise<Connection> {
  registry.__lumenDb ??= (async () => {
    const env = getEnv()
    const resolved = handle ?? (await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` }))
    return { handle: resolved, db: kyselyFor(resolved, { prepared: usesPreparedStatements(env) }) }
  })()
  return registry.__lumenDb
}

/** Work to end before the connection closes (the session cache's listener). */
const closing = new Set<() => Promise<void>>()

export function onDisconnect(stop: () => Promise<void>): void {
  closing.add(stop)
}

export async function disconnect(): Promise<void> {
  const connection = await registry.__lumenDb
  registry.__lumenDb = undefined
  const stops = [...closing]
  closing.clear()
  await Promise.allSettled(stops.map((stop) => stop()))
  if (connection) await connection.handle.close()
}

/**
 * Runs `work` in one transaction as the caller, the way PostgREST does:
 * the verified claims go into `request.jwt.claims` and the role becomes
 * `authenticated` (or `anon` without claims), so row-level security decides
 * what the queries see and change. This is the only way app code reads or
 * writes user data.
 *
 * Inside `inOneTransaction` for the same caller it joins that transaction
 * instead of opening its own.
 */
export async function asCaller<T>(claims: JwtClaims | null, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (claims && claims.role !== 'authenticated') {
    throw new Error(`asCaller takes end-user claims only, not role "${String(claims.role)}"`)
  }
  const shared = ambient.getStore()
  if (shared) {
    if (shared.caller !== callerKey(claims)) {
      // The shared transaction holds a connection (PGlite's only one): a second transaction would wait for it forever.
      throw new Error('asCaller for another caller inside inOneTransaction')
    }
    const joined = work(shared.tx)
    shared.pending.add(joined)
    return joined.finally(() => shared.pending.delete(joined))
  }
  const { db } = await connect()
  return runAs(db, claims ? 'authenticated' : 'anon', claims ?? { role: 'anon' }, work)
}

interface SharedTransaction {
  caller: string
  tx: Tx
  /** Work joined to it and not yet settled: the transaction ends only after all of it. */
  pending: Set<Promise<unknown>>
}

const ambient = new AsyncLocalStorage<SharedTransaction>()

function callerKey(claims: JwtClaims | null): string {
  return claims ? JSON.stringify(claims) : 'anon'
}

/**
 * Runs `work` — which calls domain reads that each use `asCaller` — in ONE
 * transaction as the caller: every `asCaller` for the same claims inside it
 * (also ones running side by side, whose queries then take turns on the one
 * connection) joins it, so a page's reads cost one BEGIN, one caller set-up
 * and one COMMIT instead of one each. For reads that belong together (a
 * page's data); `work` must not call out over HTTP or act as anyone else
 * (that throws), and a failed query fails the whole of it.
 */
export async function inOneTransaction<T>(claims: JwtClaims | null, work: () => Promise<T>): Promise<T> {
  const shared = ambient.getStore()
  if (shared) {
    if (shared.caller === callerKey(claims)) return work()
    throw new Error('inOneTransaction for another caller inside inOneTransaction')
  }
  return asCaller(claims, (tx) => {
    const scope: SharedTransaction = { caller: callerKey(claims), tx, pending: new Set() }
    return ambient.run(scope, async () => {
      try {
        return await work()
      } finally {
        // Whatever `work` left running (say, the rest of a Promise.all after one failed) ends before the transaction does.
        while (scope.pending.size) await Promise.allSettled([...scope.pending])
      }
    })
  })
}

/**
 * Runs `work` as Supabase's `service_role`, which bypasses row-level
 * security. Only for the few trusted jobs that act for no user (the media
 * worker, seeding, the auth stand-in). `reason` says which, for the reader.
 */
export async function asServiceRole<T>(reason: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (!reason.trim()) throw new Error('asServiceRole needs a reason')
  if (ambient.getStore()) throw new Error('asServiceRole inside inOneTransaction')
  const { db } = await connect()
  return runAs(db, 'service_role', { role: 'service_role' }, work)
}
