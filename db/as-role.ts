import type pg from 'pg'
import { currentRequestId } from '../ops/log'

export type DatabaseRole = 'anon' | 'authenticated' | 'service_role'

/**
 * The statement PostgREST and Supabase Storage run at the start of each
 * request's transaction: the caller's claims and role, transaction-local, so
 * row-level security judges every query after it. Parameters: claims JSON,
 * sub, role, and the id of the request being served (`lumen.request_id`:
 * a media job queued in the transaction keeps it for the worker's logs).
 */
export const SET_CALLER_SQL = `select
  set_config('request.jwt.claims', $1, true),
  set_config('request.jwt.claim.sub', $2, true),
  set_config('request.jwt.claim.role', $3, true),
  set_config('role', $3, true),
  set_config('lumen.request_id', $4, true)`

export function callerParameters(role: DatabaseRole, claims: Record<string, unknown>): [string, string, string, string] {
  return [
    JSON.stringify({ ...claims, role }),
    typeof claims.sub === 'string' ? claims.sub : '',
    role,
    currentRequestId()?.slice(0, 64) ?? '',
  ]
}

/** Runs `work` in a transaction on one pooled client (it holds the transaction: use it, not the pool); rolls back on error. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    const result = await work(client)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/** Runs `work` in a transaction on one pooled client as `role` with `claims`; rolls back on error. */
export async function withRole<T>(
  pool: pg.Pool,
  role: DatabaseRole,
  claims: Record<string, unknown>,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query(SET_CALLER_SQL, callerParameters(role, claims))
    return work(client)
  })
}
