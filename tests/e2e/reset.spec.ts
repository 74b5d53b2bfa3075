import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { mailboxKey } from './support/stand-in'

/**
 * A password reset through the stand-in's mailbox, end to end, with
 * JavaScript on and off: request the link on the sign-in screen, read the
 * email, follow its link (/auth/confirm signs the visitor in), set a new
 * password, and sign in with it — the old one no longer works.
 */

interface MailMessage {
  to: string
  subject: string
  text: string
}

/** The reset link of the newest email to `email` (the stand-in's developer mailbox). */
async function resetLink(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined
  // The email may arrive after the form's answer: on a busy machine later than expect's default 5 s.
  await expect
    .poll(async () => {
      const response = await request.get(`/mailbox/api/messages?to=${encodeURIComponent(email)}`, {
        headers: { 'X-Mailbox-Key': mailboxKey() },
      })
      const { messages } = (await response.json()) as { messages: MailMessage[] }
      link = messages[0]?.text.match(/https?:\/\/\S+\/auth\/confirm\?\S+/)?.[0]
      return link
    }, { timeout: 20_000 })
    .toBeTruthy()
  return link!
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`password reset ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('the emailed link lets the user set a new password, and only the new one works', async ({ page, browser, request, makeUser }) => {
      const user = await makeUser({ label: javaScriptEnabled ? 'resetjs' : 'resethtml' })
      const newPassword = 'Brand-New-Secret-7'

      await page.goto('/login')
      await page.getByRole('link', { name: 'Forgot Password?' }).click()
      // Wait for the reset form: filling earlier could type into the outgoing sign-in form's Email.
      await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
      await page.getByLabel('Email').fill(user.email)
      await page.getByRole('button', { name: 'Send Reset Link' }).click()
      await expect(page.getByText('Password reset instructions have been sent to your email')).toBeVisible()
      if (javaScriptEnabled) {
        // Back to the sign-in form on its own, 3 s later (docs/product.md, States).
        await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 5000 })
        await expect(page).toHaveURL(/\/login$/)
      } else {
        await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
      }

      const link = await resetLink(request, user.email)
      expect(new URL(link).searchParams.get('type')).toBe('recovery')
      await page.goto(link)
      await expect(page).toHaveURL(/\/reset-password$/)
      await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible()
      await expect(page.getByText(user.email)).toBeVisible()
      if (javaScriptEnabled) {
        const results = await new AxeBuilder({ page }).analyze()
        expect(results.violations.filter((v) => ['serious', 'critical'].includes(v.impact ?? '')).map((v) => v.id)).toEqual([])
      }

      await page.getByLabel('New password', { exact: true }).fill(newPassword)
      await page.getByLabel('Confirm new password').fill('Brand-New-Secret-8')
      await page.getByRole('button', { name: 'Update Password' }).click()
      await expect(page.getByText('Passwords do not match')).toBeVisible()
      await expect(page.getByTestId('password-strength')).toContainText('Password is very strong')

      await page.getByLabel('New password', { exact: true }).fill(newPassword)
      await page.getByLabel('Confirm new password').fill(newPassword)
      await page.getByRole('button', { name: 'Update Password' }).click()
      await expect(page).toHaveURL(/\/profile$/)
      await expect(page.getByTestId('flash-toast')).toContainText('Your password has been updated.')

      // The link was spent: opening it again explains what happened.
      const other = await browser.newContext({ javaScriptEnabled })
      const fresh = await other.newPage()
      await fresh.goto(link)
      await expect(fresh).toHaveURL(/\/login\?mode=reset&error=link-expired$/)
      await expect(fresh.getByText('This password reset link is invalid or has expired. Please request a new one.')).toBeVisible()

      await fresh.goto('/login')
      await signIn(fresh, user.email, user.password)
      await expect(fresh.getByText('Failed to login. Please check your credentials.')).toBeVisible()
      await signIn(fresh, user.email, newPassword)
      await expect(fresh).toHaveURL(/\/profile$/)
      await other.close()
    })
  })
}

test.describe('the new-password page', () => {
  test('without a reset session it sends the visitor to request a link', async ({ page }) => {
    await page.goto('/reset-password')
    await expect(page).toHaveURL(/\/login\?mode=reset&error=no-session$/)
    await expect(page.getByText('To set a new password, open the link in your reset email.')).toBeVisible()
  })

  test('a made-up link is refused with a clear message', async ({ page }) => {
    await page.goto('/auth/confirm?token_hash=pkce_0000&type=recovery&next=/reset-password')
    await expect(page).toHaveURL(/\/login\?mode=reset&error=link-expired$/)
    await expect(page.getByText('This password reset link is invalid or has expired. Please request a new one.')).toBeVisible()
  })
})
