import type { Kysely } from 'kysely'
import { openDatabase, type DatabaseHandle } from '../../db/connect'
import { kyselyFor, runAs, type DB, type Tx } from '../../db/kysely'
import { getEnv } from './env.server'

export { kyselyFor, runAs, type DB, type Tx } from '../../db/kysely'

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
    const resolved =
      handle ?? (await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` }))
    return { handle: resolved, db: kyselyFor(resolved) }
  })()
  return registry.__lumenDb
}

export async function disconnect(): Promise<void> {
  const connection = await registry.__lumenDb
  registry.__lumenDb = undefined
  if (connection) await connection.handle.close()
}


/**
 * Runs `work` in one transaction as the caller, the way PostgREST does:
 * the verified claims go into `request.jwt.claims` and the role becomes
 * `authenticated` (or `anon` without claims), so row-level security decides
 * what the queries see and change. This is the only way app code reads or
 * writes user data.
 */
export async function asCaller<T>(claims: JwtClaims | null, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (claims && claims.role !== 'authenticated') {
    throw new Error(`asCaller takes end-user claims only, not role "${String(claims.role)}"`)
  }
  const { db } = await connect()
  return runAs(db, claims ? 'authenticated' : 'anon', claims ?? { role: 'anon' }, work)
}

/**
 * Runs `work` as Supabase's `service_role`, which bypasses row-level
 * security. Only for the few trusted jobs that act for no user (the media
 * worker, seeding, the auth stand-in). `reason` says which, for the reader.
 */
export async function asServiceRole<T>(reason: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (!reason.trim()) throw new Error('asServiceRole needs a reason')
  const { db } = await connect()
  return runAs(db, 'service_role', { role: 'service_role' }, work)
}
