import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { ffmpeg, makeClip } from '../integration/media/clips'
import {
  addSessionCookies,
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  signInForCookies,
  test,
  type TestAccount,
} from './support/fixtures'

/**
 * Notifications in the browser, with JavaScript on and off: a learner follows a
 * creator, the creator's new video becomes ready, the learner's bell counts it,
 * the page links to the video, and "Mark all as read" clears the count. Which
 * events fire, once each, is checked in tests/integration/notifications.test.ts.
 */
let dir: string
let media: { video: Buffer; thumbnail: Buffer }

test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-notifications-'))
  const video = await makeClip(path.join(dir, 'clip.mp4'), {
    width: 160,
    height: 90,
    seconds: 1,
    output: ['-movflags', '+faststart'],
  })
  const thumbnail = path.join(dir, 'thumb.jpg')
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x4f46e5:s=160x90', '-frames:v', '1', thumbnail])
  media = { video: await readFile(video), thumbnail: await readFile(thumbnail) }
})

test.afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** A new creator of the test's own (no other test's uploads reach their followers), approved by the demo admin. */
async function approve(request: APIRequestContext, creator: TestAccount) {
  const login = await request.post('/api/auth/login', { data: { email: DEMO_ACCOUNTS.admin.email, password: DEMO_PASSWORD } })
  const { token } = (await login.json()) as { token: string }
  const headers = { Authorization: `Bearer ${token}` }
  const list = (await (await request.get('/api/admin/creator-applications', { headers })).json()) as {
    _id: string
    user: { _id: string }
  }[]
  const application = list.find((entry) => entry.user._id === creator.id)
  expect(application, 'the new creator’s application').toBeDefined()
  const review = await request.put(`/api/admin/creator-applications/${application!._id}`, { headers, data: { approved: true } })
  expect(review.status()).toBe(200)
}

test.describe('notifications', () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      test.use({ javaScriptEnabled })

      test('a followed creator’s new video rings the learner’s bell once, mark-all-read clears it, and the learner’s quote rings the creator’s bell once', async ({
        page,
        baseURL,
        browser,
        request,
        makeUser,
        signedInAs,
      }) => {
        test.setTimeout(180_000)
        const creator = await makeUser({ role: 'creator' })
        const learner = await makeUser()
        await signedInAs(learner)

        await page.goto(`/creator/${creator.id}`)
        await expect(page.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible()
        await page.getByRole('button', { name: `Follow ${creator.username}` }).click()
        await expect(page.getByRole('button', { name: `Unfollow ${creator.username}` })).toBeVisible()

        // The creator uploads a lesson; the server's media worker makes it ready.
        await approve(request, creator)
        const uploader = await browser.newContext({ baseURL })
        await addSessionCookies(uploader, baseURL!, await signInForCookies(baseURL!, creator.email, creator.password))
        const upload = await uploader.request.post('/upload', {
          multipart: {
            title: 'Notifications in one lesson',
            description: 'A short lesson.',
            type: 'video',
            category: 'other',
            visibility: 'public',
            video: { name: 'lesson.mp4', mimeType: 'video/mp4', buffer: media.video },
            thumbnail: { name: 'thumb.jpg', mimeType: 'image/jpeg', buffer: media.thumbnail },
          },
          maxRedirects: 0,
          timeout: 60_000,
        })
        expect(upload.status()).toBe(302)
        const videoId = new URL(upload.headers().location!, 'http://x').searchParams.get('uploaded')
        await uploader.close()

        // Once it is ready (the worker takes a few seconds).
        await page.goto('/creators')
        const bell = page.getByRole('link', { name: 'Notifications, 1 unread' })
        await expect(async () => {
          await page.reload()
          await expect(bell).toBeVisible({ timeout: 1_000 })
        }).toPass({ timeout: 120_000 })
        await bell.click()
        await expect(page).toHaveURL(/\/notifications$/)
        await expect(page.getByRole('heading', { name: 'Today' })).toBeVisible()
        const item = page.getByRole('link', { name: `${creator.username} published a new video: “Notifications in one lesson”` })
        await expect(item).toHaveAttribute('href', `/video/${videoId}`)
        // axe runs as a script in the page: with JavaScript on only.
        if (javaScriptEnabled) await expectAccessible(page)

        await page.getByRole('button', { name: 'Mark all as read' }).click()
        await expect(page.getByText('You’re all caught up.')).toBeVisible()
        await expect(page.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible()
        await expect(page.getByTestId('unread-badge')).toHaveCount(0)

        // The learner quotes the lesson: its creator's bell (the loader's count, so also without
        // JavaScript) counts it once, and the page lists it once.
        const studio = await browser.newContext({ baseURL, javaScriptEnabled })
        await addSessionCookies(studio, baseURL!, await signInForCookies(baseURL!, creator.email, creator.password))
        const creatorPage = await studio.newPage()
        const unread = async () => {
          await creatorPage.goto('/creators')
          await expect(creatorPage.getByRole('link', { name: /^Notifications/ }).first()).toBeVisible()
          const badge = creatorPage.getByTestId('unread-badge').first()
          return (await badge.count()) ? Number(await badge.textContent()) : 0
        }
        const before = await unread()
        await page.goto(`/create-quote?videoId=${videoId}`)
        await page.getByLabel('Quote text').fill('The clearest minute on notifications.')
        await page.getByRole('button', { name: 'Submit Quote' }).click()
        await expect(page).toHaveURL(new RegExp(`/video/${videoId}`))
        expect(await unread()).toBe(before + 1)
        await creatorPage.goto('/notifications')
        await expect(creatorPage.getByRole('link', { name: new RegExp(`^${learner.username} quoted your video`) })).toHaveCount(1)
        await studio.close()
      })
    })
  }
})
