import { timingSafeEqual } from 'node:crypto'
import express from 'express'
import { z } from 'zod'
import type { StackContext } from './context'
import type { MailMessage } from './mailbox'
import { isLoopback } from './net'

export { isLoopback }

/**
 * `/mailbox` — the developer mailbox of the Docker-free stand-in: every email
 * Lumen "sends" (password resets, creator-application notices) is listed at
 * `/mailbox`, shown at `/mailbox/<id>`, and given as JSON at
 * `/mailbox/api/messages?to=<email>` for tests and scripts. Pages are plain
 * server-rendered HTML without scripts; a message's HTML body sits in a
 * sandboxed `srcdoc` iframe, so nothing in it runs.
 *
 * Every message holds reset links, so reading them is for the machine's
 * operator only (ADR 0012, finding 1): the router is mounted in embedded mode
 * only, answers loopback peers only (the socket's address, never a header),
 * and wants the data directory's secret (`DATA_DIR/mailbox.key`, printed at
 * start and by `npm run stack:status`) — as `?key=` once, which becomes an
 * HttpOnly SameSite=Strict cookie, or as the `X-Mailbox-Key` header for the
 * JSON API.
 *
 * `POST /mailbox/api/send` takes what an email provider's send API takes
 * (Resend's request shape), guarded by the service-role key: edge functions
 * send through it via MAIL_API_URL/MAIL_API_KEY, and point those at a real
 * provider outside the stand-in.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const sendSchema = z
  .object({
    from: z.string().optional(),
    to: z.union([z.string().email(), z.array(z.string().email()).min(1).max(50)]),
    subject: z.string().min(1).max(998),
    text: z.string().max(1_000_000).optional(),
    html: z.string().max(1_000_000).optional(),
  })
  .refine((message) => message.text !== undefined || message.html !== undefined, {
    message: 'Either text or html must be provided',
  })

export const MAILBOX_COOKIE = 'lumen_mailbox'
export const MAILBOX_KEY_HEADER = 'x-mailbox-key'

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return undefined
}

/** Loopback and the secret, else nothing but a refusal (the list of messages is never shown). */
function operatorOnly(secret: string | undefined): express.RequestHandler {
  return (req, res, next) => {
    if (!secret || !isLoopback(req.socket.remoteAddress)) {
      // Not even a hint that something lives here.
      res.status(404).type('text/plain').send('Not found')
      return
    }
    const queryKey = typeof req.query.key === 'string' ? req.query.key : undefined
    if (sameSecret(queryKey, secret)) {
      // Trade the key for a cookie, then drop it from the address bar (and from history).
      res.setHeader(
        'Set-Cookie',
        `${MAILBOX_COOKIE}=${encodeURIComponent(secret)}; Path=${req.baseUrl || '/'}; HttpOnly; SameSite=Strict`,
      )
      const url = new URL(req.originalUrl, 'http://mailbox.invalid')
      url.searchParams.delete('key')
      res.redirect(303, url.pathname + url.search)
      return
    }
    const header = req.get(MAILBOX_KEY_HEADER)
    if (sameSecret(header, secret) || sameSecret(cookieValue(req.headers.cookie, MAILBOX_COOKIE), secret)) return next()
    const message = 'The mailbox needs its key: open the MAILBOX_URL that `npm start` or `npm run stack:status` prints.'
    if (req.path.startsWith('/api/')) res.status(401).json({ message })
    else res.status(401).type('html').send(page('Mailbox locked', `<p>${escapeHtml(message)}</p>`))
  }
}

export function createMailboxRouter(ctx: StackContext): express.Router {
  const router = express.Router()
  router.use((_req, res, next) => {
    res.set({
      'Cache-Control': 'no-store',
      // Links in messages carry one-time tokens: never leak them as a Referer.
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': "script-src 'none'; object-src 'none'; base-uri 'self'; form-action 'self'",
    })
    next()
  })

  router.post('/api/send', (req, res, next) => {
    const refusal = checkApiKey(req.headers.authorization, ctx.keys.serviceRoleKey)
    if (refusal) {
      res.status(refusal.statusCode).json(refusal)
      return
    }
    express.json({ limit: '2mb' })(req, res, async (parseError?: unknown) => {
      try {
        const parsed = sendSchema.safeParse(parseError ? undefined : req.body)
        if (!parsed.success) {
          const issue = parsed.error.issues[0]
          const message = parseError ? 'The body must be JSON' : `${issue?.path.join('.') || 'body'}: ${issue?.message}`
          res.status(422).json({ statusCode: 422, name: 'validation_error', message })
          return
        }
        const { to, subject, text = '', html = '' } = parsed.data
        const sent = await Promise.all((Array.isArray(to) ? to : [to]).map((address) => ctx.mailbox.send({ to: address, subject, text, html })))
        res.json({ id: sent[0]!.id })
      } catch (error) {
        next(error)
      }
    })
  })

  // Sending is the service role's (edge functions); reading is the operator's.
  router.use(operatorOnly(ctx.mailboxSecret))

  router.get('/api/messages', async (req, res) => {
    const to = typeof req.query.to === 'string' ? req.query.to : undefined
    res.json({ messages: await ctx.mailbox.list(to) })
  })

  router.get('/api/messages/:id', async (req, res) => {
    const message = UUID.test(req.params.id) ? await ctx.mailbox.get(req.params.id) : undefined
    if (!message) res.status(404).json({ message: 'Message not found' })
    else res.json(message)
  })

  router.get('/', async (req, res) => {
    const to = typeof req.query.to === 'string' && req.query.to.trim() ? req.query.to.trim() : undefined
    res.type('html').send(listPage(req.baseUrl, await ctx.mailbox.list(to), to))
  })

  router.get('/:id', async (req, res) => {
    const message = UUID.test(req.params.id) ? await ctx.mailbox.get(req.params.id) : undefined
    if (!message) {
      res.status(404).type('html').send(page('Message not found', `${backLink(req.baseUrl)}<p>No message with this id.</p>`))
      return
    }
    res.type('html').send(messagePage(req.baseUrl, message))
  })

  return router
}

/** Resend's answers for a missing or wrong key. */
function checkApiKey(header: string | undefined, serviceRoleKey: string) {
  const key = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1]
  if (!key) return { statusCode: 401, name: 'missing_api_key', message: 'Missing API key in the authorization header' }
  const given = Buffer.from(key)
  const expected = Buffer.from(serviceRoleKey)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { statusCode: 403, name: 'invalid_api_key', message: 'API key is invalid' }
  }
  return undefined
}

function listPage(base: string, messages: MailMessage[], to: string | undefined): string {
  const rows = messages
    .map(
      (message) => `<tr>
  <td>${escapeHtml(message.to)}</td>
  <td><a href="${escapeHtml(`${base}/${message.id}`)}">${escapeHtml(message.subject)}</a></td>
  <td><time datetime="${escapeHtml(message.sentAt)}">${escapeHtml(formatTime(message.sentAt))}</time></td>
</tr>`,
    )
    .join('\n')
  const filter = `<form method="get" action="${escapeHtml(base)}/" class="filter">
  <label for="to">Recipient</label>
  <input id="to" name="to" type="email" value="${escapeHtml(to ?? '')}" placeholder="someone@example.com">
  <button type="submit">Filter</button>${to ? ` <a href="${escapeHtml(base)}/">Show all</a>` : ''}
</form>`
  const body = messages.length
    ? `<table>
<thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Sent</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : `<p class="empty">${to ? `No messages to ${escapeHtml(to)}.` : 'No messages yet.'}</p>`
  return page('Mailbox', `${filter}\n${body}`)
}

function messagePage(base: string, message: MailMessage): string {
  // The base element makes links in the message open in this tab, outside the frame.
  const document = `<!doctype html><meta charset="utf-8"><base target="_top">${message.html}`
  const html = message.html
    ? `<iframe title="Message body" sandbox="allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(document)}"></iframe>`
    : ''
  const text = message.text
    ? `<details${message.html ? '' : ' open'}><summary>Plain text</summary><pre>${escapeHtml(message.text)}</pre></details>`
    : ''
  return page(
    message.subject,
    `${backLink(base)}
<h2>${escapeHtml(message.subject)}</h2>
<dl>
  <dt>To</dt><dd>${escapeHtml(message.to)}</dd>
  <dt>Sent</dt><dd><time datetime="${escapeHtml(message.sentAt)}">${escapeHtml(formatTime(message.sentAt))}</time></dd>
</dl>
${html}
${text}`,
  )
}

function backLink(base: string): string {
  return `<p><a href="${escapeHtml(base)}/">← All messages</a></p>`
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Lumen mailbox</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1f2937; background: #f8fafc; }
  header, main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem; }
  header { border-bottom: 1px solid #e2e8f0; }
  h1 { font-size: 1.25rem; margin: 0; }
  h2 { font-size: 1.125rem; }
  .note { color: #64748b; font-size: 0.875rem; margin: 0.25rem 0 0; }
  .filter { display: flex; gap: 0.5rem; align-items: center; margin-bottom: 1rem; }
  input { padding: 0.25rem 0.5rem; border: 1px solid #cbd5e1; border-radius: 4px; min-width: 16rem; }
  button { padding: 0.25rem 0.75rem; border: 1px solid #334155; border-radius: 4px; background: #334155; color: #fff; }
  table { width: 100%; border-collapse: collapse; background: #fff; }
  th, td { text-align: left; padding: 0.5rem 0.75rem; border-bottom: 1px solid #e2e8f0; vertical-align: top; }
  th { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: #64748b; }
  td:last-child { white-space: nowrap; color: #64748b; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
  dt { color: #64748b; }
  dd { margin: 0; }
  iframe { width: 100%; height: 28rem; border: 1px solid #e2e8f0; background: #fff; }
  pre { white-space: pre-wrap; background: #fff; border: 1px solid #e2e8f0; padding: 0.75rem; }
  .empty { color: #64748b; }
</style>
</head>
<body>
<header>
  <h1>Lumen mailbox</h1>
  <p class="note">A developer tool of the Docker-free Supabase stand-in: the emails Lumen sends land here instead of in an inbox. It exists only while the stand-in runs.</p>
</header>
<main>
${content}
</main>
</body>
</html>
`
}

function formatTime(iso: string): string {
  const time = new Date(iso)
  return Number.isNaN(time.getTime()) ? iso : `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}
