import { CompiledQuery, Kysely, PostgresDialect, type Transaction } from 'kysely'
import { callerParameters, SET_CALLER_SQL, type DatabaseRole } from './as-role'
import type { DatabaseHandle } from './connect'
import type { DB } from './types'

export type { DB } from './types'
export type Tx = Transaction<DB>

/** Kysely over one of our pools (PGlite or a server): the app and the worker query through it. */
export function kyselyFor(handle: DatabaseHandle): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: handle.pool }) })
}

/**
 * Runs `work` in one transaction as `role` with `claims`, the way PostgREST
 * does: the claims go into `request.jwt.claims` and the role is set for the
 * transaction, so row-level security judges every query in it.
 */
export function runAs<T>(
  db: Kysely<DB>,
  role: DatabaseRole,
  claims: Record<string, unknown>,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await tx.executeQuery(CompiledQuery.raw(SET_CALLER_SQL, callerParameters(role, claims)))
    return work(tx)
  })
}
