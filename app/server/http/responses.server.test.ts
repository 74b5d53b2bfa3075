import { describe, expect, it } from 'vitest'
import { badRequest, jsonWithHeaders, loadFailure, mergeHeaders, redirectWithHeaders, withHeaders } from './responses.server'

describe('response helpers', () => {
  const session = new Headers([
    ['Set-Cookie', 'sb-localhost-auth-token.0=a; Path=/'],
    ['Set-Cookie', 'sb-localhost-auth-token.1=b; Path=/'],
    ['Cache-Control', 'private, no-cache'],
  ])
  const flash = { 'Set-Cookie': 'lumen_flash=c; Path=/' }

  it('keeps every Set-Cookie of every source, and lets later sources win for other headers', () => {
    const merged = mergeHeaders(session, flash, undefined, null, [['Cache-Control', 'no-store']])
    expect(merged.getSetCookie()).toEqual([
      'sb-localhost-auth-token.0=a; Path=/',
      'sb-localhost-auth-token.1=b; Path=/',
      'lumen_flash=c; Path=/',
    ])
    expect(merged.get('Cache-Control')).toBe('no-store')
  })

  it('puts the merged headers on data, 400s and redirects', () => {
    const ok = jsonWithHeaders({ a: 1 }, 201, session)
    expect(ok.data).toEqual({ a: 1 })
    expect(ok.init?.status).toBe(201)
    expect(new Headers(ok.init?.headers).getSetCookie()).toHaveLength(2)

    const failed = badRequest({ errors: { email: 'Email is required' } }, session, flash)
    expect(failed.init?.status).toBe(400)
    expect(new Headers(failed.init?.headers).getSetCookie()).toHaveLength(3)

    const redirect = redirectWithHeaders('/login', session, flash)
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('Location')).toBe('/login')
    expect(redirect.headers.getSetCookie()).toHaveLength(3)
  })

  it('adds headers to an existing response without losing its own', () => {
    const response = withHeaders(redirectWithHeaders('/profile', flash), session)
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/profile')
    expect(response.headers.getSetCookie()).toEqual([
      'lumen_flash=c; Path=/',
      'sb-localhost-auth-token.0=a; Path=/',
      'sb-localhost-auth-token.1=b; Path=/',
    ])
  })
})

describe('loadFailure (pages with their own "failed to load" state)', () => {
  it('is 503 with Retry-After for an unreachable or saturated database, else 500', () => {
    expect(loadFailure(new Error('timeout exceeded when trying to connect'))).toEqual({
      status: 503,
      headers: { 'Retry-After': '5' },
    })
    expect(loadFailure(new Error('relation "public.videos" does not exist'))).toEqual({ status: 500, headers: {} })
  })
})
