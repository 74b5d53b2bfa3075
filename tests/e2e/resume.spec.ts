import type { Page } from '@playwright/test'
import { expect, expectAccessible, expectNoHorizontalScroll, test } from './support/fixtures'

/**
 * Resume where you left off (ADR 0034) on the demo content: a learner stops a
 * lesson part-way; after a reload the page offers "Resume from …" and the
 * player starts there; the feed's first row is Continue watching with a
 * progress bar; History removes it. Without JavaScript the offer's links and
 * History's forms work the same.
 */
const TITLE = 'Why the Sky Is Blue'

/** The demo lesson's id, from the feed (on a data folder not prepared by `npm test`, once the demo content is processed). */
async function demoVideoId(page: Page): Promise<string> {
  const link = page.locator('[data-video-card]').filter({ hasText: TITLE }).getByRole('link', { name: TITLE, exact: true })
  await expect(async () => {
    await page.goto(`/feed?search=${encodeURIComponent('sky blue')}`)
    await expect(link).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 180_000 })
  return /\/video\/([0-9a-f-]{36})/.exec((await link.getAttribute('href'))!)![1]!
}

test.describe('with JavaScript', () => {
  // The offer over the player and the feed's progress bars: laid out differently on a phone.
  test('a stopped lesson is offered from where it stopped, continued from the feed, and removed from History', { tag: '@phone' }, async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    await signedInAs(await makeUser())
    const id = await demoVideoId(page)
    await page.goto(`/video/${id}`)
    await expect(page.locator('[data-resume-at]')).toHaveCount(0)
    const video = page.locator(`[data-video-id="${id}"] video`)
    await expect(video).toHaveAttribute('data-engine', 'hls.js', { timeout: 20_000 })

    // Play, jump to 0:12, pause: the pause sends the position with the view's report.
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true
      return element.play()
    })
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0)
    await video.evaluate((element: HTMLVideoElement) => {
      element.currentTime = 12
    })
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThanOrEqual(12)
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/views/report') && response.request().postData()?.includes('position=12') === true,
    )
    await video.evaluate((element: HTMLVideoElement) => element.pause())
    expect((await saved).status()).toBe(200)

    await page.reload()
    const offer = page.getByRole('region', { name: 'Resume watching' })
    await expect(offer.getByRole('link', { name: 'Resume from 0:12' })).toBeVisible()
    await expect(offer.getByRole('link', { name: 'Start over' })).toBeVisible()
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(11.5)
    await expectAccessible(page)

    await page.goto('/feed')
    const row = page.getByRole('region', { name: 'Continue watching' })
    await expect(row.locator(`[data-video-card="${id}"] [data-watched]`)).toBeVisible()
    await expectNoHorizontalScroll(page)

    // Opened again, it still offers the saved moment.
    await page.goto(`/video/${id}`)
    await expect(offer.getByRole('link', { name: 'Resume from 0:12' })).toBeVisible()
    await offer.getByRole('link', { name: 'Start over' }).click()
    await page.waitForURL(/\?t=0$/)
    await expect(offer).toHaveCount(0)
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeLessThan(11)

    await page.goto('/profile?tab=history')
    const entry = page.locator(`[data-history="${id}"]`)
    await expect(entry).toContainText('Watched to')
    await expectAccessible(page)
    await entry.getByRole('button', { name: `Remove “${TITLE}” from history` }).click()
    await expect(page.getByText('Removed from your history')).toBeVisible()
    await expect(entry).toHaveCount(0)
    await expect(page.getByText('No history yet')).toBeVisible()
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the offer is links (the MP4 starts at the saved moment), History removes and clears with plain forms', async ({
    page,
    signedInAs,
    makeUser,
    baseURL,
  }) => {
    await signedInAs(await makeUser())
    const id = await demoVideoId(page)
    // What the player would have reported (with the browser's own cookies).
    const report = await page.request.post('/views/report', {
      form: { session: crypto.randomUUID(), video: id, played: '0', position: '14' },
      headers: { Origin: baseURL! },
    })
    expect(report.status()).toBe(200)

    await page.goto(`/video/${id}`)
    const offer = page.getByRole('region', { name: 'Resume watching' })
    await expect(offer.getByRole('link', { name: 'Resume from 0:14' })).toHaveAttribute('href', /\?t=14$/)
    await expect(page.locator(`[data-video-id="${id}"] video source`)).toHaveAttribute('src', /#t=14$/)
    await offer.getByRole('link', { name: 'Start over' }).click()
    await expect(page).toHaveURL(/\?t=0$/)
    await expect(offer).toHaveCount(0)

    await page.goto('/profile?tab=history')
    await expect(page.locator(`[data-history="${id}"]`)).toContainText('Watched to 0:14')
    await page.getByText('Clear history', { exact: true }).click()
    await page.getByRole('button', { name: 'Clear all history' }).click()
    await expect(page.getByText('Your watch history was cleared')).toBeVisible()
    await expect(page.getByText('No history yet')).toBeVisible()
  })
})
