import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailMessage } from '../../../stack/mailbox'
import { startStack, type RunningStack } from '../../support/stack'

/**
 * The stand-in's developer mailbox at /mailbox: the HTML pages (list, one
 * message), the JSON API for tests and scripts (reads need the mailbox key:
 * tests/security/mailbox-access.test.ts covers who is refused), and the send API edge
 * functions use in place of an email provider. Stand-in only: a real
 * Supabase has no such thing.
 */
describe('mailbox', () => {
  let running: RunningStack

  const send = (message: Partial<MailMessage>) =>
    running.stack.context.mailbox.send({ to: 'ada@lumen.test', subject: 'Hello', text: 'text', html: '<p>html</p>', ...message })

  const apiSend = (body: unknown, key: string | null = running.serviceRoleKey) =>
    fetch(`${running.url}/mailbox/api/send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })

  /** Reads carry the mailbox's key, as the operator's browser (cookie) or a script (header) does. */
  const read = (url: string) => fetch(url, { headers: { 'X-Mailbox-Key': running.stack.context.mailboxSecret! } })

  beforeAll(async () => {
    running = await startStack()
  })
  afterAll(async () => {
    await running?.close()
  })

  describe('pages', () => {
    it('lists messages newest first with recipient, subject and time, each linking to its page', async () => {
      const older = await send({ to: 'first@lumen.test', subject: 'Older message' })
      await new Promise((resolve) => setTimeout(resolve, 5))
      const newer = await send({ to: 'second@lumen.test', subject: 'Newer message' })

      const response = await read(`${running.url}/mailbox`)
      const html = await response.text()

      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('content-security-policy')).toContain("script-src 'none'")
      expect(html).not.toContain('<script')
      expect(html).toContain('first@lumen.test')
      expect(html).toContain(`href="/mailbox/${newer.id}"`)
      expect(html).toContain(`<time datetime="${newer.sentAt}">`)
      expect(html.indexOf('Newer message')).toBeLessThan(html.indexOf('Older message'))
      expect(html).toContain(`href="/mailbox/${older.id}"`)
      expect(html).toMatch(/only while the stand-in runs/)
    })

    it('filters the list by recipient', async () => {
      await send({ to: 'only-me@lumen.test', subject: 'For me' })
      const html = await (await read(`${running.url}/mailbox?to=only-me@lumen.test`)).text()
      expect(html).toContain('For me')
      expect(html).not.toContain('Older message')
    })

    it('escapes a <script> in a subject, in the list and on the message page', async () => {
      const message = await send({ subject: '<script>alert("x")</script> & "quotes"' })

      for (const page of ['/mailbox', `/mailbox/${message.id}`]) {
        const html = await (await read(`${running.url}${page}`)).text()
        expect(html, page).not.toContain('<script>alert')
        expect(html, page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;')
      }
    })

    it('shows the HTML body in a sandboxed srcdoc iframe, links opening at the top, and the text version', async () => {
      const message = await send({
        subject: 'Reset your password',
        html: '<p>Click <a href="http://localhost:3000/reset?token=a&b=1">here</a></p><script>steal()</script>',
        text: 'Reset: http://localhost:3000/reset?token=a&b=1',
      })

      const html = await (await read(`${running.url}/mailbox/${message.id}`)).text()

      const iframe = /<iframe[^>]*>/.exec(html)?.[0] ?? ''
      expect(iframe).toMatch(/ sandbox="[^"]*"/)
      expect(iframe).not.toMatch(/sandbox="[^"]*allow-scripts/)
      expect(iframe).not.toMatch(/sandbox="[^"]*allow-same-origin/)
      const srcdoc = /srcdoc="([^"]*)"/.exec(iframe)?.[1] ?? ''
      expect(srcdoc).toContain('&lt;base target=&quot;_top&quot;&gt;')
      expect(srcdoc).toContain('href=&quot;http://localhost:3000/reset?token=a&amp;b=1&quot;')
      expect(html).toContain('<pre>Reset: http://localhost:3000/reset?token=a&amp;b=1</pre>')
      expect(html).not.toContain('<script>steal')
    })

    it('answers 404 for a message that does not exist, or an id that is not one', async () => {
      expect((await read(`${running.url}/mailbox/${randomUUID()}`)).status).toBe(404)
      expect((await read(`${running.url}/mailbox/..%2Fkeys.json`)).status).toBe(404)
    })
  })

  describe('JSON API', () => {
    it('lists the messages to one address, newest first, whole', async () => {
      const to = `json-${randomUUID().slice(0, 8)}@lumen.test`
      await send({ to, subject: 'one' })
      await new Promise((resolve) => setTimeout(resolve, 5))
      await send({ to: to.toUpperCase(), subject: 'two' })

      const response = await read(`${running.url}/mailbox/api/messages?to=${encodeURIComponent(to)}`)

      expect(response.headers.get('cache-control')).toBe('no-store')
      const { messages } = (await response.json()) as { messages: MailMessage[] }
      expect(messages.map((message) => message.subject)).toEqual(['two', 'one'])
      expect(messages[0]).toEqual({
        id: expect.any(String),
        to: to.toUpperCase(),
        subject: 'two',
        text: 'text',
        html: '<p>html</p>',
        sentAt: expect.any(String),
      })
    })

    it('gives one message by id, 404 otherwise', async () => {
      const message = await send({ subject: 'by id' })
      expect(await (await read(`${running.url}/mailbox/api/messages/${message.id}`)).json()).toEqual(message)
      expect((await read(`${running.url}/mailbox/api/messages/${randomUUID()}`)).status).toBe(404)
    })
  })

  describe('send API', () => {
    it('stores a message sent with the service-role key and answers its id', async () => {
      const to = `sent-${randomUUID().slice(0, 8)}@lumen.test`
      const response = await apiSend({ from: 'Lumen <no-reply@lumen.local>', to, subject: 'Via the API', html: '<b>hi</b>', text: 'hi' })

      expect(response.status).toBe(200)
      const { id } = (await response.json()) as { id: string }
      expect(await running.stack.context.mailbox.list(to)).toEqual([
        expect.objectContaining({ id, to, subject: 'Via the API', html: '<b>hi</b>', text: 'hi' }),
      ])
    })

    it('stores one copy per recipient', async () => {
      const to = [`a-${randomUUID().slice(0, 8)}@lumen.test`, `b-${randomUUID().slice(0, 8)}@lumen.test`]
      expect((await apiSend({ to, subject: 'Both', text: 'hi' })).status).toBe(200)
      for (const address of to) expect(await running.stack.context.mailbox.list(address)).toHaveLength(1)
    })

    it('refuses without a key (401) and with any key but the service-role key (403)', async () => {
      const body = { to: 'x@lumen.test', subject: 'no', text: 'no' }
      const missing = await apiSend(body, null)
      expect(missing.status).toBe(401)
      expect(await missing.json()).toMatchObject({ name: 'missing_api_key' })
      const wrong = await apiSend(body, running.anonKey)
      expect(wrong.status).toBe(403)
      expect(await wrong.json()).toMatchObject({ name: 'invalid_api_key' })
      expect(await running.stack.context.mailbox.list('x@lumen.test')).toEqual([])
    })

    it('answers 422 validation_error for a bad message, and stores nothing', async () => {
      for (const body of [
        { to: 'not-an-email', subject: 's', text: 't' },
        { to: 'y@lumen.test', subject: '', text: 't' },
        { to: 'y@lumen.test', subject: 's' },
        'not json',
      ]) {
        const response = await apiSend(body)
        expect(response.status, JSON.stringify(body)).toBe(422)
        expect(await response.json()).toMatchObject({ statusCode: 422, name: 'validation_error' })
      }
      expect(await running.stack.context.mailbox.list('y@lumen.test')).toEqual([])
    })
  })
})
