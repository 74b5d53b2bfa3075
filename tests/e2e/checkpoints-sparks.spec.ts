import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { ffmpeg, makeClip } from '../integration/media/clips'
import {
  addSessionCookies,
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  signInForCookies,
  test,
} from './support/fixtures'

/**
 * A spark ends with one question (ADR 0049), on a phone and a desktop. The demo creator
 * uploads a 3-second portrait spark once (beforeAll); each test gives it a fresh question
 * (deleting the old one takes its answers), so the tests can run again.
 *
 * With JavaScript: in the reel viewer the clip stops looping and, when it ends, the question
 * opens over it (focus on its heading; axe finds nothing serious); a wrong answer shows the
 * explanation and Try again, a right one Right! and Watch again, which gives focus back and
 * lets the clip loop. The explanation is in neither the reel page's HTML nor its data before
 * answering. The creator's dashboard Engagement tab then shows 0% right on the first try.
 * Without JavaScript: the clip's link leads to the spark's Check yourself form, which answers
 * it; the Engagement tab shows 100%.
 */
const QUESTION = 'Which shape was the test pattern?'
const OPTIONS = ['A circle', 'Bars and gradients', 'A triangle']
const EXPLANATION = 'The test source draws colour bars and gradients.'
let sparkId = ''

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(180_000)
  const dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-spark-question-'))
  const creator = await browser.newContext({ baseURL })
  try {
    await addSessionCookies(creator, baseURL!, await signInForCookies(baseURL!, DEMO_ACCOUNTS.creator.email, DEMO_PASSWORD))
    const video = await makeClip(path.join(dir, 'tall.mp4'), {
      width: 180,
      height: 320,
      seconds: 3,
      output: ['-movflags', '+faststart'],
    })
    const thumbnail = path.join(dir, 'tall.jpg')
    await ffmpeg(['-f', 'lavfi', '-i', 'smptehdbars=s=180x320', '-frames:v', '1', thumbnail])
    const response = await creator.request.post('/upload', {
      multipart: {
        title: 'Spark with a question at its end',
        description: 'A short test pattern.',
        type: 'spark',
        category: 'other',
        visibility: 'public',
        video: { name: 'tall.mp4', mimeType: 'video/mp4', buffer: await readFile(video) },
        thumbnail: { name: 'tall.jpg', mimeType: 'image/jpeg', buffer: await readFile(thumbnail) },
      },
      maxRedirects: 0,
      timeout: 60_000,
    })
    expect(response.status()).toBe(302)
    sparkId = new URL(response.headers().location!, 'http://x').searchParams.get('uploaded') ?? ''
    await expect
      .poll(async () => (await (await creator.request.get(`/video/${sparkId}`)).text()).includes('data-engine='), {
        timeout: 170_000,
        intervals: [1000, 2000, 3000],
      })
      .toBe(true)
  } finally {
    await creator.close()
    await rm(dir, { recursive: true, force: true })
  }
})

/** As the creator, on the spark's checkpoints page: deletes any question, then adds the test's (required). */
async function freshQuestion(page: Page) {
  await page.goto(`/video/${sparkId}/checkpoints`)
  const deletes = page.getByRole('list').getByRole('button', { name: /^Delete/ })
  while ((await deletes.count()) > 0) {
    const before = await deletes.count()
    await deletes.first().click()
    await expect(deletes).toHaveCount(before - 1)
  }
  await expect(page.getByText('No checkpoints yet')).toBeVisible()
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add checkpoint' }) })
  await expect(form.getByLabel('Moment')).toHaveCount(0)
  await form.getByLabel('Question').fill(QUESTION)
  for (const [index, option] of OPTIONS.entries()) await form.getByLabel(`Option ${index + 1}`, { exact: true }).fill(option)
  await form.getByLabel('Correct (option 2)').check()
  await form.getByLabel('Explanation (optional)').fill(EXPLANATION)
  await form.getByLabel(/^Required/).check()
  await form.getByRole('button', { name: 'Add checkpoint' }).click()
  await expect(page.getByTestId('checkpoint-list')).toContainText(QUESTION)
  // One question per spark: the form is gone.
  await expect(page.getByRole('button', { name: 'Add checkpoint' })).toHaveCount(0)
}

async function firstTryRate(page: Page) {
  await page.goto('/dashboard?tab=engagement')
  const table = page.getByTestId('engagement-checkpoints')
  const group = table.locator(`tbody[data-video="${sparkId}"]`)
  await expect(group.getByRole('link', { name: 'Spark with a question at its end' })).toBeVisible()
  return group.getByRole('row').filter({ hasText: QUESTION }).getByTestId('first-try-rate')
}

test.describe('with JavaScript', () => {
  test('at the clip’s end the question opens over it; wrong, then right; the Engagement tab shows 0% first try', { tag: '@phone' }, async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    test.setTimeout(120_000)
    await signedInAs('creator')
    await freshQuestion(page)

    await page.context().clearCookies()
    await signedInAs(await makeUser())
    // The page's data and HTML have the question, never the key.
    // (Single fetch: the route's data is at `.data`.)
    const data = await page.request.get(`/sparks-reels.data?start=${sparkId}`)
    expect(data.ok()).toBe(true)
    const text = await data.text()
    expect(text).toContain(QUESTION)
    expect(text).not.toContain(EXPLANATION)
    expect(text).not.toMatch(/"correct"|"explanation"/)
    const html = await page.request.get(`/sparks-reels?start=${sparkId}`)
    const markup = await html.text()
    expect(markup).toContain(QUESTION)
    expect(markup).not.toContain(EXPLANATION)

    await page.goto(`/sparks-reels?start=${sparkId}`)
    const clip = page.locator(`section#reel-${sparkId}`)
    await expect(clip).toHaveAttribute('aria-current', 'true')
    const video = clip.locator('video')
    // Waiting for its end: the clip does not loop.
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.loop), { timeout: 15_000 }).toBe(false)
    const dialog = clip.getByRole('dialog', { name: 'Question' })
    await expect(dialog).toBeVisible({ timeout: 30_000 })
    await expect(dialog.getByRole('heading', { name: 'Question' })).toBeFocused()
    expect(await video.evaluate((element: HTMLVideoElement) => element.ended || element.paused)).toBe(true)
    // Over the lower part of the clip.
    const [panel, frame] = [(await dialog.boundingBox())!, (await video.boundingBox())!]
    expect(panel.y + panel.height).toBeLessThanOrEqual(frame.y + frame.height + 1)
    expect(panel.y).toBeGreaterThan(frame.y)
    await expect(dialog.getByRole('button', { name: 'Skip' })).toHaveCount(0)
    await expectAccessible(page)

    await dialog.getByRole('radio', { name: 'A circle' }).check()
    await dialog.getByRole('button', { name: 'Check answer' }).click()
    await expect(dialog.getByRole('status')).toHaveText('Not quite.')
    await expect(dialog.getByText(EXPLANATION)).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Try again' })).toBeFocused()
    await dialog.getByRole('button', { name: 'Try again' }).click()
    await dialog.getByRole('radio', { name: 'Bars and gradients' }).check()
    await dialog.getByRole('button', { name: 'Check answer' }).click()
    await expect(dialog.getByRole('status')).toHaveText('Right!')
    // The way on takes the focus: Next spark, or Watch again when the feed (other specs' sparks
    // ranked around this one) has nothing after it.
    const [at, of] = ((await clip.getAttribute('aria-label'))?.match(/^Spark (\d+) of (\d+)/) ?? []).slice(1).map(Number)
    expect(at, 'the clip’s position in the feed').toBeGreaterThan(0)
    await expect(dialog.getByRole('button', { name: at! < of! ? 'Next spark' : 'Watch again' })).toBeFocused()
    await expectAccessible(page)
    await dialog.getByRole('button', { name: 'Watch again' }).click()
    await expect(dialog).toHaveCount(0)
    // Answered right: the clip plays and loops again.
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.loop)).toBe(true)
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => !element.paused)).toBe(true)

    await page.context().clearCookies()
    await signedInAs('creator')
    await expect(await firstTryRate(page)).toHaveText('0%')
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the clip links to the spark’s Check yourself form, which answers it; the Engagement tab shows 100%', async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    test.setTimeout(120_000)
    await signedInAs('creator')
    await freshQuestion(page)

    await page.context().clearCookies()
    await signedInAs(await makeUser())
    await page.goto(`/sparks-reels?start=${sparkId}#reel-${sparkId}`)
    expect(await page.content()).not.toContain(EXPLANATION)
    const clip = page.locator(`section#reel-${sparkId}`)
    await clip.getByRole('link', { name: 'Answer this spark’s question' }).click()
    await expect(page).toHaveURL(new RegExp(`/video/${sparkId}#check-yourself$`))
    const check = page.getByRole('region', { name: 'Check yourself' })
    await check.getByRole('radio', { name: 'Bars and gradients' }).check()
    await check.getByRole('button', { name: 'Check answers' }).click()
    await expect(check.getByTestId('checkpoint-result')).toContainText('Right')
    await expect(check.getByTestId('checkpoint-result')).toContainText(EXPLANATION)

    await page.context().clearCookies()
    await signedInAs('creator')
    await expect(await firstTryRate(page)).toHaveText('100%')
  })
})
