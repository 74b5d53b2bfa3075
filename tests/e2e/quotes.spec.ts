import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { APIRequestContext, Browser } from '@playwright/test'
import { QUOTE_MESSAGES } from '../../app/lib/schemas/quote'
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
} from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * Quotes (ADR 0014): a learner quotes a video with text and with a video
 * response, without JavaScript (plain multipart posts) and with it (tus);
 * the response shows "processing" to its author until the in-process media
 * worker made it ready, then plays (hls.js with JavaScript); wrong and
 * over-limit files get the spec's messages and leave nothing in Storage;
 * quotes are liked and deleted from My Quotes; the side-by-side view.
 */

const MB = 1024 * 1024
let dir: string
const files = {} as Record<'clip' | 'notes' | 'huge', string>
let original: { id: string; title: string }

async function uploadAsCreator(browser: Browser, baseURL: string, title: string): Promise<string> {
  const context = await browser.newContext({ baseURL })
  await addSessionCookies(context, baseURL, await signInForCookies(baseURL, DEMO_ACCOUNTS.creator.email, DEMO_PASSWORD))
  const thumbnail = path.join(dir, 'thumb.jpg')
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x4f46e5:s=320x180', '-frames:v', '1', thumbnail])
  const response = await context.request.post('/upload', {
    multipart: {
      title,
      description: 'What a prism does to white light.',
      type: 'video',
      category: 'other',
      visibility: 'public',
      video: { name: 'lesson.mp4', mimeType: 'video/mp4', buffer: await readFile(files.clip) },
      thumbnail: { name: 'thumb.jpg', mimeType: 'image/jpeg', buffer: await readFile(thumbnail) },
    },
    maxRedirects: 0,
    timeout: 60_000,
  })
  expect(response.status()).toBe(302)
  const id = new URL(response.headers().location!, 'http://x').searchParams.get('uploaded')!
  await waitFor(context.request, `/video/${id}`, (html) => html.includes('data-engine='))
  await context.close()
  return id
}

/** Polls a page as the given request context until `ready(html)` (the media worker takes a few seconds). */
async function waitFor(request: APIRequestContext, url: string, ready: (html: string) => boolean) {
  await expect
    .poll(async () => ready(await (await request.get(url)).text()), { timeout: 300_000, intervals: [1000, 2000, 3000] })
    .toBe(true)
}

async function responseObjects(baseURL: string, userId: string): Promise<string[]> {
  const { data, error } = await supabaseFor(baseURL, 'service').storage.from('uploads').list(`${userId}/quotes`)
  if (error) throw error
  return (data ?? []).map((object) => object.name)
}

function quoteItem(page: Page, text: string) {
  return page.locator('#quotes li').filter({ hasText: text })
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(360_000)
  dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-quotes-'))
  files.clip = await makeClip(path.join(dir, 'answer.mp4'), {
    width: 320,
    height: 180,
    seconds: 3,
    output: ['-movflags', '+faststart'],
  })
  files.notes = path.join(dir, 'notes.mp4')
  await writeFile(files.notes, 'These are my notes, not a video.\n'.repeat(200))
  files.huge = path.join(dir, 'huge.mp4')
  const handle = await open(files.huge, 'w')
  await handle.write(await readFile(files.clip), 0, undefined, 0)
  await handle.truncate(100 * MB + 1)
  await handle.close()
  const title = `Prisms and rainbows ${Date.now()}`
  original = { id: await uploadAsCreator(browser, baseURL!, title), title }
})

test.afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a learner quotes with text and a video response; refusals leave nothing; My Quotes deletes', async ({
    page,
    makeUser,
    signedInAs,
    baseURL,
  }) => {
    test.setTimeout(360_000)
    const learner = await makeUser()
    await signedInAs(learner)

    await page.goto('/create-quote')
    await expect(page.getByText(QUOTE_MESSAGES.noVideo)).toBeVisible()
    await page
      .getByRole('link', { name: new RegExp(original.title) })
      .first()
      .click()
    await expect(page).toHaveURL(new RegExp(`/create-quote\\?videoId=${original.id}`))
    await expect(page.getByRole('heading', { name: original.title })).toBeVisible()

    // Text Comment without text.
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page.getByText(QUOTE_MESSAGES.textRequired)).toBeVisible()

    // A text quote with a moment.
    const words = `Dispersion explained well ${Date.now()}`
    await page.getByLabel('Quote text').fill(words)
    await page.getByLabel(/^Moment in the original/).fill('1')
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page).toHaveURL(new RegExp(`/video/${original.id}`))
    await expect(quoteItem(page, words)).toBeVisible()
    await expect(quoteItem(page, words).getByRole('link', { name: 'View Original at 0:01' })).toHaveAttribute(
      'href',
      `/video/${original.id}?t=1`,
    )

    // A file that is not a video: the spec's message, nothing stored.
    await page.goto(`/create-quote?videoId=${original.id}`)
    await page.getByLabel(/Video Response/).check()
    await page.getByLabel('Video file').setInputFiles(files.notes)
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page.getByText(/^Please select a valid video file/)).toBeVisible()
    expect(await responseObjects(baseURL!, learner.id)).toEqual([])

    // Video Response without a file.
    await page.getByLabel(/Video Response/).check()
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page.getByText(QUOTE_MESSAGES.videoRequired)).toBeVisible()

    // A real video response: processing for its author, then it plays.
    const answer = `My answer on film ${Date.now()}`
    await page.getByLabel(/Video Response/).check()
    await page.getByLabel('Quote text').fill(answer)
    await page.getByLabel('Video file').setInputFiles(files.clip)
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page).toHaveURL(new RegExp(`/video/${original.id}`))
    await expect(quoteItem(page, answer).getByTestId('quote-processing')).toBeVisible()
    expect(await responseObjects(baseURL!, learner.id)).toHaveLength(1)
    await waitFor(page.request, `/video/${original.id}`, (html) => !html.includes('Processing — your video response'))
    await page.reload()
    await expect(quoteItem(page, answer).locator('video source[type="video/mp4"]')).toHaveAttribute('src', /^\/media\/quotes\//)

    // My Quotes: both, then delete the response with the confirmation step.
    await page.goto('/profile?tab=quotes')
    const mine = page.getByTestId('my-quote')
    await expect(mine).toHaveCount(2)
    const item = mine.filter({ hasText: answer })
    await item.getByText('Delete', { exact: true }).click()
    await item.getByRole('button', { name: 'Delete quote' }).click()
    await expect(page.getByText('Quote deleted successfully')).toBeVisible()
    await expect(page.getByTestId('my-quote')).toHaveCount(1)
    expect(await responseObjects(baseURL!, learner.id)).toEqual([])
  })
})

test.describe('with JavaScript', () => {
  test('a video response goes up with tus, plays through hls.js, and opens side by side', async ({
    page,
    makeUser,
    signedInAs,
    baseURL,
  }) => {
    test.setTimeout(360_000)
    const learner = await makeUser()
    await signedInAs(learner)
    await page.goto(`/create-quote?videoId=${original.id}`)
    await expect(page.locator('form[novalidate]')).toHaveCount(1)
    await expectAccessible(page)

    // Checked in the browser first: an over-limit file and a missing text get the spec's messages.
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page.getByText(QUOTE_MESSAGES.textRequired)).toBeVisible()
    await page.getByLabel(/Video Response/).check()
    await page.getByLabel('Video file').setInputFiles(files.huge)
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page.getByText(QUOTE_MESSAGES.videoTooLarge)).toBeVisible()
    expect(await responseObjects(baseURL!, learner.id)).toEqual([])

    const answer = `Resumable answer ${Date.now()}`
    await page.getByLabel('Quote text').fill(answer)
    await page.getByLabel('Video file').setInputFiles(files.clip)
    const tus = page.waitForRequest((request) => request.url().includes('/storage/v1/upload/resumable'))
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await tus
    await expect(page).toHaveURL(new RegExp(`/video/${original.id}`), { timeout: 30_000 })
    await expect(quoteItem(page, answer).getByTestId('quote-processing')).toBeVisible()
    await waitFor(page.request, `/video/${original.id}`, (html) => !html.includes('Processing — your video response'))
    await page.reload()
    const player = quoteItem(page, answer).locator('video')
    await expect(player).toHaveAttribute('data-engine', 'hls.js')
    await expectAccessible(page)

    // Another learner likes it (optimistic), then opens it side by side.
    await signedInAs('learner')
    await page.goto(`/video/${original.id}`)
    const like = quoteItem(page, answer).getByTestId('quote-like-button')
    await expect(like).toHaveAttribute('aria-pressed', 'false')
    await like.click()
    await expect(like).toHaveAttribute('aria-pressed', 'true')
    await expect(like).toContainText('1')
    await quoteItem(page, answer).getByRole('link', { name: 'Side by side' }).click()
    await expect(page.getByRole('heading', { name: 'Side by side', exact: true })).toBeVisible()
    await expect(page.locator('video')).toHaveCount(2)
    await page.getByTestId('sync-toggle').click()
    await expect(page.getByTestId('sync-toggle')).toHaveText('Pause both')
    await expect
      .poll(
        () =>
          page
            .locator('video')
            .nth(1)
            .evaluate((element: HTMLVideoElement) => element.paused),
        { timeout: 15_000 },
      )
      .toBe(false)
    await expectAccessible(page)
  })

  test('a quote is deleted from My Quotes after the confirmation', async ({ page, makeUser, signedInAs }) => {
    test.setTimeout(120_000)
    const learner = await makeUser()
    await signedInAs(learner)
    await page.goto(`/create-quote?videoId=${original.id}`)
    await expect(page.locator('form[novalidate]')).toHaveCount(1)
    const words = `Short and sweet ${Date.now()}`
    await page.getByLabel('Quote text').fill(words)
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page).toHaveURL(new RegExp(`/video/${original.id}`), { timeout: 60_000 })
    await expect(quoteItem(page, words)).toBeVisible()
    // The product's own dialog, never the browser's confirm().
    page.on('dialog', (dialog) => {
      throw new Error(`a native ${dialog.type()} dialog opened: ${dialog.message()}`)
    })
    await quoteItem(page, words).getByRole('button', { name: 'Delete quote' }).click()
    const ask = page.getByRole('dialog', { name: 'Delete this quote?' })
    await expect(ask).toBeVisible()
    await ask.getByRole('button', { name: 'Cancel' }).first().click()
    await expect(ask).toBeHidden()
    await expect(quoteItem(page, words)).toBeVisible()

    await page.goto('/profile?tab=quotes')
    await expect(page.getByTestId('my-quote')).toHaveCount(1)
    await page.getByTestId('my-quote').getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('dialog', { name: 'Delete this quote?' }).getByRole('button', { name: 'Delete quote' }).click()
    await expect(page.getByTestId('my-quote')).toHaveCount(0)
    await expect(page.locator('#my-quotes-title')).toBeFocused()
  })
})

test('phone: the create page fits the screen', { tag: '@phone-only' }, async ({ page, signedInAs }) => {
  test.setTimeout(90_000)
  await signedInAs('learner')
  await page.goto(`/create-quote?videoId=${original.id}`)
  await expect(page.getByRole('button', { name: 'Submit Quote' })).toBeVisible()
  await expectNoHorizontalScroll(page)
  await expectAccessible(page)
})
