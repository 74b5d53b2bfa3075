import { describe, expect, it, vi } from 'vitest'
import { DomainError } from '../errors.server'
import { apiRoute } from './route.server'

/** The /api frame's answers to a handler's failures: refusals at their status, outages 503, bugs 500. */
async function answer(error: unknown) {
  const { loader } = apiRoute({
    GET: async () => {
      throw error
    },
  })
  const response = await loader({
    request: new Request('http://lumen.test/api/videos'),
    params: {},
    context: { clientIp: '127.0.0.1' },
  })
  return { status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.json() }
}

describe('apiRoute failures', () => {
  it('answers a refusal at its status with its message', async () => {
    expect(await answer(new DomainError('not_found', 'Video not found'))).toEqual({
      status: 404,
      retryAfter: null,
      body: { error: 'Video not found' },
    })
  })

  it('answers 503 with Retry-After while the database is unreachable or every connection is busy', async () => {
    const busy = new Error('timeout exceeded when trying to connect')
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    const full = Object.assign(new Error('sorry, too many clients already'), { code: '53300' })
    for (const error of [busy, refused, full]) {
      expect(await answer(error)).toEqual({
        status: 503,
        retryAfter: '5',
        body: { error: 'Lumen is briefly unavailable. Please try again in a few seconds.' },
      })
    }
  })

  it('answers 500 for its own failures, without details', async () => {
    // Logged (once, expected here), never echoed.
    const logged = vi.mocked(console.error).mockImplementationOnce(() => {})
    expect(await answer(new TypeError("Cannot read properties of undefined (reading 'id')"))).toEqual({
      status: 500,
      retryAfter: null,
      body: { error: 'Something went wrong on our side. Please try again.' },
    })
    expect(logged).toHaveBeenCalledTimes(1)
  })
})
