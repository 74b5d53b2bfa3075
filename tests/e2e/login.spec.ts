import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { authCookies, expect, expectNoHorizontalScroll, test } from './support/fixtures'

/**
 * The sign-in screen (docs/product.md: Sign-in; States; Rules and messages), with
 * JavaScript on and off: sign-in, the wrong-password message, the in-place
 * reset form, and 'Check if account exists'. Accounts come from the admin
 * API (`makeUser`); only the sign-ins under test are typed.
 */

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
  expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([])
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`sign-in ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('a registered user signs in and lands on their profile', async ({ page, baseURL, makeUser }) => {
      const user = await makeUser({ label: javaScriptEnabled ? 'signinjs' : 'signinhtml' })
      await page.goto('/login')
      await expect(page.getByText(/reels for learning/i)).toBeVisible()
      await signIn(page, user.email, user.password)
      await expect(page).toHaveURL(/\/profile$/)
      expect(await authCookies(page.context(), baseURL!)).not.toEqual([])
      // Signed in, the sign-in and sign-up screens send the visitor on.
      await page.goto('/login')
      await expect(page).toHaveURL(/\/profile$/)
      await page.goto('/signup')
      await expect(page).toHaveURL(/\/profile$/)
    })

    test('a wrong password shows the spec’s message and keeps the email', async ({ page, baseURL, makeUser }) => {
      const user = await makeUser({ label: 'wrongpw' })
      await page.goto('/login')
      await signIn(page, user.email, 'not-the-password')
      await expect(page.getByRole('alert').filter({ hasText: 'Failed to login. Please check your credentials.' })).toBeVisible()
      await expect(page).toHaveURL(/\/login$/)
      await expect(page.getByLabel('Email')).toHaveValue(user.email)
      await expect(page.getByLabel('Password')).toHaveValue(javaScriptEnabled ? 'not-the-password' : '')
      expect(await authCookies(page.context(), baseURL!)).toEqual([])
      if (javaScriptEnabled) await expectNoSeriousViolations(page)
    })

    test('an empty sign-in form says what is missing', async ({ page }) => {
      await page.goto('/login')
      await page.getByRole('button', { name: 'Sign In' }).click()
      await expect(page.getByText('Email is required')).toBeVisible()
      await expect(page.getByText('Password is required')).toBeVisible()
    })

    test('after signing in the visitor returns where they were going, on this site only', async ({ page, makeUser }) => {
      const user = await makeUser({ label: 'goback' })
      await page.goto('/login?redirectTo=%2F%2Fevil.example%2Fphish')
      await signIn(page, user.email, user.password)
      await expect(page).toHaveURL(/\/profile$/)
      await page.context().clearCookies()
      await page.goto('/login?redirectTo=%2Fdashboard')
      await signIn(page, user.email, user.password)
      await expect(page).toHaveURL(/\/dashboard$/)
    })

    test('Forgot Password? opens the reset form in place; it asks for an email, and Cancel goes back', async ({ page }) => {
      await page.goto('/login')
      if (javaScriptEnabled) await expectNoSeriousViolations(page)
      await page.getByRole('link', { name: 'Forgot Password?' }).click()
      await expect(page).toHaveURL(/\/login\?mode=reset$/)
      await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
      await page.getByRole('button', { name: 'Send Reset Link' }).click()
      await expect(page.getByText('Please enter your email address')).toBeVisible()
      if (javaScriptEnabled) await expectNoSeriousViolations(page)
      await page.getByRole('link', { name: 'Cancel' }).click()
      await expect(page).toHaveURL(/\/login$/)
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    })

    test('Check if account exists answers for unknown and registered emails', async ({ page, makeUser }) => {
      const user = await makeUser({ label: 'exists' })
      await page.goto('/login')
      await page.getByLabel('Email').fill(`nobody-${Date.now()}@lumen.test`)
      await page.getByRole('button', { name: 'Check if account exists' }).click()
      await expect(page.getByText('This email is not registered. Please sign up first.')).toBeVisible()
      await expect(page.getByRole('link', { name: 'Sign up', exact: true })).toHaveAttribute('href', '/signup')

      await page.getByLabel('Email').fill(user.email.toUpperCase())
      await page.getByRole('button', { name: 'Check if account exists' }).click()
      await expect(page.getByText('Good news: this email has a Lumen account. Sign in with your password.')).toBeVisible()
      await expect(page.getByText('This email is not registered. Please sign up first.')).toHaveCount(0)
    })

    test('Need an account? leads to sign-up', async ({ page }) => {
      await page.goto('/login')
      await page.getByRole('link', { name: /Need an account\?/ }).click()
      await expect(page).toHaveURL(/\/signup$/)
    })
  })
}

test.describe('sign-in on a phone', { tag: '@phone-only' }, () => {
  test('signs in at 360 px without sideways scrolling', async ({ page, makeUser }) => {
    await page.setViewportSize({ width: 360, height: 780 })
    const user = await makeUser({ label: 'phonesignin' })
    await page.goto('/login')
    await expectNoHorizontalScroll(page)
    await page.getByRole('link', { name: 'Forgot Password?' }).click()
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
    await expectNoHorizontalScroll(page)
    await page.getByRole('link', { name: 'Cancel' }).click()
    // Until Cancel has swapped the forms, "Email" is the reset form's field: typing there would be lost.
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    await signIn(page, user.email, user.password)
    await expect(page).toHaveURL(/\/profile$/)
  })
})
