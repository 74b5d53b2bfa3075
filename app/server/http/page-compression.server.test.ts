import { get as httpGet, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptedEncoding, pageCompression } from './page-compression.server'
import { visitorPageCache } from './visitor-page-cache.server'

/** A response as the client receives it: raw headers, and the body decoded by hand. */
function fetchRaw(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: IncomingHttpHeaders; raw: Buffer; text: string }>((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const raw = Buffer.concat(chunks)
        const encoding = res.headers['content-encoding']
        const plain = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw
        resolve({ headers: res.headers, raw, text: plain.toString('utf8') })
      })
    }).on('error', reject)
  })
}

describe('pageCompression', () => {
  let base: string
  let close: () => void
  const page = `<!DOCTYPE html><html><body>${'<article class="card">A lecture on optics</article>'.repeat(200)}</body></html>`

  beforeAll(async () => {
    const app = express()
    app.use(pageCompression())
    app.use(visitorPageCache({ paths: ['/welcome'] }))
    app.get(['/page', '/welcome'], (_req, res) => {
      res.setHeader('Content-Security-Policy', "script-src 'nonce-abc'")
      // Written in pieces, as Remix's adapter writes a page (the encoding's headers are set at the first write).
      const html = page.replace('<body>', '<body><script nonce="abc"></script>')
      res.type('html').write(html.slice(0, 100))
      res.end(html.slice(100))
    })
    app.get('/page.data', (_req, res) => res.type('text/x-script').send(JSON.stringify({ cards: page })))
    app.get('/__manifest', (_req, res) => res.json({ patches: page }))
    app.get('/auth/token', (_req, res) => res.json({ accessToken: 'secret-token', padding: page }))
    app.get('/segment.ts', (_req, res) => {
      res.setHeader('Content-Type', 'video/mp2t')
      res.setHeader('Content-Length', String(2 * 4096))
      res.write(Buffer.alloc(4096, 1))
      setTimeout(() => res.end(Buffer.alloc(4096, 2)), 10)
    })
    app.get('/tiny', (_req, res) => res.type('html').send('<p>hi</p>'))
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close = () => server.close()
  })
  afterAll(() => close())

  it('sends a page brotli-compressed to a browser that takes it, and gzip to one that takes only gzip', async () => {
    const br = await fetchRaw(`${base}/page`, { 'Accept-Encoding': 'gzip, deflate, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/Accept-Encoding/i)
    expect(br.raw.length).toBeLessThan(page.length / 10)
    expect(br.text).toContain('A lecture on optics')

    const gzip = await fetchRaw(`${base}/page`, { 'Accept-Encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.text).toBe(br.text)
  })

  it("compresses Remix's data requests too", async () => {
    const data = await fetchRaw(`${base}/page.data`, { 'Accept-Encoding': 'br' })
    expect(data.headers['content-encoding']).toBe('br')
    expect(JSON.parse(data.text)).toEqual({ cards: page })
  })

  it("compresses Remix's route manifest, which is JSON but the same for everyone", async () => {
    const manifest = await fetchRaw(`${base}/__manifest?p=%2Ffeed`, { 'Accept-Encoding': 'gzip' })
    expect(manifest.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(manifest.text)).toEqual({ patches: page })
  })

  it('sends a page as it is to a client that asks for no encoding', async () => {
    const plain = await fetchRaw(`${base}/page`, {})
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.raw.length).toBeGreaterThan(page.length)
  })

  it('never compresses JSON, which may carry a credential (BREACH), nor a page too small to gain', async () => {
    const token = await fetchRaw(`${base}/auth/token`, { 'Accept-Encoding': 'gzip, br' })
    expect(token.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(token.text).accessToken).toBe('secret-token')

    const tiny = await fetchRaw(`${base}/tiny`, { 'Accept-Encoding': 'gzip, br' })
    expect(tiny.headers['content-encoding']).toBeUndefined()
    expect(tiny.text).toBe('<p>hi</p>')
  })

  it('streams anything else through untouched, as it is written', async () => {
    const media = await fetchRaw(`${base}/segment.ts`, { 'Accept-Encoding': 'gzip, br' })
    expect(media.headers['content-encoding']).toBeUndefined()
    expect(media.headers['content-length']).toBe('8192')
    expect(media.raw.equals(Buffer.concat([Buffer.alloc(4096, 1), Buffer.alloc(4096, 2)]))).toBe(true)
  })

  it('picks brotli, then gzip, honouring q=0 and *', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(acceptedEncoding('gzip, br;q=0')).toBe('gzip')
    expect(acceptedEncoding('*')).toBe('br')
    expect(acceptedEncoding('*;q=0, gzip')).toBe('gzip')
    expect(acceptedEncoding('identity')).toBeNull()
    expect(acceptedEncoding(undefined)).toBeNull()
    expect(acceptedEncoding('deflate')).toBeNull()
  })

  it('compresses the welcome page sent from memory, each copy with its own nonce', async () => {
    const rendered = await fetchRaw(`${base}/welcome`, { 'Accept-Encoding': 'br' })
    expect(rendered.headers['content-encoding']).toBe('br')
    const first = await fetchRaw(`${base}/welcome`, { 'Accept-Encoding': 'br' })
    const second = await fetchRaw(`${base}/welcome`, { 'Accept-Encoding': 'br' })
    const plain = await fetchRaw(`${base}/welcome`, {})
    for (const copy of [first, second]) {
      expect(copy.headers['content-encoding']).toBe('br')
      expect(Number(copy.headers['content-length'])).toBe(copy.raw.length)
    }
    const nonces = [first, second, plain].map((copy) => /nonce="([^"]+)"/.exec(copy.text)?.[1])
    expect(new Set(nonces).size).toBe(3)
    expect(nonces).not.toContain('abc')
    for (const [copy, nonce] of [first, second, plain].map((copy, index) => [copy, nonces[index]] as const)) {
      expect(copy.headers['content-security-policy']).toBe(`script-src 'nonce-${nonce}'`)
      expect(copy.text.replace(`nonce="${nonce}"`, 'nonce="abc"')).toBe(
        page.replace('<body>', '<body><script nonce="abc"></script>'),
      )
    }
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(Number(plain.headers['content-length'])).toBe(plain.raw.length)
  })
})
