import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCors, apiRateLimits, parseCorsOrigins, trustProxy } from '../../app/server/api/limits.server'
import { ENDPOINTS, openApiDocument } from '../../app/server/api/openapi.server'
import { memoryCounter } from '../../app/server/rate-limits.server'
import { apiRoutes, call } from './support/api-client'

/**
 * The API and its document cannot drift apart: every route Remix
 * registers under /api is in the OpenAPI table and every table entry has a
 * route; a route answers exactly the documented methods (405 otherwise);
 * the generated OpenAPI 3.1 document lists every entry. Then the front
 * door: rate limits (429 with Retry-After) and CORS only for the allow-list.
 */
describe('the OpenAPI document and the route files', () => {
  it('has a route Remix registers for every documented path, and documents every route', async () => {
    const files = new Set((await apiRoutes()).map((route) => route.path))
    const documented = new Set(ENDPOINTS.map((endpoint) => endpoint.path))
    expect([...documented].filter((path) => !files.has(path))).toEqual([])
    expect([...files].filter((path) => !documented.has(path))).toEqual([])
  })

  it('lists every call in the generated OpenAPI 3.1 document', () => {
    const document = openApiDocument() as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(document.openapi).toBe('3.1.0')
    for (const endpoint of ENDPOINTS)
      expect(document.paths[endpoint.path]?.[endpoint.method], `${endpoint.method} ${endpoint.path}`).toBeDefined()
  })

  it('answers 405 for every method a route does not document', async () => {
    for (const route of await apiRoutes()) {
      const path = route.path.replace('{id}', '00000000-0000-4000-8000-000000000000')
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const documented = ENDPOINTS.some((endpoint) => endpoint.path === route.path && endpoint.method === method.toLowerCase())
        if (documented) continue
        const answer = await call(method, path, { unchecked: true })
        expect(answer.status, `${method} ${path}`).toBe(405)
      }
    }
  })
})

describe('the front door (Express)', () => {
  let server: ReturnType<ReturnType<typeof express>['listen']>
  let base: string

  beforeAll(async () => {
    const app = express()
    app.use(
      '/api',
      apiCors(parseCorsOrigins('https://app.example, not-an-origin')),
      ...apiRateLimits({ perAddress: 6, perToken: 3, accountCalls: 2 }, memoryCounter()),
    )
    app.all('/api/*', (_req, res) => {
      res.json({ ok: true })
    })
    await new Promise<void>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve())
    })
    const address = server.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })

  afterAll(() => {
    server?.close()
  })

  it('limits sign-in per address more strictly, answering 429 with Retry-After and the JSON error shape', async () => {
    const login = () => fetch(`${base}/api/auth/login`, { method: 'POST' })
    expect((await login()).status).toBe(200)
    expect((await login()).status).toBe(200)
    const refused = await login()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await refused.json()).toEqual({ error: expect.stringContaining('Too many attempts') })
  })

  it('limits each token, and each address', async () => {
    const asToken = (token: string) => fetch(`${base}/api/videos`, { headers: { Authorization: `Bearer ${token}` } })
    // Two sign-ins already count against the address's six; the token may make three calls.
    for (let call = 0; call < 3; call++) expect((await asToken('one')).status).toBe(200)
    const overToken = await asToken('one')
    expect(overToken.status).toBe(429)
    expect(overToken.headers.get('Retry-After')).toBeTruthy()
    // The address has now made its six: another token from it is refused too.
    expect((await asToken('two')).status).toBe(429)
  })

  it('answers CORS only for allow-listed origins, never with credentials', async () => {
    const preflight = await fetch(`${base}/api/videos`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe('https://app.example')
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toContain('Authorization')
    expect(preflight.headers.get('Access-Control-Allow-Credentials')).toBeNull()
    const stranger = await fetch(`${base}/api/videos`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } })
    expect(stranger.headers.get('Access-Control-Allow-Origin')).toBeNull()
  })
})

describe('the front door behind a proxy (TRUSTED_PROXY)', () => {
  async function frontDoor(setting: string) {
    const app = express()
    app.set('trust proxy', trustProxy(setting))
    app.use('/api', ...apiRateLimits({ perAddress: 2, perToken: 100, accountCalls: 100 }, memoryCounter()))
    app.all('/api/*', (req, res) => {
      res.json({ ip: req.ip })
    })
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening))
    })
    const address = server.address()
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const from = (client: string) => fetch(`${base}/api/videos`, { headers: { 'X-Forwarded-For': `10.9.9.9, ${client}` } })
    return { server, from }
  }

  it('gives each client behind a trusted proxy its own allowance, read from the right of X-Forwarded-For', async () => {
    const { server, from } = await frontDoor('loopback')
    try {
      const first = await from('203.0.113.1')
      expect(await first.json()).toEqual({ ip: '203.0.113.1' })
      expect((await from('203.0.113.1')).status).toBe(200)
      expect((await from('203.0.113.1')).status).toBe(429)
      // Another visitor of the same proxy is not affected; a prepended address changes nothing.
      expect((await from('203.0.113.2')).status).toBe(200)
    } finally {
      server.close()
    }
  })

  it('believes no X-Forwarded-For when no proxy is trusted', async () => {
    const { server, from } = await frontDoor('none')
    try {
      expect(await (await from('203.0.113.1')).json()).toEqual({ ip: '127.0.0.1' })
      expect((await from('203.0.113.2')).status).toBe(200)
      expect((await from('203.0.113.3')).status).toBe(429)
    } finally {
      server.close()
    }
  })
})
