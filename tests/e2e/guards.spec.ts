import { expect, test, type Page } from './support/fixtures'

/**
 * Routes and guards of docs/product.md, Screens, with JavaScript on and off: every
 * login-required route sends a visitor to /login remembering the way back,
 * the public ones stay open, unknown paths go to /login, and signing in from
 * a guarded redirect lands where the visitor was going. Behaviour, so the
 * desktop project runs it; the phone project runs the layout specs.
 */
const LOGIN_REQUIRED = [
  '/dashboard',
  '/upload',
  '/feed',
  '/sparks',
  '/sparks-reels',
  '/profile',
  '/create-quote?videoId=x',
  '/video/abc',
  '/admin',
]

const PUBLIC = ['/', '/signup', '/login']

function where(page: Page) {
  const url = new URL(page.url())
  return { path: url.pathname, redirectTo: url.searchParams.get('redirectTo'), search: url.search }
}


for (const javaScriptEnabled of [true, false]) {
  test.describe(`guards with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('without a session, every login-required route ends at /login?redirectTo=<that route>', async ({ page }) => {
      for (const path of LOGIN_REQUIRED) {
        await page.goto(path)
        expect(where(page), path).toEqual({ path: '/login', redirectTo: path, search: `?redirectTo=${encodeURIComponent(path)}` })
        await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
      }
    })

    test('/, /signup and /login stay public', async ({ page }) => {
      for (const path of PUBLIC) {
        const response = await page.goto(path)
        expect(response?.status(), path).toBe(200)
        expect(where(page).path, path).toBe(path)
      }
    })

    test('an unknown path goes to /login, for visitors and signed-in users alike', async ({ page, signedInAs }) => {
      await page.goto('/no/such/page')
      expect(where(page)).toEqual({ path: '/login', redirectTo: null, search: '' })
      await signedInAs('learner')
      await page.goto('/no/such/page')
      // /login sends a signed-in user on to their profile.
      expect(where(page).path).toBe('/profile')
    })

    test('signing in from a guarded redirect lands where the visitor was going', async ({ page, makeUser }) => {
      const creator = await makeUser({ role: 'creator' })
      await page.goto('/dashboard')
      expect(where(page).redirectTo).toBe('/dashboard')
      await page.getByLabel('Email', { exact: true }).fill(creator.email)
      await page.getByLabel('Password', { exact: true }).fill(creator.password)
      await page.getByRole('button', { name: 'Sign In', exact: true }).click()
      await expect(page.getByRole('heading', { name: 'Creator Dashboard' })).toBeVisible()
      expect(where(page).path).toBe('/dashboard')
    })

    test('a signed-in user opens the guarded pages that exist', async ({ page, signedInAs }) => {
      await signedInAs('learner')
      await page.goto('/profile')
      expect(where(page).path).toBe('/profile')
      await expect(page.getByText('leo.learns', { exact: true }).last()).toBeVisible()
      await page.goto('/dashboard')
      expect(where(page).path).toBe('/dashboard')
      await expect(page.getByRole('heading', { name: 'Welcome to Lumen, leo.learns!' })).toBeVisible()
    })
  })
}
