import { request } from 'node:http'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, haveBuild, readKeys, startServer, tempDataDir, type RunningServer } from './support/processes'

/**
 * ADR 0017, operability, on a real `npm start` (embedded PGlite):
 * /healthz and /readyz, JSON logs with a request id and no secrets, and a
 * graceful SIGTERM that lets an in-flight upload finish, then exits 0.
 */
describe.skipIf(!haveBuild())('operability of npm start', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>
  let server: RunningServer

  beforeAll(async () => {
    data = await tempDataDir('ops')
    server = await startServer({ dataDir: data.dir, port: await freePort() })
  })
  afterAll(async () => {
    await server?.kill('SIGKILL')
    await data?.remove()
  })

  it('answers /healthz, and /readyz once the database and the in-process worker are there', async () => {
    const health = await fetch(`${server.url}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', worker: 'ok' } })
  })

  it('logs JSON lines that carry the request id, never a token, key or password', async () => {
    const keys = await readKeys(data.dir)
    const mailboxKey = (await readFile(path.join(data.dir, 'mailbox.key'), 'utf8')).trim()
    const response = await fetch(`${server.url}/auth/v1/verify?token=secret-token-123&type=recovery&redirect_to=/`, {
      headers: { 'X-Request-Id': 'ops-test-1', Authorization: 'Bearer secret-bearer-456', apikey: keys.anonKey },
      redirect: 'manual',
    })
    expect(response.headers.get('x-request-id')).toBe('ops-test-1')
    await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: keys.anonKey, 'Content-Type': 'application/json', 'X-Request-Id': 'ops-test-2' },
      body: JSON.stringify({ email: 'nobody@example.test', password: 'secret-password-789' }),
    })
    const generated = await fetch(`${server.url}/healthz`)
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)

    const line = await server.waitForLog((entry) => entry.requestId === 'ops-test-1' && entry.msg === 'request')
    expect(line).toMatchObject({ level: 'info', component: 'http', method: 'GET', status: response.status })
    expect(line.path).toContain('token=[redacted]')
    await server.waitForLog((entry) => entry.requestId === 'ops-test-2')

    const everything = server.output.join('\n')
    for (const secret of [
      'secret-token-123',
      'secret-bearer-456',
      'secret-password-789',
      mailboxKey,
      keys.serviceRoleKey,
      keys.jwtSecret,
    ]) {
      expect(everything).not.toContain(secret)
    }
    // Every line is JSON but supabase-js's own Node 20 notice (a library's console.warn, on stderr).
    const lines = server.output.filter((entry) => entry.trim() && !entry.includes('Node.js 20 and below are deprecated'))
    for (const text of lines) expect(() => JSON.parse(text)).not.toThrow()
  })

  it('on SIGTERM refuses new connections, finishes the upload in flight, and exits 0', async () => {
    const { serviceRoleKey } = await readKeys(data.dir)
    const body = Buffer.alloc(256 * 1024, 7)
    const upload = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${server.url}/storage/v1/object/media/shutdown/test.mp4`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${serviceRoleKey}`,
          'Content-Type': 'video/mp4',
          'Content-Length': String(body.length),
        },
      })
      req.on('response', (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      })
      req.on('error', reject)
      req.write(body.subarray(0, 1024))
      // The rest only once shutdown has begun.
      void server
        .waitForLog((entry) => typeof entry.msg === 'string' && entry.msg.startsWith('shutting down'))
        .then(async () => {
          await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
          req.end(body.subarray(1024))
        }, reject)
    })
    // The request has reached the server before the signal.
    await new Promise((resolve) => setTimeout(resolve, 300))
    server.child.kill('SIGTERM')
    const result = await upload.catch((error: unknown) => {
      throw new Error(`${String(error)}; server output:\n${server.output.slice(-15).join('\n')}`)
    })
    expect(result.status).toBe(200)
    expect(await server.exited).toEqual({ code: 0, signal: null })
    expect(server.logs().some((entry) => entry.msg === 'stopped')).toBe(true)
  })
})
