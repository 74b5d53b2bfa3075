import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  sql,
  type PostgresPool,
  type PostgresPoolClient,
  type RawBuilder,
  type Transaction,
} from 'kysely'
import type pg from 'pg'
import { callerParameters, SET_CALLER_SQL, type DatabaseRole } from './as-role'
import type { DatabaseHandle } from './connect'
import type { DB } from './types'

export type { DB } from './types'
export type Tx = Transaction<DB>

/**
 * Kysely over one of our pools (PGlite or a server): the app and the worker query through it.
 * With `prepared` (the default), statements marked with `preparedAs` go as named prepared
 * statements (ADR 0063); without it (behind a transaction-mode pooler) they go like any other.
 */
export function kyselyFor(handle: DatabaseHandle, { prepared = true }: { prepared?: boolean } = {}): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: prepared ? preparingPool(handle.pool) : handle.pool }) })
}

const PREPARED = /^\/\* prepared: ([\w-]+) \*\//

/**
 * Put first in a statement whose text is the same on every call (its values all parameters):
 * the connection then parses and plans it once and keeps the plan (ADR 0063), where an ordinary
 * statement is parsed and planned again on every call — for a statement of many parts, each
 * judged by row-level security, planning costs more than running it. Behind a transaction-mode
 * pooler (`kyselyFor` without `prepared`) the mark is only a comment.
 */
export function preparedAs(name: string): RawBuilder<unknown> {
  if (!/^[\w-]+$/.test(name)) throw new Error(`a prepared statement's name is letters, digits, _ and -: ${name}`)
  return sql.raw(`/* prepared: ${name} */ `)
}

/**
 * The pool as Kysely sees it, each client's queries looked at once: a text that starts with
 * `preparedAs`'s mark is sent as node-postgres's named statement (parsed on a connection the first
 * time, bound and run after that). One wrapper per client, so Kysely keeps one connection object each.
 */
function preparingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  const wrap = (client: pg.PoolClient): PostgresPoolClient =>
    ({
      query: ((text: unknown, values?: unknown[]) => {
        const name = typeof text === 'string' ? PREPARED.exec(text)?.[1] : undefined
        return name ? client.query({ name, text: text as string, values }) : client.query(text as string, values)
      }) as unknown as PostgresPoolClient['query'],
      release: (destroy?: boolean) => client.release(destroy),
      // Kysely reads the backend's id to cancel a query.
      get processID() {
        return (client as pg.PoolClient & { processID?: number }).processID
      },
    }) as PostgresPoolClient
  return {
    connect: async () => {
      const client = await pool.connect()
      let facade = wrapped.get(client)
      if (!facade) wrapped.set(client, (facade = wrap(client)))
      return facade
    },
    end: () => pool.end(),
    get options() {
      return pool.options
    },
    Client: (pool as pg.Pool & { Client?: PostgresPool['Client'] }).Client,
  }
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
