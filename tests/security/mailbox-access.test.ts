import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import express from 'express'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStack, type Stack } from '../../stack/index'
import type { OutgoingMail } from '../../stack/mail'
import { isLoopback } from '../../stack/mailbox-page'
import { createScratchDatabase } from '../support/postgres'
import { startStack, type RunningStack } from '../support/stack'

/**
 * ADR 0012, finding 1: the developer mailbox held every reset link and
 * answered anyone. Now it answers only loopback peers holding the data
 * directory's key, exists only in embedded mode, and server mode mails
 * through SMTP; the demo accounts and a mail-less server mode are refused.
 */
const run = promisify(execFile)

describe('the developer mailbox', () => {
  let running: RunningStack
  let key: string
  beforeAll(async () => {
    running = await startStack()
    key = running.stack.context.mailboxSecret!
    await running.stack.context.mailbox.send({ to: 'admin@lumen.test', subject: 'Reset Your Password', text: 'secret link', html: '' })
  })
  afterAll(async () => {
    await running?.close()
  })

  it('refuses a loopback caller without the key, or with a wrong one: pages and JSON API', async () => {
    for (const url of ['/mailbox', '/mailbox/', '/mailbox/api/messages?to=admin@lumen.test', '/mailbox/api/messages']) {
      for (const headers of [{}, { 'X-Mailbox-Key': 'guess' }, { Cookie: 'lumen_mailbox=guess' }] as Record<string, string>[]) {
        const response = await fetch(`${running.url}${url}`, { headers, redirect: 'manual' })
        expect(response.status, `${url} ${JSON.stringify(headers)}`).toBe(401)
        expect(await response.text()).not.toContain('secret link')
      }
    }
    // A key sent anywhere but the header, the cookie or ?key= is no key.
    const viaAuthorization = await fetch(`${running.url}/mailbox/api/messages`, { headers: { Authorization: `Bearer ${key}` } })
    expect(viaAuthorization.status).toBe(401)
  })

  it('trades ?key= for an HttpOnly SameSite=Strict cookie, and drops the key from the address', async () => {
    const response = await fetch(`${running.url}/mailbox/?to=admin%40lumen.test&key=${key}`, { redirect: 'manual' })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/mailbox/?to=admin%40lumen.test')
    const cookie = response.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^lumen_mailbox=[^;]+; Path=\/mailbox; HttpOnly; SameSite=Strict$/)
    const page = await fetch(`${running.url}/mailbox/?to=admin%40lumen.test`, { headers: { Cookie: cookie.split(';')[0]! } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Reset Your Password')
  })

  it('gives the JSON API to the X-Mailbox-Key header', async () => {
    const response = await fetch(`${running.url}/mailbox/api/messages?to=admin@lumen.test`, { headers: { 'X-Mailbox-Key': key } })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { messages: unknown[] }).messages).toHaveLength(1)
  })

  it('knows loopback peers by the socket address only', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address), address).toBe(true)
    for (const address of [undefined, '', '10.0.0.1', '::ffff:10.0.0.1', '192.168.1.2', '::', '0.0.0.0', '127.0.0.1.evil']) {
      expect(isLoopback(address), String(address)).toBe(false)
    }
  })

  // A real non-loopback peer: the same router served on this machine's LAN address (when it has one).
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address
  it.skipIf(!lan)('refuses a non-loopback peer even with the key, whatever X-Forwarded-For says', async () => {
    const app = express()
    app.use(running.stack.router)
    const server: Server = createServer(app)
    await new Promise<void>((resolve) => server.listen(0, lan, resolve))
    try {
      const { port } = server.address() as AddressInfo
      for (const headers of [{ 'X-Mailbox-Key': key }, { 'X-Mailbox-Key': key, 'X-Forwarded-For': '127.0.0.1' }] as Record<string, string>[]) {
        const response = await fetch(`http://${lan}:${port}/mailbox/api/messages`, { headers })
        expect(response.status).toBe(404)
        expect(await response.text()).not.toContain('secret link')
      }
      const withQueryKey = await fetch(`http://${lan}:${port}/mailbox/?key=${key}`, { redirect: 'manual' })
      expect(withQueryKey.status).toBe(404)
      expect(withQueryKey.headers.get('set-cookie')).toBeNull()
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('server mode', () => {
  let stack: Stack
  let server: Server
  let url: string
  let dataDir: string
  const sent: OutgoingMail[] = []
  let closeDb: () => Promise<void>

  beforeAll(async () => {
    const running = await startStack()
    closeDb = () => running.close()
    dataDir = await mkdtemp(path.join(tmpdir(), 'lumen-server-mode-'))
    const app = express()
    server = createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    stack = await createStack({
      pool: running.database.pool,
      dataDir,
      publicUrl: url,
      mode: 'server',
      mail: { kind: 'smtp', send: async (message) => (sent.push(message), { id: 'smtp-1' }) },
    })
    app.use(stack.router)
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise<void>((resolve) => server?.close(() => resolve()))
    await stack?.close()
    await closeDb?.()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('mounts no mailbox at all, and makes no mailbox key', async () => {
    expect(stack.context.mailboxSecret).toBeUndefined()
    for (const page of ['/mailbox', '/mailbox/api/messages', '/mailbox/api/send']) {
      const response = await fetch(`${url}${page}`, { headers: { Authorization: `Bearer ${stack.context.keys.serviceRoleKey}` } })
      expect(response.status, page).toBe(404)
    }
  })

  it('sends the recovery email through the mail transport (SMTP), not into the mailbox', async () => {
    const { keys } = stack.context
    const email = `smtp-${Date.now()}@lumen.test`
    const created = await fetch(`${url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: { apikey: keys.serviceRoleKey, Authorization: `Bearer ${keys.serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'Some-Password-1', email_confirm: true }),
    })
    expect(created.status).toBe(200)
    const recovered = await fetch(`${url}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: keys.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    })
    expect(recovered.status).toBe(200)
    expect(sent).toEqual([expect.objectContaining({ to: email, subject: 'Reset Your Password' })])
    expect(sent[0]!.text).toContain(`${url}/auth/confirm?token_hash=`)
    expect(await stack.context.mailbox.list(email)).toEqual([])
  })

  it('refuses to create a server-mode stack without a mail transport', async () => {
    // It refuses before it touches the pool.
    await expect(createStack({ pool: {} as pg.Pool, dataDir, publicUrl: url, mode: 'server' })).rejects.toThrow(/SMTP_URL/)
  })
})

describe('npm start with DATABASE_URL', () => {
  it('refuses to start without SMTP_URL, before touching the database', async () => {
    const scratch = await createScratchDatabase('smtp_required')
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: scratch.url, PORT: '1', NODE_ENV: 'production' }
      for (const name of ['SMTP_URL', 'SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_JWT_SECRET']) delete env[name]
      const failure = await run('npx', ['tsx', 'server.ts'], {
        env,
        timeout: 60_000,
      }).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      )
      expect(failure?.code).toBe(1)
      expect(failure?.stderr).toMatch(/needs SMTP_URL/)
    } finally {
      await scratch.drop()
    }
  })
})
