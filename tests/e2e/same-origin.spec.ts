import { expect, test } from '@playwright/test'

/** QUALITY.md: a page on another origin posting to any action gets 403; our own pages may post. */
test.describe('cross-site writes', () => {
  test('a post from another origin is refused with 403', async ({ request }) => {
    const crossOrigin = await request.post('/', { headers: { Origin: 'https://evil.example' }, form: { any: 'thing' } })
    expect(crossOrigin.status()).toBe(403)
    const crossSite = await request.post('/', { headers: { 'Sec-Fetch-Site': 'cross-site' }, form: { any: 'thing' } })
    expect(crossSite.status()).toBe(403)
  })

  test('a post from our own origin reaches the app', async ({ request, baseURL }) => {
    const response = await request.post('/', { headers: { Origin: baseURL!, 'Sec-Fetch-Site': 'same-origin' }, form: { any: 'thing' } })
    // The welcome page has no action: Remix answers 405, which proves the guard let it through.
    expect(response.status()).toBe(405)
  })

  test('reads are never blocked, wherever they come from', async ({ request }) => {
    const response = await request.get('/', { headers: { 'Sec-Fetch-Site': 'cross-site' } })
    expect(response.status()).toBe(200)
  })
})
