import { isDatabaseUnavailable } from '../../../db/unavailable'
import { data, redirect } from '@remix-run/node'

/**
 * Small response helpers that never lose a header. Every loader and action
 * must send the session's `headers` (refreshed or cleared Supabase cookies)
 * and, where there is one, the flash cookie — on data, redirects and thrown
 * responses alike. These helpers merge any number of header sources into one.
 *
 * Set-Cookie is appended (several cookies may be set at once); every other
 * header is set, later sources winning.
 */
export type HeaderSource = HeadersInit | Headers | null | undefined

export function mergeHeaders(...sources: HeaderSource[]): Headers {
  const merged = new Headers()
  for (const source of sources) {
    if (!source) continue
    const headers = source instanceof Headers ? source : new Headers(source)
    for (const cookie of headers.getSetCookie()) merged.append('Set-Cookie', cookie)
    headers.forEach((value, key) => {
      if (key.toLowerCase() !== 'set-cookie') merged.set(key, value)
    })
  }
  return merged
}

/** Loader/action data with the merged headers (`status` defaults to 200). */
export function jsonWithHeaders<T>(value: T, init: number | { status?: number } = {}, ...sources: HeaderSource[]) {
  const status = typeof init === 'number' ? init : (init.status ?? 200)
  return data(value, { status, headers: mergeHeaders(...sources) })
}

/**
 * The status of a page that shows its own "failed to load" state: 503 with Retry-After when the
 * database is unreachable or every connection stays busy (a client or load balancer may retry
 * shortly), else 500. Use as `jsonWithHeaders(value, loadFailure(error).status, headers, loadFailure(error).headers)`.
 */
export function loadFailure(error: unknown): { status: 500 | 503; headers: HeadersInit } {
  return isDatabaseUnavailable(error) ? { status: 503, headers: { 'Retry-After': '5' } } : { status: 500, headers: {} }
}

/** A failed form submission: field errors (never passwords) with status 400. */
export function badRequest<T>(value: T, ...sources: HeaderSource[]) {
  return data(value, { status: 400, headers: mergeHeaders(...sources) })
}

/** A redirect (302 unless `status` says otherwise) carrying the merged headers. */
export function redirectWithHeaders(url: string, ...sources: HeaderSource[]): Response {
  return redirect(url, { headers: mergeHeaders(...sources) })
}

/**
 * The same response with more headers: e.g. a redirect from
 * `redirectWithFlash` plus the session cookies, or a thrown guard redirect
 * plus the flash cookie.
 */
export function withHeaders(response: Response, ...sources: HeaderSource[]): Response {
  const headers = mergeHeaders(response.headers, ...sources)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

/** Whether a thrown value is a Response (guards throw redirects). */
export function isResponse(value: unknown): value is Response {
  return value instanceof Response
}
