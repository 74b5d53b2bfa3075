import type { APIRequestContext } from '@playwright/test'
import { expect, test, type DemoAccount } from './support/fixtures'

/**
 * No dead links (ADR 0013): for each role — visitor, learner, unverified
 * creator, creator, admin — every link on the pages reachable from the
 * navigation is requested without following redirects. A link fails when it
 * answers 404 or 5xx, or redirects to /login (signed in) or to /profile
 * (the old "not built yet" landing), except where that is the product's own
 * answer: a visitor sent to sign in for a login-required page, an unverified
 * creator sent to their profile from /upload.
 *
 * Pages are crawled two links deep from the entry points; links that differ
 * only by an id (videos, creators) or a page cursor are opened once to read
 * their links, but every distinct link is checked.
 *
 * Each page read is also checked for a form inside a form: the HTML parser
 * drops the inner <form> and ends the outer one at the inner one's end, so
 * the controls after it (Save changes on Edit Profile once) submit nothing
 * without JavaScript.
 */
const ENTRY_POINTS = ['/', '/feed', '/sparks', '/creators', '/explore', '/profile', '/dashboard', '/upload', '/admin']
const SKIP = /^\/(logout|media\/|auth\/|storage\/|rest\/|functions\/|mailbox|build\/|assets\/)/
const MAX_CHECKS = 120

const roles: (DemoAccount | 'visitor')[] = ['visitor', 'learner', 'newcreator', 'creator', 'admin']

function linksIn(html: string): string[] {
  const links: string[] = []
  for (const match of html.matchAll(/<a\s[^>]*?href="([^"]+)"/g)) {
    const href = match[1]!.replaceAll('&amp;', '&')
    if (href.startsWith('/') && !href.startsWith('//')) links.push(href.split('#')[0]!)
  }
  return links
}

/** Whether the server's HTML opens a form inside another (outside scripts). */
function hasNestedForm(html: string): boolean {
  let depth = 0
  for (const match of html.replace(/<script[\s\S]*?<\/script>/gi, '').matchAll(/<(\/?)form[\s>]/gi)) {
    depth += match[1] ? -1 : 1
    if (depth > 1) return true
  }
  return false
}

/** The same page whatever the id or cursor: read its links once. */
function shape(href: string): string {
  return href
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id')
    .replace(/([?&](cursor|after|start)=)[^&]+/g, '$1…')
}

function problemWith(role: string, href: string, status: number, location: string | null): string | null {
  if (status === 404 || status >= 500) return `${href} answered ${status}`
  if (status < 300 || status >= 400 || !location) return null
  const target = new URL(location, 'http://lumen.invalid').pathname
  if (target === '/login') {
    const loginRequired = /^\/(dashboard|upload|feed|sparks|sparks-reels|profile|create-quote|admin|video\/)/.test(href)
    return role === 'visitor' && loginRequired ? null : `${href} redirected to /login`
  }
  if (target === '/profile') {
    if (role === 'newcreator' && href.startsWith('/upload') && location.includes('verification=required')) return null
    return `${href} redirected to /profile (${location})`
  }
  return null
}

async function crawl(request: APIRequestContext, role: string): Promise<string[]> {
  const problems: string[] = []
  const checked = new Set<string>()
  const read = new Set<string>()
  let frontier = [...ENTRY_POINTS]
  for (let depth = 0; depth < 3 && frontier.length; depth += 1) {
    const next: string[] = []
    for (const href of frontier) {
      if (checked.has(href) || SKIP.test(href) || checked.size >= MAX_CHECKS) continue
      checked.add(href)
      const response = await request.get(href, { maxRedirects: 0 })
      const problem = problemWith(role, href, response.status(), response.headers()['location'] ?? null)
      if (problem) problems.push(problem)
      const kind = shape(href)
      if (response.status() !== 200 || read.has(kind) || depth === 2) continue
      read.add(kind)
      if (!(response.headers()['content-type'] ?? '').includes('text/html')) continue
      const html = await response.text()
      if (hasNestedForm(html)) problems.push(`${href} has a form inside a form`)
      next.push(...linksIn(html))
    }
    frontier = [...new Set(next)]
  }
  expect(checked.size, `${role} crawled pages`).toBeGreaterThan(10)
  return problems
}

test.describe('no dead links', () => {
  test.beforeEach(() => {
    test.setTimeout(180_000)
  })

  for (const role of roles) {
    test(`every link a ${role} can reach answers, without a misleading redirect`, async ({ page, signedInAs }) => {
      if (role !== 'visitor') await signedInAs(role)
      expect(await crawl(page.request, role)).toEqual([])
    })
  }
})
