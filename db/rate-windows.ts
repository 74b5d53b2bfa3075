import { sql } from 'kysely'
import type { Tx } from './kysely'

/**
 * Fixed-window request counts in Postgres (`public.rate_limits`), shared by
 * every process and instance on the database. One statement counts and reads
 * a window atomically, so concurrent requests anywhere share one count; an
 * expired window is started again in place. The stand-in's Auth counts its
 * own limits the same way in `auth.rate_limits` (stack/auth/rate-limit.ts).
 */

export interface WindowHit {
  /** Requests in the window, this one included. */
  count: number
  /** When the window ends. */
  resetAt: Date
}

/** Counts one request under `key` in a window of `windowMs`; as the service role (RLS: nobody else may). */
export async function hitWindow(tx: Tx, key: string, windowMs: number): Promise<WindowHit> {
  const { rows } = await sql<{ count: number; reset_at: Date | string }>`
    insert into public.rate_limits as w (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}::double precision))
    on conflict (key) do update set
      count = case when w.reset_at <= now() then 1 else w.count + 1 end,
      reset_at = case when w.reset_at <= now() then excluded.reset_at else w.reset_at end
    returning count, reset_at`.execute(tx)
  const row = rows[0]!
  return { count: Number(row.count), resetAt: new Date(row.reset_at) }
}

/** Takes back one request (express-rate-limit's `skipSuccessfulRequests` and the like). */
export async function unhitWindow(tx: Tx, key: string): Promise<void> {
  await sql`update public.rate_limits set count = greatest(0, count - 1) where key = ${key}`.execute(tx)
}

/** Ends a window at once. */
export async function resetWindow(tx: Tx, key: string): Promise<void> {
  await sql`delete from public.rate_limits where key = ${key}`.execute(tx)
}

/** Removes windows that ended a while ago (called now and then by the counters). */
export async function sweepWindows(tx: Tx): Promise<void> {
  await sql`delete from public.rate_limits where reset_at < now() - interval '1 hour'`.execute(tx)
}
