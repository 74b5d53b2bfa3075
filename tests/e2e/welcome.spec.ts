import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

test.describe('welcome page', () => {
  test('introduces Lumen and leads to the feed with Explore Content', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveTitle(/Lumen/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    const explore = page.getByRole('link', { name: 'Explore Content' })
    await expect(explore).toBeVisible()
    await expect(explore).toHaveAttribute('href', '/feed')
  })

  test('is served whole without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/')
    await expect(page.getByRole('link', { name: 'Explore Content' })).toBeVisible()
    await context.close()
  })

  test('has no serious or critical accessibility violations', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/')
    const results = await new AxeBuilder({ page }).analyze()
    const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
    expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([])
  })

  test('fits a phone screen without sideways scrolling', { tag: '@phone' }, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 })
    await page.goto('/')
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })
})
