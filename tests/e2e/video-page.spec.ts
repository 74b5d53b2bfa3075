import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Browser, Page } from '@playwright/test'
import { ffmpeg, makeClip } from '../integration/media/clips'
import {
  addSessionCookies,
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  expect,
  expectNoHorizontalScroll,
  signInForCookies,
  test,
} from './support/fixtures'

/**
 * The video page (docs/product.md, Video detail). The demo
 * creator uploads a tiny generated clip through the upload form's plain
 * (no-JS) post; the server's in-process media worker turns it into HLS and
 * MP4. Then a learner watches it through hls.js (currentTime advances),
 * likes, comments, shares, quotes and reports — with JavaScript on and off —
 * and the owner deletes videos with confirmation, both ways.
 */

interface Clip {
  video: Buffer
  thumbnail: Buffer
}

let clip: Clip
let readyVideo: { id: string; title: string }

async function makeMedia(): Promise<Clip> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-video-'))
  try {
    const video = await makeClip(path.join(dir, 'clip.mp4'), {
      width: 640,
      height: 360,
      seconds: 6,
      output: ['-movflags', '+faststart'],
    })
    const thumbnail = path.join(dir, 'thumb.jpg')
    await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x4f46e5:s=320x180', '-frames:v', '1', thumbnail])
    return { video: await readFile(video), thumbnail: await readFile(thumbnail) }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Uploads as the demo creator through /upload's multipart form (the no-JS path); returns the new video's id. */
async function uploadAsCreator(request: APIRequestContext, title: string): Promise<string> {
  const response = await request.post('/upload', {
    multipart: {
      title,
      description: 'A ray of light through a convex lens, frame by frame.',
      type: 'video',
      category: 'other',
      visibility: 'public',
      video: { name: 'lesson.mp4', mimeType: 'video/mp4', buffer: clip.video },
      thumbnail: { name: 'thumb.jpg', mimeType: 'image/jpeg', buffer: clip.thumbnail },
    },
    maxRedirects: 0,
    timeout: 60_000,
  })
  expect(response.status(), await response.text().catch(() => '')).toBe(302)
  const id = new URL(response.headers().location!, 'http://x').searchParams.get('uploaded')
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  return id!
}

async function creatorRequest(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL })
  await addSessionCookies(context, baseURL, await signInForCookies(baseURL, DEMO_ACCOUNTS.creator.email, DEMO_PASSWORD))
  return context
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
  expect(
    serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target).join(', ')})`),
  ).toEqual([])
}

function likeButton(page: Page) {
  return page.getByTestId('like-button')
}

async function likeCount(page: Page): Promise<number> {
  return Number(await likeButton(page).getAttribute('data-like-count'))
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(180_000)
  clip = await makeMedia()
  const context = await creatorRequest(browser, baseURL!)
  const title = `How lenses bend light ${Date.now()}`
  const id = await uploadAsCreator(context.request, title)
  // The server's media worker processes it: wait until the page has a player instead of the preparing panel.
  await expect
    .poll(
      async () => {
        const html = await (await context.request.get(`/video/${id}`)).text()
        return html.includes('data-engine=') ? 'ready' : html.includes('Processing failed') ? 'failed' : 'processing'
      },
      { timeout: 150_000, intervals: [1000, 2000, 3000] },
    )
    .toBe('ready')
  readyVideo = { id, title }
  await context.close()
})

test.describe('with JavaScript', () => {
  test('a learner watches the video through hls.js, and a reload does not count another view', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    const workers: string[] = []
    page.on('worker', (worker) => workers.push(worker.url()))
    await page.goto(`/video/${readyVideo.id}`)
    await expect(page.getByRole('heading', { level: 1, name: readyVideo.title })).toBeVisible()
    await expect(page.getByRole('link', { name: /maya\.creates/ })).toHaveAttribute('href', /^\/creator\/[0-9a-f-]{36}$/)
    const video = page.locator('video')
    await expect(video).toHaveAttribute('data-engine', 'hls.js')
    // The poster comes resized from Storage, preloaded with the page (ADR 0030).
    const poster = await video.getAttribute('poster')
    expect(poster).toMatch(/\/storage\/v1\/render\/image\/public\/thumbnails\/.+\?width=1280$/)
    await expect(page.locator(`link[rel="preload"][as="image"][href="${poster}"]`)).toHaveCount(1)
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true
      await element.play()
    })
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(1)
    // hls.js plays from a MediaSource, fed by our /media route.
    expect(await video.evaluate((element: HTMLVideoElement) => element.currentSrc)).toMatch(/^blob:/)
    // Its segments are remuxed in hls.js's worker (one of our assets), off the page's main thread.
    expect(workers.filter((url) => /\/assets\/hls\.worker-[\w-]+\.js$/.test(url))).toHaveLength(1)

    const views = await page.getByTestId('view-count').textContent()
    await page.reload()
    await expect(page.getByTestId('view-count')).toHaveText(views!)
    await expectNoSeriousViolations(page)
  })

  test('until the learner plays, hls.js fetches no segment (the page warms only the first); playing buffers ahead', async ({
    page,
    signedInAs,
  }) => {
    await signedInAs('learner')
    // hls.js's own requests are XHRs; warm-hls's (into the HTTP cache, ADR 0027) are `fetch`es.
    const segments: { segment: string; by: string }[] = []
    page.on('request', (request) => {
      const match = /\/hls\/([^/]+)\/segment_(\d+)\.\w+/.exec(request.url())
      if (match) segments.push({ segment: `${match[1]} ${match[2]}`, by: request.resourceType() })
    })
    await page.goto(`/video/${readyVideo.id}`)
    const video = page.locator('video')
    await expect(video).toHaveAttribute('data-engine', 'hls.js')
    await page.waitForLoadState('networkidle')
    // Nothing attached or buffered before play (ADR 0057): receiving and appending a segment were the page's longest tasks.
    expect(await video.evaluate((element: HTMLVideoElement) => element.buffered.length)).toBe(0)
    expect(segments.filter(({ by }) => by !== 'fetch').map(({ segment }) => segment)).toEqual([])
    expect(
      segments.every(({ segment }) => segment.endsWith(' 000')),
      JSON.stringify(segments),
    ).toBe(true)
    // Play loads the first segment and plays; the clip has two segments, and playing fetches the second.
    const second = page.waitForRequest(/\/hls\/[^/]+\/segment_001\.\w+/)
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true
      await element.play()
    })
    await second
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0)
  })

  test('like is optimistic and the server’s count stays after a reload; liking again unlikes', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto(`/video/${readyVideo.id}`)
    // Hydrated: the player has switched to hls.js.
    await expect(page.locator('video')).toHaveAttribute('data-engine', 'hls.js')
    const before = await likeCount(page)
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false')
    // The button flips at once (optimistic); the reload waits for the server's answer.
    const answered = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/video/'),
    )
    await likeButton(page).click()
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true')
    await expect(likeButton(page)).toHaveAttribute('data-like-count', String(before + 1))
    expect((await answered).status()).toBe(200)
    await page.reload()
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true')
    await expect(likeButton(page)).toHaveAttribute('data-like-count', String(before + 1))
    await likeButton(page).click()
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false')
    await expect(likeButton(page)).toHaveAttribute('data-like-count', String(before))
  })

  test('a like that cannot reach the server is reverted with the spec’s message', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto(`/video/${readyVideo.id}`)
    await expect(page.locator('video')).toHaveAttribute('data-engine', 'hls.js')
    const before = await likeCount(page)
    const pressed = await likeButton(page).getAttribute('aria-pressed')
    await page.route(/\/video\/[^/]+\.data/, (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    )
    await likeButton(page).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Error liking video' })).toBeVisible()
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', pressed!)
    await expect(likeButton(page)).toHaveAttribute('data-like-count', String(before))
    await expect(page.getByRole('heading', { level: 1, name: readyVideo.title })).toBeVisible()
  })

  test('comments: the button waits for text, the comment appears in place', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto(`/video/${readyVideo.id}`)
    const box = page.getByLabel('Add a comment')
    const post = page.getByRole('button', { name: 'Post Comment' })
    await expect(post).toBeDisabled()
    await box.fill('   ')
    await expect(post).toBeDisabled()
    const text = `The refraction diagram finally clicked ${Date.now()}`
    await box.fill(text)
    await expect(post).toBeEnabled()
    await post.click()
    await expect(page.locator('#comments').getByText(text, { exact: true })).toBeVisible()
    await expect(box).toHaveValue('')
    // Deleting asks in the product's own dialog, never the browser's confirm().
    page.on('dialog', (dialog) => {
      throw new Error(`a native ${dialog.type()} dialog opened: ${dialog.message()}`)
    })
    const item = page.locator('#comments li').filter({ hasText: text })
    await item.getByRole('button', { name: 'Delete comment' }).click()
    await page.getByRole('dialog', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment' }).click()
    await expect(item).toHaveCount(0)
    await expect(page.locator('#comments-heading')).toBeFocused()
  })

  test('share copies the link with the spec’s message; Quote leads to /create-quote', async ({
    page,
    context,
    signedInAs,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    await signedInAs('learner')
    await page.goto(`/video/${readyVideo.id}`)
    await page.getByRole('button', { name: 'Share' }).click()
    await expect(page.getByText('Video link copied to clipboard!')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/video/${readyVideo.id}`)
    await expect(page.getByRole('link', { name: 'Quote', exact: true })).toHaveAttribute(
      'href',
      `/create-quote?videoId=${readyVideo.id}`,
    )
  })

  test('a learner reports the video in the dialog', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto(`/video/${readyVideo.id}`)
    await page.getByRole('button', { name: /^Report video/ }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Reason').selectOption('misinformation')
    await dialog.getByRole('button', { name: 'Submit Report' }).click()
    await expect(dialog.getByText('Thank you for your report. Our team will review this content shortly.')).toBeVisible()
    await expect(dialog).toBeHidden({ timeout: 6000 })
  })

  test('a learner sees no delete control, and a forged delete is refused with 403', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto(`/video/${readyVideo.id}`)
    await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0)
    const response = await page.request.post(`/video/${readyVideo.id}`, { form: { intent: 'delete', confirm: 'yes' } })
    expect(response.status()).toBe(403)
    expect(await response.text()).toContain('You can only delete your own videos')
  })

  test('the owner deletes a video after confirming in a dialog', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    const id = await uploadAsCreator(page.request, `To be deleted ${Date.now()}`)
    await page.goto(`/video/${id}`)
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete this video?' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    // The dashboard's data comes back slowly: the server answers at once (and takes the one-time
    // flash), the page gets it 4.5 s later. Meanwhile the processing panel's 4 s poll must not restart
    // the navigation, which would throw that answer away for one without the flash.
    const dashboardLoads: string[] = []
    await page.route(/\/dashboard\.data/, async (route) => {
      dashboardLoads.push(route.request().url())
      const response = await route.fetch()
      await new Promise((resolve) => setTimeout(resolve, 4_500))
      await route.fulfill({ response }).catch(() => {})
    })
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete video' }).click()
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 })
    await expect(page.getByTestId('flash-toast')).toHaveText('video deleted successfully')
    expect(dashboardLoads).toHaveLength(1)
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    // Reloading the same page's data (the dashboard refreshes itself while uploads process) keeps the toast.
    type RemixWindow = { __remixRouter: { revalidate(): void; state: { revalidation: string } } }
    const reloaded = page.waitForResponse(/\/dashboard\.data/)
    await page.evaluate(() => (window as unknown as RemixWindow).__remixRouter.revalidate())
    await reloaded
    await expect.poll(() => page.evaluate(() => (window as unknown as RemixWindow).__remixRouter.state.revalidation)).toBe('idle')
    await expect(page.getByTestId('flash-toast')).toHaveText('video deleted successfully')
    const gone = await page.goto(`/video/${id}`)
    expect(gone!.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Video not found' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to Feed' })).toHaveAttribute('href', '/feed')
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the page plays the MP4 (with byte ranges) and likes through a plain form', async ({ page, makeUser, signedInAs }) => {
    await signedInAs(await makeUser({ label: 'nojs' }))
    await page.goto(`/video/${readyVideo.id}`)
    const source = page.locator('video source[type="video/mp4"]')
    await expect(source).toHaveAttribute('src', `/media/videos/${readyVideo.id}/video.mp4`)
    await expect(page.locator('video')).toHaveAttribute('data-engine', 'mp4')
    const range = await page.request.get(`/media/videos/${readyVideo.id}/video.mp4`, { headers: { Range: 'bytes=0-99' } })
    expect(range.status()).toBe(206)
    expect(range.headers()['content-range']).toMatch(/^bytes 0-99\/\d+$/)

    const before = await likeCount(page)
    await likeButton(page).click()
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true')
    await expect(likeButton(page)).toHaveAttribute('data-like-count', String(before + 1))
    await likeButton(page).click()
    await expect(likeButton(page)).toHaveAttribute('data-like-count', String(before))
  })

  test('comments: an empty one gets the spec’s message, a real one is added', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto(`/video/${readyVideo.id}`)
    await page.getByRole('button', { name: 'Post Comment' }).click()
    await expect(page.getByText('Please enter a comment')).toBeVisible()
    const text = `Works without JavaScript too ${Date.now()}`
    await page.getByLabel('Add a comment').fill(text)
    await page.getByRole('button', { name: 'Post Comment' }).click()
    await expect(page.getByTestId('flash-toast')).toHaveText('Comment added')
    await expect(page.locator('#comments').getByText(text, { exact: true })).toBeVisible()
    // Deleting it: the disclosure's plain form asks first.
    const item = page.locator('#comments li').filter({ hasText: text })
    await item.getByText('Delete', { exact: true }).click()
    await item.getByRole('button', { name: 'Delete comment' }).click()
    await expect(page.locator('#comments li').filter({ hasText: text })).toHaveCount(0)
  })

  test('share shows the link to copy; report goes through the report page', async ({ page, makeUser, signedInAs, baseURL }) => {
    await signedInAs(await makeUser({ label: 'reporter' }))
    await page.goto(`/video/${readyVideo.id}`)
    await page.getByText('Share', { exact: true }).click()
    await expect(page.getByLabel('Link to this video')).toHaveValue(`${baseURL}/video/${readyVideo.id}`)

    await page.getByRole('link', { name: /^Report video/ }).click()
    await expect(page).toHaveURL(/\/report\?contentType=video/)
    await page.getByLabel('Reason').selectOption('spam')
    await page.getByRole('button', { name: 'Submit Report' }).click()
    await expect(page).toHaveURL(new RegExp(`/video/${readyVideo.id}$`))
    await expect(page.getByTestId('flash-toast')).toHaveText('Content reported successfully.')
  })

  test('the owner must tick the confirmation before a delete goes through', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    const id = await uploadAsCreator(page.request, `Deleted without JS ${Date.now()}`)
    await page.goto(`/video/${id}`)
    await page.getByText('Delete', { exact: true }).click()
    await page.getByRole('button', { name: 'Delete video' }).click()
    await expect(page.getByText('Please confirm that you want to delete this video')).toBeVisible()
    // The disclosure stays open with the error in it.
    await page.getByLabel('Yes, delete this video').check()
    await page.getByRole('button', { name: 'Delete video' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByTestId('flash-toast')).toHaveText('video deleted successfully')
  })
})

test('an unknown video shows the not-found card with a way back to the feed', async ({ page, signedInAs }) => {
  await signedInAs('learner')
  const response = await page.goto('/video/00000000-0000-4000-8000-000000000000')
  expect(response!.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Video not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Back to Feed' }).click()
  await expect(page).toHaveURL(/\/feed/)
})

test('on a 360 px phone the page fits and the player is full width', { tag: '@phone-only' }, async ({ page, signedInAs }) => {
  await page.setViewportSize({ width: 360, height: 780 })
  await signedInAs('learner')
  await page.goto(`/video/${readyVideo.id}`)
  await expect(page.getByRole('heading', { level: 1, name: readyVideo.title })).toBeVisible()
  await expect(page.locator('video')).toHaveAttribute('data-engine', 'hls.js')
  await expectNoHorizontalScroll(page)
  const box = await page.locator('[data-video-id]').first().boundingBox()
  expect(box!.width).toBeGreaterThan(300)
  await expect(likeButton(page)).toBeInViewport()
})
