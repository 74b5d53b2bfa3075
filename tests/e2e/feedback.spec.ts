import { expect, expectAccessible, expectNoHorizontalScroll, test, type Page } from './support/fixtures'

/**
 * The floating Feedback button and panel (docs/product.md, Screens; Rules and messages): every
 * field required with the schema's messages, 'Thank you for your
 * feedback!' and the panel closing after 3 s with JavaScript; the /feedback
 * page and a flash message without it. That the row is stored (and only
 * admins read it) is proven in tests/integration/shell-routes.test.ts.
 */
const MESSAGES = {
  liked: 'Please tell us whether you like Lumen',
  usage: 'Please tell us how you use Lumen',
  recommendations: 'Please share your recommendations',
}
const THANKS = 'Thank you for your feedback!'

async function fillFeedback(page: Page, scope = page.locator('body')) {
  await scope.getByLabel('Yes').check()
  await scope.getByLabel('How do you use Lumen?').fill('Sparks on my commute, lessons at the weekend.')
  await scope.getByLabel('What would you recommend we improve?').fill('More chemistry sparks, please.')
}

test.describe('desktop', () => {
  test.describe('with JavaScript on', () => {
    test('the panel asks for every field, thanks the user and closes itself after 3 s', async ({ page, signedInAs }) => {
      await signedInAs('learner')
      await page.goto('/profile')
      const button = page.getByRole('button', { name: 'Feedback', exact: true })
      await button.click()
      const panel = page.getByRole('dialog', { name: 'Send feedback' })
      await expect(panel).toBeVisible()
      await expect(button).toHaveAttribute('aria-expanded', 'true')

      await panel.getByRole('button', { name: 'Send Feedback' }).click()
      for (const message of Object.values(MESSAGES)) await expect(panel.getByText(message)).toBeVisible()
      await expect(panel.getByLabel('Yes')).toBeFocused()

      await fillFeedback(page, panel)
      await panel.getByRole('button', { name: 'Send Feedback' }).click()
      await expect(panel.getByText(THANKS)).toBeVisible()
      const shownAt = Date.now()
      await expect(panel).toBeHidden({ timeout: 6000 })
      expect(Date.now() - shownAt).toBeGreaterThan(2000)
      await expect(button).toBeFocused()
      await expect(page).toHaveURL(/\/profile$/)

      // Opening it again starts afresh.
      await button.click()
      await expect(panel.getByLabel('How do you use Lumen?')).toHaveValue('')
    })

    test('Escape, the close button and a click outside close the panel and give focus back', async ({ page, signedInAs }) => {
      await signedInAs('learner')
      await page.goto('/profile')
      const button = page.getByRole('button', { name: 'Feedback', exact: true })
      const panel = page.getByRole('dialog', { name: 'Send feedback' })

      await button.click()
      await expect(panel).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(panel).toBeHidden()
      await expect(button).toBeFocused()

      await button.click()
      await panel.getByRole('button', { name: 'Close feedback' }).click()
      await expect(panel).toBeHidden()

      await button.click()
      await expect(panel).toBeVisible()
      await page.mouse.click(10, 300)
      await expect(panel).toBeHidden()
    })

    test('keeps keyboard focus inside the open panel', async ({ page, signedInAs }) => {
      await signedInAs('learner')
      await page.goto('/profile')
      await page.getByRole('button', { name: 'Feedback', exact: true }).click()
      const panel = page.getByRole('dialog', { name: 'Send feedback' })
      await expect(panel).toBeVisible()
      for (let step = 0; step < 12; step++) {
        await page.keyboard.press('Tab')
        const inside = await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')) || document.activeElement === document.body)
        expect(inside, `focus after ${step + 1} Tab presses`).toBe(true)
      }
    })

    test('with the panel open the page has no serious accessibility violations', async ({ page, signedInAs }) => {
      await signedInAs('learner')
      await page.goto('/profile')
      await page.getByRole('button', { name: 'Feedback', exact: true }).click()
      await expect(page.getByRole('dialog', { name: 'Send feedback' })).toBeVisible()
      await expectAccessible(page)
      await page.getByRole('dialog').getByRole('button', { name: 'Send Feedback' }).click()
      await expect(page.getByText(MESSAGES.usage)).toBeVisible()
      await expectAccessible(page)
    })
  })

  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false })

    test('the button is a link to the feedback page, which checks every field and sends the user back with a thank-you', async ({ page, signedInAs }) => {
      await signedInAs('learner')
      await page.goto('/profile')
      await page.getByRole('link', { name: 'Feedback' }).click()
      await expect(page).toHaveURL(/\/feedback\?returnTo=%2Fprofile$/)
      await expect(page.getByRole('heading', { name: 'Send feedback' })).toBeVisible()

      await page.getByRole('button', { name: 'Send Feedback' }).click()
      for (const message of Object.values(MESSAGES)) await expect(page.getByText(message)).toBeVisible()

      await page.getByLabel('How do you use Lumen?').fill('Between classes.')
      await page.getByRole('button', { name: 'Send Feedback' }).click()
      await expect(page.getByText(MESSAGES.liked)).toBeVisible()
      // What was typed is kept.
      await expect(page.getByLabel('How do you use Lumen?')).toHaveValue('Between classes.')

      await fillFeedback(page)
      await page.getByRole('button', { name: 'Send Feedback' }).click()
      await expect(page).toHaveURL(/\/profile$/)
      await expect(page.getByTestId('flash-toast')).toHaveText(THANKS)
    })

    test('Cancel goes back where the visitor came from', async ({ page, signedInAs }) => {
      await signedInAs('creator')
      await page.goto('/dashboard')
      await page.getByRole('link', { name: 'Feedback' }).click()
      await page.getByRole('link', { name: 'Cancel' }).click()
      await expect(page).toHaveURL(/\/dashboard$/)
    })
  })

  for (const javaScriptEnabled of [true, false]) {
    test(`a visitor is asked to sign in first, then comes to the form (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ browser, baseURL, makeUser }) => {
      const account = await makeUser()
      const context = await browser.newContext({ baseURL, javaScriptEnabled })
      const page = await context.newPage()
      await page.goto('/')
      await page.getByRole('link', { name: 'Feedback', exact: true }).click()
      await page.waitForURL(/\/login\?/)
      expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/feedback?returnTo=%2F')

      await page.getByLabel('Email', { exact: true }).fill(account.email)
      await page.getByLabel('Password', { exact: true }).fill(account.password)
      await page.getByRole('button', { name: 'Sign In', exact: true }).click()
      await expect(page.getByRole('heading', { name: 'Send feedback' })).toBeVisible()
      expect(new URL(page.url()).pathname).toBe('/feedback')
      await context.close()
    })
  }
})

test.describe('phone at 360 px', { tag: '@phone-only' }, () => {
  test.use({ viewport: { width: 360, height: 740 } })

  test('the Feedback button clears the bottom bar and the panel fits the screen', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto('/profile')
    const button = page.getByRole('button', { name: 'Feedback', exact: true })
    const bar = page.getByRole('navigation', { name: 'Main' })
    const buttonBox = (await button.boundingBox())!
    const barBox = (await bar.boundingBox())!
    expect(buttonBox.y + buttonBox.height, 'the button is above the bottom bar').toBeLessThanOrEqual(barBox.y)

    await button.tap()
    const panel = page.getByRole('dialog', { name: 'Send feedback' })
    await expect(panel).toBeVisible()
    const box = (await panel.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(360)
    expect(box.y).toBeGreaterThanOrEqual(0)
    await expect(panel.getByRole('button', { name: 'Send Feedback' })).toBeInViewport({ ratio: 1 })
    await expectNoHorizontalScroll(page)
  })
})
