import { expect, test } from '@playwright/test'

/**
 * Pages carry a strict, nonce-based Content-Security-Policy (security issue,
 * finding 2), and the app's own scripts — Remix's inline bootstrap and its
 * streamed data included — all run under it: no violation is reported, and
 * the page hydrates.
 */
test.describe('Content-Security-Policy', () => {
  test('every page script carries the response nonce, and none is refused', async ({ page }) => {
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
    })
    const response = await page.goto('/login')
    const policy = response?.headers()['content-security-policy'] ?? ''
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1]
    expect(nonce, policy).toBeTruthy()
    expect(policy).toContain("object-src 'none'")
    expect(policy).toContain("frame-ancestors 'none'")

    // Hydrated: the password field's show/hide toggle only works with JavaScript.
    await page.waitForFunction(() => Boolean((window as unknown as { __remixContext?: unknown }).__remixContext))
    await page.waitForLoadState('networkidle')
    const scripts = await page.locator('script').count()
    const withoutNonce = await page.evaluate(() => [...document.scripts].filter((script) => !script.nonce).length)
    expect(scripts).toBeGreaterThan(0)
    expect(withoutNonce).toBe(0)
    expect(violations).toEqual([])
  })

  test('the welcome page, kept in memory for visitors, gets a fresh nonce each time and still hydrates', async ({
    page,
    request,
  }) => {
    // Visitors without cookies share one rendering of `/` (ADR 0028); each copy must have its own nonce.
    const copies = await Promise.all(
      [1, 2, 3].map(async () => {
        const response = await request.get('/')
        const nonce = /script-src 'nonce-([^']+)'/.exec(response.headers()['content-security-policy'] ?? '')?.[1]
        const html = await response.text()
        return { nonce, html }
      }),
    )
    expect(new Set(copies.map((copy) => copy.nonce)).size).toBe(3)
    for (const { nonce, html } of copies) {
      expect(nonce).toBeTruthy()
      const scriptNonces = [...html.matchAll(/<script[^>]*\snonce="([^"]+)"/g)].map((match) => match[1])
      expect(scriptNonces.length).toBeGreaterThan(0)
      expect(new Set(scriptNonces)).toEqual(new Set([nonce]))
    }

    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
    })
    await page.goto('/')
    await page.waitForFunction(() => Boolean((window as unknown as { __remixContext?: unknown }).__remixContext))
    await page.waitForLoadState('networkidle')
    expect(violations).toEqual([])
  })

  test('a script injected into the page (as stored XSS would be) does not run', async ({ page }) => {
    // The server's own response and headers, with markup slipped in as if stored content were unescaped.
    await page.route('**/login', async (route) => {
      const response = await route.fetch()
      const html = (await response.text()).replace('<body', '<script>window.__injected = true</script><body')
      await route.fulfill({ response, body: html })
    })
    await page.goto('/login')
    await page.waitForLoadState('networkidle')
    expect(await page.evaluate(() => Boolean((window as unknown as { __injected?: boolean }).__injected))).toBe(false)
  })
})
