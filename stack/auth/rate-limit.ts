import type { StackContext } from '../context'
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
 * On top of GoTrue (issue 8, finding 7): failed password sign-ins, at most
 * SIGN_IN_FAILURES per 5 minutes per client address and per account, as
 * PeerTube allows; then every password sign-in for that address or account
 * is refused until the window ends (`checkSignIn` / `failedSignIn`).
 *
 * GoTrue refills a token bucket with bursts of 30; this counts fixed windows,
 * so a limit of 3 means the fourth request in the window is refused — what
 * the config file's comments promise.
 */
export type LimitName = 'sign_in_sign_ups' | 'token_refresh' | 'token_verifications' | 'email_sent'

export const SIGN_IN_FAILURES = 15

const FIVE_MINUTES = 5 * 60_000
const ONE_HOUR = 60 * 60_000
const SWEEP_EVERY = 1000

interface Window {
  count: number
  resetAt: number
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>()
  private hits = 0

  constructor(private readonly ctx: StackContext) {}

  /** Counts one request; throws GoTrue's 429 when the window is full. */
  take(name: LimitName, ip: string): void {
    const perIp = name !== 'email_sent'
    const limit = this.ctx.config.auth.rate_limit[name]
    const windowMs = name === 'email_sent' ? ONE_HOUR : FIVE_MINUTES
    const now = Date.now()
    const key = perIp ? `${name}:${ip}` : name
    let window = this.windows.get(key)
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs }
      this.windows.set(key, window)
    }
    if (++this.hits % SWEEP_EVERY === 0) this.sweep(now)
    if (window.count >= limit) {
      const retryAfter = String(Math.ceil((window.resetAt - now) / 1000))
      throw name === 'email_sent'
        ? new AuthError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded', {}, { 'Retry-After': retryAfter })
        : new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {}, { 'Retry-After': retryAfter })
    }
    window.count++
  }

  /** Throws 429 when this address or this account used up its failed sign-ins. */
  checkSignIn(ip: string, email: string): void {
    const now = Date.now()
    for (const key of signInKeys(ip, email)) {
      const window = this.windows.get(key)
      if (window && window.resetAt > now && window.count >= SIGN_IN_FAILURES) {
        const retryAfter = String(Math.ceil((window.resetAt - now) / 1000))
        throw new AuthError(
          429,
          'over_request_rate_limit',
          `Too many sign-in attempts. Try again in ${retryAfter} seconds.`,
          {},
          { 'Retry-After': retryAfter },
        )
      }
    }
  }

  /** Counts a failed sign-in against the address and the account. */
  failedSignIn(ip: string, email: string): void {
    const now = Date.now()
    for (const key of signInKeys(ip, email)) {
      let window = this.windows.get(key)
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + FIVE_MINUTES }
        this.windows.set(key, window)
      }
      window.count++
    }
    if (++this.hits % SWEEP_EVERY === 0) this.sweep(now)
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key)
  }
}

function signInKeys(ip: string, email: string): string[] {
  return [`sign_in_ip:${ip}`, `sign_in_account:${email.trim().toLowerCase()}`]
}
