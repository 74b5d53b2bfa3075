import type { StackContext } from '../context'

/**
 * The auth settings read from supabase/config.toml beyond the typed ones in
 * stack/config.ts (`[auth.email]` is passed through untyped), with GoTrue's
 * defaults, and GoTrue's rule for which `redirect_to` URLs it will follow.
 */

/** Parses a Go duration ("1s", "1m30s", "24h", "1.5h"); undefined when malformed. */
export function parseGoDuration(text: string): number | undefined {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
  const match = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(text)
  if (!match) return text === '0' ? 0 : undefined
  let total = 0
  for (const part of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(part[1]) * units[part[2]!]!
  }
  return match[1] === '-' ? -total : total
}

function emailSetting(ctx: StackContext, name: string): unknown {
  const email = (ctx.config.auth as Record<string, unknown>).email
  return email && typeof email === 'object' ? (email as Record<string, unknown>)[name] : undefined
}

/** `[auth.email] enable_confirmations`: the stand-in always confirms at once, so it can only warn. */
export function confirmationsRequested(ctx: StackContext): boolean {
  return emailSetting(ctx, 'enable_confirmations') === true
}

/** `[auth.email] max_frequency`: how soon one user may be sent another email (GoTrue: 1 minute). */
export function emailMaxFrequencyMs(ctx: StackContext): number {
  const value = emailSetting(ctx, 'max_frequency')
  return (typeof value === 'string' ? parseGoDuration(value) : undefined) ?? 60_000
}

/** `[auth.email] otp_expiry`: seconds an emailed link or code stays valid (GoTrue: 1 hour). */
export function otpExpirySeconds(ctx: StackContext): number {
  const value = emailSetting(ctx, 'otp_expiry')
  return typeof value === 'number' && value > 0 ? value : 3600
}

/** GoTrue's `FlowStateExpiryDuration`: a PKCE code must be exchanged within 5 minutes. */
export const FLOW_STATE_EXPIRY_SECONDS = 300

/**
 * Where an email link may send the browser back to: GoTrue's
 * `IsRedirectURLValid` (the site URL's host, or a pattern of
 * `additional_redirect_urls`), plus the stand-in's own origin, since in
 * embedded mode the app and the stand-in share it. Anything else falls back
 * to the site URL.
 */
export function redirectTarget(ctx: StackContext, requested: string | undefined): string {
  const siteUrl = ctx.config.auth.site_url
  if (!requested) return siteUrl
  let url: URL
  try {
    url = new URL(requested)
  } catch {
    return siteUrl
  }
  const hostnames = [siteUrl, ctx.publicUrl].map((base) => {
    try {
      return new URL(base).hostname
    } catch {
      return undefined
    }
  })
  if ((url.protocol === 'http:' || url.protocol === 'https:') && hostnames.includes(url.hostname)) return requested
  return ctx.config.auth.additional_redirect_urls.some((pattern) => globToRegExp(pattern).test(requested)) ? requested : siteUrl
}

/** gobwas/glob with GoTrue's separators `.` and `/`: `*` stays within a label, `**` crosses them. */
function globToRegExp(pattern: string): RegExp {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*'
      i++
    } else if (char === '*') source += '[^./]*'
    else if (char === '?') source += '[^./]'
    else source += char.replace(/[\\^$+.()|[\]{}]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}
