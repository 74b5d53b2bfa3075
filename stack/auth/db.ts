import type pg from 'pg'

/**
 * The auth server writes GoTrue's tables as their owner (the pool's own
 * role), like GoTrue does — never as an API role. On PGlite the pool has one
 * connection, so code holding a transaction must not reach for the pool
 * again: everything inside `inTransaction` goes through its client.
 */
export type Db = Pick<pg.Pool, 'query'> | pg.PoolClient

export { inTransaction } from '../../db/as-role'

/** The first row of a query, or undefined. */
export async function one<T extends pg.QueryResultRow>(db: Db, sql: string, params: unknown[] = []): Promise<T | undefined> {
  const { rows } = await db.query<T>(sql, params)
  return rows[0]
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}
