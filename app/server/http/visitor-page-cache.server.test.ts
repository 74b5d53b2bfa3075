import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createNonce } from './csp.server'
import { visitorPageCache } from './visitor-page-cache.server'

describe('visitorPageCache', () => {
  let base: string
  let close: () => void
  let clock = 0
  let renders = 0
  let requestIds = 0
  /** What the stand-in page handler does next, per path. */
  const behaviour: Record<string, { status?: number; cookie?: boolean; nonce?: boolean }> = {}

  beforeAll(async () => {
    const app = express()
    app.use((_req, res, next) => {
      res.setHeader('X-Request-Id', `request-${++requestIds}`)
      next()
    })
    app.use(visitorPageCache({ paths: ['/', '/cookie', '/missing', '/plain'], ttlMs: 1_000, now: () => clock }))
    app.use((req, res) => {
      renders++
      const { status = 200, cookie = false, nonce: withNonce = true } = behaviour[req.path] ?? {}
      const nonce = createNonce()
      if (withNonce) res.setHeader('Content-Security-Policy', `script-src 'nonce-${nonce}' 'strict-dynamic'`)
      if (cookie) res.setHeader('Set-Cookie', 'flash=1; HttpOnly')
      res.setHeader('Content-Type', 'text/html; charset=utf-8')
      res.status(status)
      // Written in pieces, as Remix's adapter writes a page.
      res.write(`<!DOCTYPE html><html><head><script nonce="${nonce}">1</script></head>`)
      res.write(Buffer.from(`<body>${req.path} é</body>`))
      res.end(`<script nonce="${nonce}">2</script></html>`)
    })
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close = () => server.close()
  })
  afterAll(() => close())
  beforeEach(() => {
    clock += 10_000 // every test starts with nothing kept
    renders = 0
  })

  const get = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, init)
    const body = await response.text()
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
    return { response, body, nonce }
  }

  it('renders a visitor page once, then sends it with a fresh nonce in the policy and the scripts', async () => {
    const first = await get('/')
    const second = await get('/')
    const third = await get('/')
    expect(renders).toBe(1)
    expect(new Set([first.nonce, second.nonce, third.nonce]).size).toBe(3)
    for (const { response, body, nonce } of [first, second, third]) {
      expect(response.status).toBe(200)
      expect(body).toBe(
        `<!DOCTYPE html><html><head><script nonce="${nonce}">1</script></head><body>/ é</body><script nonce="${nonce}">2</script></html>`,
      )
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    }
    // The first went out as the handler wrote it (in pieces); the kept copies as one body with its length.
    expect(third.response.headers.get('content-length')).toBe(String(Buffer.byteLength(third.body)))
  })

  it('keeps none of the headers set per request before it (the request id)', async () => {
    const first = await get('/')
    const second = await get('/')
    expect(renders).toBe(1)
    expect(second.response.headers.get('x-request-id')).not.toBe(first.response.headers.get('x-request-id'))
    expect(second.response.headers.get('x-request-id')).toBe(`request-${requestIds}`)
  })

  it('answers HEAD from the kept page, without a body', async () => {
    const page = await get('/')
    const head = await fetch(`${base}/`, { method: 'HEAD' })
    expect(renders).toBe(1)
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(page.body)))
    expect(await head.text()).toBe('')
  })

  it('renders for anyone with a cookie or an Authorization header, a query string or a method other than GET', async () => {
    await get('/')
    await get('/', { headers: { cookie: 'sb-access-token=x' } })
    await get('/', { headers: { authorization: 'Bearer x' } })
    await get('/?ref=mail')
    await get('/', { method: 'POST' })
    expect(renders).toBe(5)
  })

  it('does not keep a page with Set-Cookie, a status other than 200 or no nonce', async () => {
    behaviour['/cookie'] = { cookie: true }
    behaviour['/missing'] = { status: 404 }
    behaviour['/plain'] = { nonce: false }
    for (const path of ['/cookie', '/missing', '/plain']) {
      await get(path)
      const again = await get(path)
      expect(again.body).toContain(`<body>${path} é</body>`)
    }
    expect(renders).toBe(6)
  })

  it('only keeps the paths it was given', async () => {
    await get('/other')
    await get('/other')
    expect(renders).toBe(2)
  })

  it('renders again once the kept page is older than its time to live', async () => {
    await get('/')
    clock += 999
    await get('/')
    expect(renders).toBe(1)
    clock += 1
    await get('/')
    await get('/')
    expect(renders).toBe(2)
  })
})
