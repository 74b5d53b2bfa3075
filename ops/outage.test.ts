import type { ServerBuild } from '@remix-run/node'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { withDatabaseOutage503 } from './outage'

const logged = vi.hoisted(() => ({ info: vi.fn(), error: vi.fn() }))
vi.mock('./log', async (original) => ({
  ...(await original<typeof import('./log')>()),
  componentLogger: () => logged,
}))
// Files share their worker (vitest.config.ts): the next file gets the real logger, and modules
// made with this one (./health, ./outage) are made again.
afterAll(() => {
  vi.doUnmock('./log')
  vi.resetModules()
})

/** A build whose document handler renders what Remix would: the error page at the status it got. */
function fakeBuild() {
  const rendered = vi.fn((_request: Request, status: number) => new Response('<html>error page</html>', { status }))
  const build = {
    entry: { module: { default: rendered, handleError: vi.fn() } },
  } as unknown as ServerBuild
  return { build, rendered }
}

describe('withDatabaseOutage503', () => {
  it('answers 503 for a document whose loader failed on the database, though that loader had a Request of its own', async () => {
    const { build } = fakeBuild()
    const health = { noteFailure: vi.fn() }
    const wrapped = withDatabaseOutage503(health, build)
    const document = new Request('http://lumen.test/feed')
    const loadContext = { clientIp: '127.0.0.1', requestCache: {} }
    // Remix gives each loader a copy of the request, not the document's own object.
    const loaderRequest = new Request(document.url, { signal: new AbortController().signal })
    const busy = new Error('timeout exceeded when trying to connect')

    wrapped.entry.module.handleError!(busy, { request: loaderRequest, params: {}, context: loadContext })
    const answer = await wrapped.entry.module.default(document, 500, new Headers(), {} as never, loadContext)

    expect(answer.status).toBe(503)
    expect(answer.headers.get('Retry-After')).toBe('5')
    expect(await answer.text()).toContain('Briefly unavailable')
    expect(health.noteFailure).toHaveBeenCalledWith(busy)
  })

  it('leaves other failures and other requests to the error page', async () => {
    const { build, rendered } = fakeBuild()
    const wrapped = withDatabaseOutage503({ noteFailure: vi.fn() }, build)
    const loadContext = { clientIp: '127.0.0.1' }
    const document = new Request('http://lumen.test/feed')

    wrapped.entry.module.handleError!(new TypeError('a bug'), { request: document, params: {}, context: loadContext })
    expect((await wrapped.entry.module.default(document, 500, new Headers(), {} as never, loadContext)).status).toBe(500)

    // Another request (another load context) after one that met an outage renders as usual.
    wrapped.entry.module.handleError!(new Error('Connection terminated unexpectedly'), {
      request: new Request('http://lumen.test/'),
      params: {},
      context: { clientIp: '127.0.0.1' },
    })
    const other = await wrapped.entry.module.default(new Request('http://lumen.test/'), 200, new Headers(), {} as never, {
      clientIp: '127.0.0.1',
    })
    expect(other.status).toBe(200)
    expect(rendered).toHaveBeenCalledTimes(2)
  })

  it("logs Remix's own 4xx (a POST to a page without an action) as a refused request, not as a failure", () => {
    const { build } = withoutHandleError()
    const wrapped = withDatabaseOutage503({ noteFailure: vi.fn() }, build)
    logged.info.mockClear()
    logged.error.mockClear()
    const refused = { status: 405, statusText: 'Method Not Allowed', internal: true, data: 'no action' }
    wrapped.entry.module.handleError!(refused, {
      request: new Request('http://lumen.test/feed', { method: 'POST' }),
      params: {},
      context: { clientIp: '127.0.0.1' },
    })
    expect(logged.error).not.toHaveBeenCalled()
    expect(logged.info).toHaveBeenCalledWith({ status: 405, error: 'Method Not Allowed' }, 'request refused')

    // Anything else that is not an Error is still a failure, and readable.
    wrapped.entry.module.handleError!(
      { reason: 'odd' },
      { request: new Request('http://lumen.test/'), params: {}, context: { clientIp: '127.0.0.1' } },
    )
    expect(logged.error).toHaveBeenCalledWith(expect.objectContaining({ error: '{"reason":"odd"}' }), 'request failed')
  })
})

/** A build that leaves logging to the wrapper, as the app's entry does (it has no handleError). */
function withoutHandleError() {
  const build = {
    entry: { module: { default: vi.fn(() => new Response('')) } },
  } as unknown as ServerBuild
  return { build }
}
