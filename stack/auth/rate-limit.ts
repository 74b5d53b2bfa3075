import type { StackContext } from '../context'
import type { Db } from './db'
import { AuthError } from './errors'

/**
 * GoTrue's rate limits, with the limits read from `[auth.rate_limit]` of
 * supabase/config.toml on every request (so a changed config, or a test that
 * lowers one, takes effect at once):
 *
 * - `sign_in_sign_ups` per IP per 5 minutes: POST /signup, POST /recover, PUT /user
 *   (GoTrue's `RateLimitOtp` limiter guards exactly these);
 * - `token_refresh` per IP per 5 minutes: every POST /token grant, password included;
 * - `token_verifications` per IP per 5 minutes: GET and POST /verify;
 * - `email_sent` per hour for the whole server, as GoTrue counts it.
 *
 * On top of GoTrue (ADR 0012, finding 7): failed password sign-ins, at most
 * SIGN_IN_FAILURES per 5 minutes per client address and per account, as
 * PeerTube allows; then every password sign-in for that address or account
 * is refused until the window ends (`checkSignIn` / `failedSignIn`).
 *
 * GoTrue refills a token bucket with bursts of 30; this counts fixed windows,
 * so a limit of 3 means the fourth request in the window is refused — what
 * the config file's comments promise. The windows are shared by every process
 * on the database (below).
 */
export type LimitName = 'sign_in_sign_ups' | 'token_refresh' | 'token_verifications' | 'email_sent'

export const SIGN_IN_FAILURES = 15

const FIVE_MINUTES = 5 * 60_000
const ONE_HOUR = 60 * 60_000

/**
 * The windows live in Postgres (`auth.rate_limits`, made by the first limiter that needs it),
 * not in this process: in server mode every core runs its own process (ops/cluster.ts) and a
 * fleet runs many, and a limit counted per process would give an attacker N times the attempts.
 * One statement counts and reads a window atomically, so concurrent requests on any number of
 * processes share one count. Expired windows are reset in place and swept now and then.
 */
const TABLE_DDL = `
  create table if not exists auth.rate_limits (
    key text primary key,
    count integer not null,
    reset_at timestamptz not null
  );
  alter table auth.rate_limits enable row level security;
  revoke all on auth.rate_limits from public;
  create index if not exists rate_limits_reset_at_idx on auth.rate_limits (reset_at);`

const COUNT = `
  insert into auth.rate_limits as w (key, count, reset_at)
  values ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
  on conflict (key) do update set
    count = case when w.reset_at <= now() then 1 else w.count + 1 end,
    reset_at = case when w.reset_at <= now() then excluded.reset_at else w.reset_at end
  returning count, greatest(0, extract(epoch from (reset_at - now())))::double precision as seconds_left`

const SWEEP_EVERY = 1000

export class RateLimiter {
  private ready: Promise<void> | undefined
  private hits = 0

  constructor(private readonly ctx: StackContext) {}

  /**
   * Counts one request; throws GoTrue's 429 when the window is full. `db`: the transaction
   * the caller holds, if any (on PGlite the pool has one connection).
   */
  async take(name: LimitName, ip: string, db: Db = this.ctx.pool): Promise<void> {
    const perIp = name !== 'email_sent'
    const limit = this.ctx.config.auth.rate_limit[name]
    const windowMs = name === 'email_sent' ? ONE_HOUR : FIVE_MINUTES
    const { count, secondsLeft } = await this.count(db, perIp ? `${name}:${ip}` : name, windowMs)
    if (count > limit) {
      const retryAfter = String(Math.max(1, Math.ceil(secondsLeft)))
      throw name === 'email_sent'
        ? new AuthError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded', {}, { 'Retry-After': retryAfter })
        : new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {}, { 'Retry-After': retryAfter })
    }
  }

  /** Throws 429 when this address or this account used up its failed sign-ins. */
  async checkSignIn(ip: string, email: string, db: Db = this.ctx.pool): Promise<void> {
    await this.ensureTable()
    const { rows } = await db.query<{ seconds_left: number }>(
      `select greatest(0, extract(epoch from (reset_at - now())))::double precision as seconds_left
         from auth.rate_limits where key = any($1) and reset_at > now() and count >= $2
        order by reset_at desc limit 1`,
      [signInKeys(ip, email), SIGN_IN_FAILURES],
    )
    if (rows[0]) {
      const retryAfter = String(Math.max(1, Math.ceil(rows[0].seconds_left)))
      throw new AuthError(
        429,
        'over_request_rate_limit',
        `Too many sign-in attempts. Try again in ${retryAfter} seconds.`,
        {},
        { 'Retry-After': retryAfter },
      )
    }
  }

  /** Counts a failed sign-in against the address and the account. */
  async failedSignIn(ip: string, email: string, db: Db = this.ctx.pool): Promise<void> {
    for (const key of signInKeys(ip, email)) await this.count(db, key, FIVE_MINUTES)
  }

  private async count(db: Db, key: string, windowMs: number): Promise<{ count: number; secondsLeft: number }> {
    await this.ensureTable()
    const { rows } = await db.query<{ count: number; seconds_left: number }>(COUNT, [key, windowMs])
    if (++this.hits % SWEEP_EVERY === 0) {
      await db.query('delete from auth.rate_limits where reset_at < now()').catch(() => {})
    }
    return { count: rows[0]!.count, secondsLeft: rows[0]!.seconds_left }
  }

  private ensureTable(): Promise<void> {
    this.ready ??= this.ctx.pool.query(TABLE_DDL).then(
      () => undefined,
      (error: unknown) => {
        this.ready = undefined
        throw error
      },
    )
    return this.ready
  }
}

function signInKeys(ip: string, email: string): string[] {
  return [`sign_in_ip:${ip}`, `sign_in_account:${email.trim().toLowerCase()}`]
}
