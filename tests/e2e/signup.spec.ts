import { randomUUID } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { authCookies, expect, expectNoHorizontalScroll, test } from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * The sign-up wizard (docs/product.md: Sign-up; States; Rules and messages), with JavaScript
 * on and off: the URL carries the wizard's step, the server re-checks every
 * rule with the same schema the browser uses, and a creator's portfolio is
 * stored and their application waits for an admin.
 *
 * Sign-ups count against Auth's per-IP limit that all e2e tests share
 * (30 per 5 minutes), so only the tests that must reach Auth do.
 */

function unique(label: string) {
  const id = randomUUID().slice(0, 8)
  return { username: `${label}_${id}`, email: `${label}-${id}@lumen.test`, password: 'Sunny-Lesson-42' }
}

/** A small real PNG, made here so no binary fixture is committed. */
function png(width = 12, height = 8): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set([79, 70 + y * 10, 229 - x * 8], y * (width * 3 + 1) + 1 + x * 3)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return (crc ^ 0xffffffff) >>> 0
}

async function fillAccount(page: Page, account: { username: string; email: string; password: string }, confirm = account.password) {
  await page.getByLabel('Username').fill(account.username)
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByLabel('Confirm password').fill(confirm)
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
  expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target).join(', ')})`)).toEqual([])
}

async function expectSignedInOnDashboard(page: Page, baseURL: string, username: string) {
  // The sign-up's navigation, however long the server takes (a portfolio to check and store, the password to hash)
  // under the whole suite's load: bounded by the test's timeout, not an assertion's 5 s.
  await page.waitForURL(/\/dashboard$/)
  // One message, once (docs/product.md, Rules and messages): a learner's page heading or a creator's toast, never both.
  await expect(page.getByText(`Welcome to Lumen, ${username}!`, { exact: true })).toHaveCount(1)
  await expect(page.getByText(/waiting for review/i)).toHaveCount(0)
  expect(await authCookies(page.context(), baseURL)).not.toEqual([])
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/profile$/)
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`sign-up ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('the wizard asks first; YES and NO open their forms, and Back returns to the question', async ({ page }) => {
      await page.goto('/signup')
      await expect(page.getByRole('heading', { name: 'Are you a Content Creator?' })).toBeVisible()
      // axe runs inside the page, so it needs JavaScript; without it the server sends the same markup.
      if (javaScriptEnabled) await expectNoSeriousViolations(page)

      await page.getByRole('link', { name: /^NO/ }).click()
      await expect(page).toHaveURL(/\/signup\?creator=no$/)
      await expect(page.getByLabel('Field of Interest')).toBeVisible()
      await expect(page.getByLabel('Concentration')).toHaveCount(0)
      if (javaScriptEnabled) await expectNoSeriousViolations(page)

      await page.getByRole('link', { name: 'Back', exact: true }).click()
      await expect(page).toHaveURL(/\/signup$/)
      await page.getByRole('link', { name: /^YES/ }).click()
      await expect(page).toHaveURL(/\/signup\?creator=yes$/)
      for (const label of ['Concentration', 'Bio', 'Portfolio type', 'Portfolio file']) {
        await expect(page.getByLabel(label, { exact: true })).toBeVisible()
      }
      await expect(page.getByLabel('Portfolio type').locator('option')).toHaveText(['Demo Video', 'Portfolio Image', 'Document/CV'])
      await expect(page.getByText('Video up to 50MB · Image up to 5MB · Documents: PDF, DOC, DOCX')).toBeVisible()
      await expect(page.getByRole('group', { name: 'Content categories' }).getByRole('checkbox')).toHaveCount(17)
      await expect(page.getByLabel('Earth & Environmental Sciences')).toBeVisible()
      if (javaScriptEnabled) await expectNoSeriousViolations(page)
      await page.getByRole('link', { name: 'Back', exact: true }).click()
      await expect(page.getByRole('heading', { name: 'Are you a Content Creator?' })).toBeVisible()
    })

    test('a learner signs up and lands on the dashboard, signed in', async ({ page, baseURL }) => {
      const account = unique(javaScriptEnabled ? 'learnjs' : 'learnhtml')
      await page.goto('/signup?creator=no')
      await fillAccount(page, account)
      await page.getByLabel('Field of Interest').selectOption('Physics')
      await page.getByRole('button', { name: 'Create Account' }).click()
      await expectSignedInOnDashboard(page, baseURL!, account.username)

      const { data } = await supabaseFor(baseURL!, 'service')
        .from('profiles')
        .select('role,field_of_interest,is_verified')
        .eq('username', account.username)
      expect(data).toEqual([{ role: 'user', field_of_interest: 'Physics', is_verified: false }])
    })

    test('a creator signs up with a portfolio image and categories; their application waits for review', async ({ page, baseURL }) => {
      const account = unique(javaScriptEnabled ? 'makejs' : 'makehtml')
      const image = png()
      await page.goto('/signup?creator=yes')
      await fillAccount(page, account)
      await page.getByLabel('Concentration').selectOption('Data Science')
      await page.getByLabel('Bio', { exact: true }).fill('I explain statistics with cats.')
      if (javaScriptEnabled) {
        // Other types show the file's name and size; images a preview.
        await page.getByLabel('Portfolio type').selectOption('document')
        await page.getByLabel('Portfolio file').setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') })
        await expect(page.getByTestId('portfolio-chosen')).toContainText('cv.pdf')
        await expect(page.getByTestId('portfolio-chosen')).toContainText('15 B')
      }
      await page.getByLabel('Portfolio type').selectOption('image')
      await page.getByLabel('Portfolio file').setInputFiles({ name: 'my work.png', mimeType: 'image/png', buffer: image })
      if (javaScriptEnabled) await expect(page.getByRole('img', { name: 'Preview of your portfolio image' })).toBeVisible()
      await page.getByLabel('Physics').check()
      await page.getByLabel('Media').check()
      await page.getByRole('button', { name: 'Create Account and Apply' }).click()

      // One message at a time: the welcome toast sits below the pending banner, never over it.
      await page.waitForURL(/\/dashboard$/)
      const toast = page.getByRole('status').filter({ has: page.getByTestId('flash-toast') })
      const banner = page.locator('[aria-labelledby="verification-banner-title"]')
      await expect(toast).toBeVisible()
      await expect(banner).toBeVisible()
      const [toastBox, bannerBox] = [(await toast.boundingBox())!, (await banner.boundingBox())!]
      expect(toastBox.y, 'the toast starts below the banner').toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height)
      await expectSignedInOnDashboard(page, baseURL!, account.username)
      // On the profile the card says where the review stands; the banner does not repeat it (docs/product.md, Rules and messages).
      await expect(page.getByTestId('verification-status')).toHaveText('Pending review by an admin.')
      await expect(page.getByRole('heading', { name: 'Your creator account is pending verification' })).toHaveCount(0)

      const service = supabaseFor(baseURL!, 'service')
      const { data: profiles } = await service
        .from('profiles')
        .select('id,role,bio,concentration,is_verified,portfolio_path,portfolio_type')
        .eq('username', account.username)
      const profile = profiles?.[0] as { id: string; portfolio_path: string } | undefined
      expect(profiles).toEqual([
        expect.objectContaining({ role: 'creator', bio: 'I explain statistics with cats.', concentration: 'Data Science', is_verified: false, portfolio_type: 'image' }),
      ])
      expect(profile!.portfolio_path).toMatch(new RegExp(`^${profile!.id}/portfolio-\\d+\\.png$`))
      const { data: applications } = await service
        .from('creator_applications')
        .select('status,portfolio_path,portfolio_type')
        .eq('creator_id', profile!.id)
      expect(applications).toEqual([{ status: 'pending', portfolio_path: profile!.portfolio_path, portfolio_type: 'image' }])
      const { data: categories } = await service.from('creator_categories').select('category_id,status').eq('creator_id', profile!.id)
      expect(categories).toEqual(
        expect.arrayContaining([
          { category_id: 'natural-sciences-physics', status: 'pending' },
          { category_id: 'media', status: 'pending' },
        ]),
      )
      expect(categories).toHaveLength(2)
      const { data: stored } = await service.storage.from('portfolios').download(profile!.portfolio_path)
      expect(Buffer.from(await stored!.arrayBuffer()).equals(image)).toBe(true)
    })

    test('an empty form shows the spec’s messages and sends nothing to Auth', async ({ page }) => {
      await page.goto('/signup?creator=no')
      await page.getByRole('button', { name: 'Create Account' }).click()
      await expect(page.getByText('Username is required')).toBeVisible()
      await expect(page.getByText('Email is required')).toBeVisible()
      await expect(page.getByText('Password is required')).toBeVisible()
      // Without JavaScript the server answers, as the service did (docs/product.md, Rules and messages).
      await expect(page.getByText('Please fill in all required fields')).toHaveCount(javaScriptEnabled ? 0 : 1)
      await expect(page.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true')
      if (javaScriptEnabled) await expectNoSeriousViolations(page)
    })

    test('a creator form with mismatched passwords, no category and no portfolio is refused with the spec’s messages', async ({ page }) => {
      const account = unique('refused')
      const posts: string[] = []
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(request.url())
      })
      await page.goto('/signup?creator=yes')
      await fillAccount(page, account, 'Something-Else-1')
      await page.getByLabel('Bio', { exact: true }).fill('Keep me')
      await page.getByRole('button', { name: 'Create Account and Apply' }).click()

      await expect(page.getByText('Passwords do not match')).toBeVisible()
      await expect(page.getByText('Please select at least one category')).toBeVisible()
      await expect(page.getByText('Please select a portfolio file')).toBeVisible()
      // Everything but the passwords is kept.
      await expect(page.getByLabel('Username')).toHaveValue(account.username)
      await expect(page.getByLabel('Email')).toHaveValue(account.email)
      await expect(page.getByLabel('Bio', { exact: true })).toHaveValue('Keep me')
      if (javaScriptEnabled) {
        expect(posts, 'the browser checked the form itself').toEqual([])
      } else {
        await expect(page.getByLabel('Password', { exact: true })).toHaveValue('')
        await expect(page.getByLabel('Confirm password')).toHaveValue('')
        // The server measured the refused password for the meter, without sending it back.
        await expect(page.getByTestId('password-strength')).toContainText('Password is very strong')
        expect(await page.content()).not.toContain(account.password)
      }
      if (javaScriptEnabled) {
        // Each error goes as soon as its field is fixed: a file, then two categories.
        await page.getByLabel('Portfolio type').selectOption('image')
        await page.getByLabel('Portfolio file').setInputFiles({ name: 'work.png', mimeType: 'image/png', buffer: png() })
        await expect(page.getByText('Please select a portfolio file')).toHaveCount(0)
        await expect(page.getByText('Please select at least one category')).toBeVisible()
        await page.getByLabel('Physics').check()
        await page.getByLabel('Media').check()
        await expect(page.getByText('Please select at least one category')).toHaveCount(0)
        await expect(page.getByText('Passwords do not match')).toBeVisible()
      }
    })

    test('an email that already has an account is refused, with a way to sign in', async ({ page }) => {
      const account = { ...unique('taken'), email: 'learner@lumen.test' }
      await page.goto('/signup?creator=no')
      await fillAccount(page, account)
      await page.getByRole('button', { name: 'Create Account' }).click()
      await expect(page.getByText('An account with this email already exists. Sign in instead?')).toBeVisible()
      await expect(page.getByRole('link', { name: 'Sign in instead' })).toHaveAttribute('href', '/login')
      await expect(page).toHaveURL(/\/signup\?creator=no$/)
      if (javaScriptEnabled) await expectNoSeriousViolations(page)
    })
  })
}

test.describe('sign-up checks only the server can make', () => {
  test.use({ javaScriptEnabled: false })

  test('a taken username is refused instead of being silently changed', async ({ page }) => {
    const account = { ...unique('dupname'), username: 'LEO.learns' }
    await page.goto('/signup?creator=no')
    await fillAccount(page, account)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByText('That username is taken. Please choose another one.')).toBeVisible()
  })

  test('a portfolio is judged by its content, not its name', async ({ page, baseURL }) => {
    const account = unique('fakepng')
    await page.goto('/signup?creator=yes')
    await fillAccount(page, account)
    await page.getByLabel('Portfolio type').selectOption('image')
    await page
      .getByLabel('Portfolio file')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') })
    await page.getByLabel('Physics').check()
    await page.getByRole('button', { name: 'Create Account and Apply' }).click()
    await expect(page.getByText('Please choose a JPEG, PNG, WebP, GIF or AVIF image for a Portfolio Image')).toBeVisible()
    await expect(page.getByText('Please choose your file again.')).toBeVisible()
    await expect(page.getByLabel('Physics')).toBeChecked()
    // No half-made account was left behind.
    const { data } = await supabaseFor(baseURL!, 'service')
      .from('profiles')
      .select('id')
      .eq('username', account.username)
    expect(data).toEqual([])
  })
})

test.describe('sign-up with JavaScript extras', () => {
  test('the strength meter follows the password as it is typed', async ({ page }) => {
    await page.goto('/signup?creator=no')
    const meter = page.getByTestId('password-strength')
    const password = page.getByLabel('Password', { exact: true })
    await password.fill('abc')
    await expect(meter).toHaveText('Password is too short')
    await password.fill('abcdefgh')
    await expect(meter).toHaveText('Password is weak')
    await password.fill('abcdefg1')
    await expect(meter).toHaveText('Password is moderate')
    await password.fill('Abcdefg1')
    await expect(meter).toHaveText('Password is strong')
    await password.fill('Abcdefg1!')
    await expect(meter).toHaveText('Password is very strong')
    await expect(meter).toHaveAttribute('data-score', '5')
  })

  test('a field’s error clears as soon as that field changes; the others stay until the next submit', async ({ page }) => {
    await page.goto('/signup?creator=no')
    await page.getByRole('button', { name: 'Create Account' }).click()
    const password = page.getByLabel('Password', { exact: true })
    await expect(page.getByText('Password is required')).toBeVisible()
    await expect(password).toHaveAttribute('aria-invalid', 'true')

    await password.pressSequentially('Abcdefg1!')
    // ADR 0041: no stale 'Password is required' beside the live strength label.
    await expect(page.getByTestId('password-strength')).toHaveText('Password is very strong')
    await expect(page.getByText('Password is required')).toHaveCount(0)
    await expect(password).not.toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByText('Username is required')).toBeVisible()
    await expect(page.getByText('Email is required')).toBeVisible()

    await page.getByLabel('Email').fill('someone@lumen.test')
    await expect(page.getByText('Email is required')).toHaveCount(0)
    await expect(page.getByText('Username is required')).toBeVisible()
  })

  test('the server’s refusal and its summary go as soon as the field is changed', async ({ page }) => {
    await page.goto('/signup?creator=no')
    await fillAccount(page, { ...unique('dupname-js'), username: 'LEO.learns' })
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByText('That username is taken. Please choose another one.')).toBeVisible()
    await expect(page.getByText('Please check the highlighted field.')).toBeVisible()

    await page.getByLabel('Username').fill('leo.learns.too')
    await expect(page.getByText('That username is taken. Please choose another one.')).toHaveCount(0)
    await expect(page.getByText('Please check the highlighted field.')).toHaveCount(0)
  })
})

test.describe('sign-up on a phone', { tag: '@phone-only' }, () => {
  test('a learner signs up at 360 px without sideways scrolling', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 360, height: 780 })
    await page.goto('/signup')
    await expectNoHorizontalScroll(page)
    await page.getByRole('link', { name: /^NO/ }).click()
    await expectNoHorizontalScroll(page)
    const account = unique('phone')
    await fillAccount(page, account)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expectSignedInOnDashboard(page, baseURL!, account.username)
    await page.goto('/signup?creator=yes')
    // Signed-in visitors are sent to their profile.
    await expect(page).toHaveURL(/\/profile$/)
  })
})
