import http from 'node:http'
import type { Request, Response } from 'express'

/**
 * Streams one request to a function's Deno process on loopback and its answer
 * back: method, path (already relative to /functions/v1, so it starts at
 * /<name> as on edge-runtime), headers, status and bodies, none of them
 * buffered. Hop-by-hop headers stay behind and X-Forwarded-* are added, as
 * Supabase's gateway does. Resolves to false when the function failed before
 * it answered (it crashed, or was not there) — not when the caller left — so
 * the router can answer for it and start it again.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

export function proxyToFunction(port: number, req: Request, res: Response): Promise<boolean> {
  return new Promise((resolve) => {
    const headers: http.OutgoingHttpHeaders = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value
    }
    const clientAddress = req.socket.remoteAddress ?? ''
    headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${clientAddress}` : clientAddress
    headers['x-forwarded-proto'] = req.protocol
    if (req.headers.host) headers['x-forwarded-host'] = req.headers.host

    // A fresh connection per request: a reused keep-alive socket that the
    // function closed meanwhile would look like a crash.
    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent: false })

    let callerLeft = false
    upstream.on('response', (answer) => {
      const rawHeaders: string[] = []
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        const name = answer.rawHeaders[i]!
        if (!HOP_BY_HOP.has(name.toLowerCase())) rawHeaders.push(name, answer.rawHeaders[i + 1]!)
      }
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, rawHeaders)
      answer.pipe(res)
      answer.on('error', () => res.destroy())
    })
    upstream.on('error', () => {
      if (res.headersSent) res.destroy()
      else resolve(callerLeft)
    })
    res.on('close', () => {
      // The caller went away: stop the function's work on it too.
      if (!res.writableFinished) {
        callerLeft = true
        upstream.destroy()
      }
      if (res.headersSent) resolve(true)
    })
    req.pipe(upstream)
  })
}
