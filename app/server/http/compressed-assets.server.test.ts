import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compressedAssets } from './compressed-assets.server'

describe('compressedAssets', () => {
  let dir: string
  let base: string
  let close: () => void
  const script = `export const text = ${JSON.stringify('lumen '.repeat(2000))}\n`

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lumen-assets-'))
    await writeFile(path.join(dir, 'app-abc.js'), script)
    await writeFile(path.join(dir, 'font.woff2'), 'not compressible')
    await mkdir(path.join(dir, 'chunks'))
    await writeFile(path.join(dir, 'chunks', 'route-def.js'), script)
    const app = express()
    app.use('/assets', compressedAssets(dir), express.static(dir))
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/assets`
    close = () => server.close()
  })
  afterAll(async () => {
    close()
    await rm(dir, { recursive: true, force: true })
  })

  const raw = async (url: string, headers: Record<string, string>) => {
    const { request } = await import('node:http')
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      request(url, { headers }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        )
      })
        .on('error', reject)
        .end()
    })
  }

  it('sends brotli when the browser takes it, gzip otherwise, the same bytes once decoded', async () => {
    const br = await raw(`${base}/app-abc.js`, { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['vary']).toBe('Accept-Encoding')
    expect(br.headers['cache-control']).toContain('immutable')
    expect(brotliDecompressSync(br.body).toString()).toBe(script)
    expect(br.body.length).toBeLessThan(script.length / 10)

    const gz = await raw(`${base}/app-abc.js`, { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.body).toString()).toBe(script)
  })

  it('leaves identity requests, ranges, other files and missing ones to the static handler', async () => {
    const plain = await raw(`${base}/app-abc.js`, { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(script)
    const range = await raw(`${base}/app-abc.js`, { 'accept-encoding': 'br', range: 'bytes=0-9' })
    expect(range.headers['content-encoding']).toBeUndefined()
    expect(range.body.toString()).toBe(script.slice(0, 10))
    const font = await raw(`${base}/font.woff2`, { 'accept-encoding': 'br' })
    expect(font.headers['content-encoding']).toBeUndefined()
    const missing = await raw(`${base}/nothing.js`, { 'accept-encoding': 'br' })
    expect(missing.headers['content-encoding']).toBeUndefined()
    const escape = await raw(`${base}/..%2f..%2fetc%2fpasswd.js`, { 'accept-encoding': 'br' })
    expect(escape.headers['content-encoding']).toBeUndefined()
  })

  it('serves the files of the build in subfolders too', async () => {
    const nested = await raw(`${base}/chunks/route-def.js`, { 'accept-encoding': 'br' })
    expect(nested.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(nested.body).toString()).toBe(script)
  })

  it('compresses only what the build held at start, so made-up names never enter its cache', async () => {
    await writeFile(path.join(dir, 'later.js'), script)
    const later = await raw(`${base}/later.js`, { 'accept-encoding': 'br' })
    expect(later.status).toBe(200)
    expect(later.headers['content-encoding']).toBeUndefined()
  })

  it('answers a malformed escape without an error of its own', async () => {
    const bad = await raw(`${base}/%E0%A4%A.js`, { 'accept-encoding': 'br' })
    expect(bad.headers['content-encoding']).toBeUndefined()
    expect(bad.status).toBeLessThan(500)
  })
})
