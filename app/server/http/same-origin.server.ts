import type { RequestHandler } from 'express'

/**
 * Cross-site request forgery guard for every form post and API write: a
 * non-GET request must come from our own pages. Browsers say where a request
 * comes from in `Sec-Fetch-Site` (or at least `Origin`); anything cross-site
 * is refused with 403 before Remix runs an action. Requests with neither
 * header (curl, server-to-server) carry no ambient cookies to abuse.
 * `/api/*` is exempt: it reads only bearer tokens, never cookies, so a
 * cross-site page cannot borrow a visitor's session there (CORS decides
 * which origins may read its answers: app/server/api/limits.server.ts).
 */
export function sameOriginWrites(publicOrigin: string): RequestHandler {
  return (req, res, next) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(req.method)) return next()
    if (req.path === '/api' || req.path.startsWith('/api/')) return next()
    // An email's one-click unsubscribe is posted by the mail provider: the signed token in its address is its only authority.
    if (req.path === '/unsubscribe') return next()
    const site = req.get('sec-fetch-site')
    const origin = req.get('origin')
    const ownOrigins = new Set([publicOrigin, `${req.protocol}://${req.get('host') ?? ''}`])
    const crossSite = site ? !['same-origin', 'none'].includes(site) : origin ? !ownOrigins.has(origin) : false
    if (crossSite) {
      res.status(403).type('text/plain').send('Cross-site request refused')
      return
    }
    next()
  }
}
