import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { BrowserContext, Locator } from '@playwright/test'
import { ffmpeg, makeClip } from '../integration/media/clips'
import {
  addSessionCookies,
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  signInForCookies,
  test,
  type Page,
  type TestAccount,
} from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * The admin console (ADR 0018), with JavaScript on and off: a new creator's
 * portfolio opens in a new tab and, once approved, they can open /upload; a
 * reported video removed by the admin is gone for everyone; users are added
 * and deleted with a confirmation step; a learner posting an admin form gets
 * 403 and changes nothing; every tab passes axe.
 *
 * The demo's pending creator (noah.new) is only looked at, never approved:
 * other specs (shell.spec.ts) rely on him staying pending, and the suite
 * shares one database. Approval is proven on fresh creators instead.
 */

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

/**
 * A creator who signed up with a portfolio image, as the sign-up does it: the
 * object in their folder of the private bucket, its path in the sign-up metadata.
 */
async function makeCreatorWithPortfolio(baseURL: string, made: string[]): Promise<TestAccount> {
  const service = supabaseFor(baseURL, 'service')
  const id = randomUUID()
  const suffix = id.slice(0, 8)
  const portfolio = `${id}/portfolio.png`
  const upload = await service.storage.from('portfolios').upload(portfolio, PNG_1X1, { contentType: 'image/png' })
  expect(upload.error).toBeNull()
  const account = {
    id,
    email: `portfolio-${suffix}@lumen.test`,
    password: `Pw-${randomUUID()}`,
    username: `portfolio_${suffix}`,
    role: 'creator' as const,
  }
  const { error } = await service.auth.admin.createUser({
    id,
    email: account.email,
    password: account.password,
    email_confirm: true,
    user_metadata: {
      username: account.username,
      role: 'creator',
      bio: 'I explain optics with kitchen tools.',
      creator_categories: ['technology-innovation'],
      portfolio_path: portfolio,
      portfolio_type: 'image',
    },
  })
  expect(error).toBeNull()
  made.push(id)
  return account
}

async function signedInContext(
  browser: { newContext: (options: object) => Promise<BrowserContext> },
  baseURL: string,
  account: { email: string; password: string },
  javaScriptEnabled: boolean,
) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  await addSessionCookies(context, baseURL, await signInForCookies(baseURL, account.email, account.password))
  return context
}

async function mediaFiles(baseURL: string, videoId: string): Promise<string[]> {
  const { data } = await supabaseFor(baseURL, 'service').storage.from('media').list(`videos/${videoId}`)
  return (data ?? []).map((file) => file.name)
}

/** A confirmation's trigger once hydrated (a dialog button; before that, a plain link or submit of the same name). */
function dialogTrigger(scope: Page | Locator, name: string) {
  return scope.getByRole('button', { name }).and(scope.locator('[aria-haspopup="dialog"]'))
}

function applicationCard(page: Page, username: string) {
  return page.getByRole('article', { name: username })
}

let dir: string
let clip: string
let thumbnail: string

test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-admin-'))
  clip = await makeClip(path.join(dir, 'lesson.mp4'), {
    width: 320,
    height: 180,
    seconds: 2,
    output: ['-movflags', '+faststart'],
  })
  thumbnail = path.join(dir, 'thumbnail.jpg')
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x4f46e5:s=640x360', '-frames:v', '1', thumbnail])
})

test.afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

test.describe('admin console', () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      test.use({ javaScriptEnabled })

      test('an admin opens a new creator’s portfolio and approves them; the creator can then upload', async ({
        page,
        baseURL,
        signedInAs,
        browser,
      }) => {
        const made: string[] = []
        const creator = await makeCreatorWithPortfolio(baseURL!, made)
        await signedInAs('admin')
        await page.goto('/admin')
        await expect(page.getByRole('link', { name: 'Pending Creators' })).toHaveAttribute('aria-current', 'page')
        await expect(applicationCard(page, DEMO_ACCOUNTS.newcreator.username)).toBeVisible()
        const card = applicationCard(page, creator.username)
        await expect(card.getByText(creator.email)).toBeVisible()
        await expect(card.getByText('Technology & Innovation')).toBeVisible()

        const portfolio = card.getByRole('link', { name: /Open Portfolio Image/ })
        await expect(portfolio).toHaveAttribute('target', '_blank')
        const response = await page.request.get((await portfolio.getAttribute('href'))!)
        expect(response.status()).toBe(200)
        expect(response.headers()['content-type']).toBe('image/png')

        await card.getByLabel('Review notes (optional)').fill('Lovely portfolio')
        await card.getByRole('button', { name: `Approve ${creator.username}` }).click()
        await expect(page.getByTestId('flash-toast')).toHaveText('Creator approved. They can upload now.')
        await expect(applicationCard(page, creator.username)).toHaveCount(0)

        const creatorContext = await signedInContext(browser, baseURL!, creator, javaScriptEnabled)
        const creatorPage = await creatorContext.newPage()
        await creatorPage.goto('/upload')
        await expect(creatorPage).toHaveURL(/\/upload$/)
        await expect(creatorPage.getByLabel('Video file')).toBeVisible()
        await creatorContext.close()
        for (const id of made) await supabaseFor(baseURL!, 'service').auth.admin.deleteUser(id)
      })

      test('a learner reports a video; the admin removes it; it is gone for everyone with its files', async ({
        page,
        baseURL,
        signedInAs,
        makeUser,
        browser,
      }) => {
        test.setTimeout(90_000)
        const creator = { email: DEMO_ACCOUNTS.creator.email, password: DEMO_PASSWORD }
        const reporter = await makeUser({ role: 'user', label: 'reporter' })
        const title = `Dubious lesson ${javaScriptEnabled ? 'js' : 'nojs'} ${Date.now()}`

        // The demo creator uploads a short clip (the plain form) and the worker publishes it.
        const creatorContext = await signedInContext(browser, baseURL!, creator, false)
        const creatorPage = await creatorContext.newPage()
        await creatorPage.goto('/upload')
        await creatorPage.getByLabel('Video file').setInputFiles(clip)
        await creatorPage.getByLabel('Thumbnail', { exact: true }).setInputFiles(thumbnail)
        await creatorPage.getByLabel('Title').fill(title)
        await creatorPage.getByLabel('Description').fill('Why the sky is green, supposedly.')
        await creatorPage.getByRole('button', { name: 'Upload Video' }).click()
        // The success page (`?uploaded=<id>`) forwards to the video after 2 s (a refresh tag): on a busy machine
        // the forward may come before this check looks.
        const landed = /\/(?:upload\?uploaded=|video\/)([0-9a-f-]{36})$/
        await expect(creatorPage).toHaveURL(landed, { timeout: 30_000 })
        const videoId = landed.exec(creatorPage.url())![1]!
        await creatorContext.close()
        // Wait for the whole ladder (ADR 0025: the top rung's video.mp4 replaces phase 1's video-<rung>.mp4 last),
        // so that no rendition is still being written when the admin removes the video.
        const ladderDone = async () => {
          const files = await mediaFiles(baseURL!, videoId)
          return files.includes('hls') && files.includes('video.mp4') && !files.some((name) => /^video-\d+p\.mp4$/.test(name))
        }
        await expect.poll(ladderDone, { timeout: 60_000 }).toBe(true)

        // A learner reports it (the report page's plain form).
        const reporterContext = await signedInContext(browser, baseURL!, reporter, javaScriptEnabled)
        const reported = await reporterContext.request.post('/report', {
          form: {
            surface: 'page',
            contentType: 'video',
            contentId: videoId,
            reason: 'spam',
            details: 'Clickbait',
            returnTo: '/feed',
          },
          headers: { Origin: baseURL! },
        })
        expect(reported.ok()).toBe(true)

        await signedInAs('admin')
        await page.goto('/admin/reports')
        const card = page.getByRole('article', { name: title })
        await expect(card.getByText('Clickbait')).toBeVisible()
        await expect(card.getByText(reporter.username, { exact: false })).toBeVisible()
        if (javaScriptEnabled) {
          // An in-place dialog: labelled, Escape closes it and gives the focus back.
          const remove = dialogTrigger(card, 'Remove video…')
          await remove.click()
          const dialog = page.getByRole('dialog', { name: 'Remove this video?' })
          await expect(dialog).toBeVisible()
          await page.keyboard.press('Escape')
          await expect(dialog).toHaveCount(0)
          await expect(remove).toBeFocused()
          await remove.click()
          await dialog.getByRole('button', { name: 'Yes, remove video' }).click()
          await expect(page).toHaveURL(/\/admin\/reports/)
          await expect(page).not.toHaveURL(/confirm=/)
        } else {
          await card.getByRole('link', { name: 'Remove video…' }).click()
          await expect(page).toHaveURL(new RegExp(`confirm=${videoId}`))
          await page.getByRole('button', { name: 'Yes, remove video' }).click()
        }
        await expect(page.getByTestId('flash-toast')).toHaveText('Content removed.')
        await expect(page.getByRole('article', { name: title })).toHaveCount(0)

        expect((await reporterContext.request.get(`/video/${videoId}`)).status()).toBe(404)
        await reporterContext.close()
        expect(await mediaFiles(baseURL!, videoId)).toEqual([])
      })

      test('an admin adds a user (all fields required), then deletes them after confirming', async ({
        page,
        baseURL,
        signedInAs,
      }) => {
        await signedInAs('admin')
        await page.goto('/admin/users')
        const form = page.getByRole('region', { name: 'Add user' })
        await form.getByRole('button', { name: 'Add user' }).click()
        await expect(form.getByText('Please fill in all required fields')).toBeVisible()
        await expect(form.getByText('Username is required')).toBeVisible()
        // Every field filled, one invalid: what is wrong, at that field, and no 'fill in all required fields'.
        await form.getByLabel('Username').fill(`typo_${Date.now().toString(36)}`)
        await form.getByLabel('Email').fill('not-an-email')
        await form.getByLabel('Password').fill('Added-pass-2026')
        await form.getByLabel('Role').selectOption('user')
        await form.getByRole('button', { name: 'Add user' }).click()
        await expect(form.getByText('Please enter a valid email address')).toHaveCount(1)
        await expect(form.getByText('Please fill in all required fields')).toHaveCount(0)

        const suffix = `${javaScriptEnabled ? 'js' : 'nojs'}${Date.now().toString(36)}`
        const username = `added_${suffix}`
        const email = `added-${suffix}@lumen.test`
        await form.getByLabel('Username').fill(username)
        await form.getByLabel('Email').fill(email)
        await form.getByLabel('Password').fill('Added-pass-2026')
        await form.getByLabel('Role').selectOption('creator')
        await form.getByRole('button', { name: 'Add user' }).click()
        await expect(page.getByTestId('flash-toast')).toHaveText('User added. They can sign in now.')
        const signIn = await supabaseFor(baseURL!, 'anon').auth.signInWithPassword({ email, password: 'Added-pass-2026' })
        expect(signIn.error).toBeNull()

        await page.goto(`/admin/users?q=${username}`)
        const row = page.getByRole('article', { name: username })
        await expect(row.getByText('Verified')).toBeVisible()
        await row.getByRole(javaScriptEnabled ? 'button' : 'link', { name: `Delete ${username}` }).click()
        if (javaScriptEnabled) {
          const dialog = page.getByRole('dialog', { name: `Delete ${username}?` })
          await dialog.getByRole('button', { name: `Yes, delete ${username}` }).click()
          // The row is gone with its button: the focus lands on the panel heading, not on the page body.
          await expect(page.locator('#admin-panel-title')).toBeFocused()
        } else {
          await page.getByRole('button', { name: `Yes, delete ${username}` }).click()
        }
        await expect(page.getByTestId('flash-toast')).toHaveText('User deleted.')
        await expect(page.getByRole('article', { name: username })).toHaveCount(0)
        await expect(page.getByRole('region', { name: 'Audit trail' }).getByText(`deleted user ${username}`)).toBeVisible()
      })

      test('an admin rejects an application after confirming, with the notes typed before', async ({
        page,
        baseURL,
        signedInAs,
      }) => {
        const made: string[] = []
        const creator = await makeCreatorWithPortfolio(baseURL!, made)
        await signedInAs('admin')
        await page.goto('/admin')
        const card = applicationCard(page, creator.username)
        await card.getByLabel('Review notes (optional)').fill('Please add a demo video')
        if (javaScriptEnabled) {
          const reject = dialogTrigger(card, `Reject… ${creator.username}`)
          await reject.click()
          const dialog = page.getByRole('dialog', { name: `Reject ${creator.username}?` })
          await expect(dialog).toBeVisible()
          await expect(dialog.getByLabel('Review notes (optional)')).toHaveValue('Please add a demo video')
          await dialog.getByRole('button', { name: 'Cancel' }).first().click()
          await expect(dialog).toHaveCount(0)
          await expect(reject).toBeFocused()
          await reject.click()
          await dialog.getByRole('button', { name: `Yes, reject ${creator.username}` }).click()
        } else {
          await card.getByRole('button', { name: `Reject… ${creator.username}` }).click()
          await expect(page).toHaveURL(/confirm=/)
          const confirm = page.getByRole('status').filter({ hasText: `Reject ${creator.username}?` })
          await expect(confirm.getByLabel('Review notes (optional)')).toHaveValue('Please add a demo video')
          await confirm.getByRole('button', { name: `Yes, reject ${creator.username}` }).click()
        }
        await expect(page.getByTestId('flash-toast')).toHaveText('Application rejected.')
        await expect(applicationCard(page, creator.username)).toHaveCount(0)
        const { data } = await supabaseFor(baseURL!, 'service')
          .from('creator_applications')
          .select('status, review_notes')
          .eq('creator_id', creator.id)
          .single()
        expect(data).toEqual({ status: 'rejected', review_notes: 'Please add a demo video' })
        for (const id of made) await supabaseFor(baseURL!, 'service').auth.admin.deleteUser(id)
      })

      test('a verified creator’s new category requests are approved or rejected one by one', async ({
        page,
        baseURL,
        signedInAs,
      }) => {
        // A creator who asked for two categories (the stand-in takes no table writes: the
        // rows come from the sign-up metadata), then verified by an admin making them a creator.
        const service = supabaseFor(baseURL!, 'service')
        const suffix = randomUUID().slice(0, 8)
        const creator = { username: `widens_${suffix}`, email: `widens-${suffix}@lumen.test` }
        const created = await service.auth.admin.createUser({
          email: creator.email,
          password: `Pw-${randomUUID()}`,
          email_confirm: true,
          user_metadata: { username: creator.username, role: 'creator', creator_categories: ['media', 'health-wellness'] },
        })
        expect(created.error).toBeNull()
        const creatorId = created.data.user!.id
        await signedInAs('admin')
        const verified = await page.request.post('/admin/users', {
          form: { intent: 'change-role', userId: creatorId, role: 'creator' },
          headers: { Origin: baseURL! },
          maxRedirects: 0,
        })
        expect(verified.status()).toBe(302)

        await page.goto('/admin')
        const requests = page.getByRole('article', { name: `Category requests of ${creator.username}` })
        await expect(requests.getByText('Media', { exact: true })).toBeVisible()
        await requests.getByRole('button', { name: `Approve Media for ${creator.username}` }).click()
        await expect(page.getByTestId('flash-toast')).toHaveText('Category approved. The creator can publish in it now.')
        await expect(requests.getByText('Media', { exact: true })).toHaveCount(0)
        await requests.getByRole('button', { name: `Reject Health & Wellness for ${creator.username}` }).click()
        await expect(page.getByTestId('flash-toast')).toHaveText('Category request rejected.')
        await expect(requests).toHaveCount(0)

        const { data } = await service.from('creator_categories').select('category_id, status').eq('creator_id', creatorId)
        expect(data?.sort((x, y) => x.category_id.localeCompare(y.category_id))).toEqual([
          { category_id: 'health-wellness', status: 'rejected' },
          { category_id: 'media', status: 'approved' },
        ])
        await page.goto('/admin/users')
        await expect(page.getByRole('region', { name: 'Audit trail' }).getByText(`${creator.username}: Media`)).toBeVisible()
        await service.auth.admin.deleteUser(creatorId)
      })
    })
  }

  test('the admin’s own row is the Current User and cannot be deleted', async ({ page, signedInAs }) => {
    await signedInAs('admin')
    await page.goto(`/admin/users?q=${DEMO_ACCOUNTS.admin.username}`)
    const row = page.getByRole('article', { name: DEMO_ACCOUNTS.admin.username })
    await expect(row.getByText('Current User')).toBeVisible()
    await expect(row.getByRole('link', { name: /Delete/ })).toHaveCount(0)
  })

  test('a learner gets 403 for the page and for every admin form, and nothing changes', async ({
    page,
    baseURL,
    signedInAs,
    makeUser,
  }) => {
    const target = await makeUser({ role: 'creator', label: 'untouched' })
    await signedInAs('learner')
    const response = await page.goto('/admin')
    expect(response!.status()).toBe(403)
    await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible()
    // Each tab's forms post to that tab's route (Fix Portfolio Issues to the console's layout).
    const posts: [string, Record<string, string>][] = [
      ['/admin?index', { intent: 'review', applicationId: target.id, approved: 'true' }],
      ['/admin?index', { intent: 'review-category', creatorId: target.id, categoryId: 'technology-innovation', approved: 'true' }],
      ['/admin/reports', { intent: 'decide-report', contentType: 'video', contentId: target.id, status: 'removed' }],
      ['/admin/users', { intent: 'add-user', username: 'sneaky', email: 'sneaky@lumen.test', password: 'Sneaky-2026', role: 'admin' }],
      ['/admin/users', { intent: 'delete-user', userId: target.id }],
      ['/admin/users', { intent: 'change-role', userId: target.id, role: 'admin' }],
      ['/admin', { intent: 'fix-portfolios' }],
    ]
    for (const [url, form] of posts) {
      const answer = await page.request.post(url, { form, headers: { Origin: baseURL! }, maxRedirects: 0 })
      expect(answer.status(), form.intent).toBe(403)
    }
    expect((await page.request.get(`/admin/portfolio/${target.id}`, { maxRedirects: 0 })).status()).toBe(403)
    const { data } = await supabaseFor(baseURL!, 'service')
      .from('profiles')
      .select('role, is_verified')
      .eq('id', target.id)
      .single()
    expect(data).toEqual({ role: 'creator', is_verified: false })
  })
})

test.describe('admin console layout', { tag: '@phone' }, () => {
  for (const tab of ['creators', 'reports', 'users', 'feedback'] as const) {
    test(`the ${tab} tab is accessible and fits the screen`, async ({ page, signedInAs }, testInfo) => {
      await signedInAs('admin')
      await page.goto(tab === 'creators' ? '/admin' : `/admin/${tab}`)
      await expect(page.locator('nav[aria-label="Admin sections"] a[aria-current="page"]')).toHaveCount(1)
      await expectNoHorizontalScroll(page)
      await expectAccessible(page)
      if (process.env.ADMIN_SCREENSHOTS) {
        await page.screenshot({
          path: `${process.env.ADMIN_SCREENSHOTS}/admin-${tab}-${testInfo.project.name}.png`,
          fullPage: true,
        })
      }
    })
  }
})
