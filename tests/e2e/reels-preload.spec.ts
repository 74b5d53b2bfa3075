import type { Page, Request } from '@playwright/test'
import { expect, test } from './support/fixtures'

/**
 * The next clip in the reel viewer (ADR 0051), in a real browser, on the demo
 * sparks: on an ordinary connection the next clip has data in (readyState at
 * least HAVE_CURRENT_DATA) before the viewer moves, the same element becomes
 * the current one, and no more than three clips hold media at any time; with
 * Save-Data on (navigator.connection, set before the page's scripts) not one
 * media request goes out for the next clip until the viewer moves to it.
 * How fast the next clip shows is measured by `npm run bench -- next-clip`, not here.
 */
const viewer = '[data-reel-viewer]'
const videoOf = (index: number) => `${viewer} section[data-reel-index="${index}"] video`

const SAVE_DATA = () => {
  const connection = new EventTarget()
  Object.assign(connection, { saveData: true, effectiveType: '4g', downlink: 10, rtt: 50 })
  Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection })
}

/** The demo sparks are processed at start-up: on a fresh server they may not all be there yet. */
async function openViewer(page: Page) {
  await expect(async () => {
    await page.goto('/sparks-reels')
    // The five demo sparks at least (other specs may have added more).
    await expect(page.locator(`${viewer} section[data-reel-index="4"]`)).toBeAttached({ timeout: 2_000 })
  }).toPass({ timeout: 180_000 })
}

/** Clip `index` is the current one and has played a little (what a viewer sees before moving on). */
async function playing(page: Page, index: number) {
  await expect(page.locator(viewer)).toHaveAttribute('data-current', String(index))
  await page.waitForFunction((selector) => {
    const video = document.querySelector<HTMLVideoElement>(selector)
    return Boolean(video && !video.paused && video.currentTime > 0.5)
  }, videoOf(index))
}

const readyState = (page: Page, index: number) =>
  page.locator(videoOf(index)).evaluate((video) => (video as HTMLVideoElement).readyState)

/** How many clips hold media: a resource selected (data in, or coming). */
const holdingMedia = (page: Page) =>
  page
    .locator(`${viewer} video`)
    .evaluateAll((videos) => (videos as HTMLVideoElement[]).filter((video) => video.networkState !== video.NETWORK_EMPTY).length)

async function moveOn(page: Page) {
  await page.locator(`${viewer} section[aria-current="true"]`).getByRole('link', { name: 'Next spark' }).click()
}

/** Media requests (the MP4, or HLS playlists and segments) for the clip with this id. */
function mediaRequestsOf(requests: Request[], id: string): string[] {
  return requests.map((request) => request.url()).filter((url) => url.includes(`/media/videos/${id}/`) && !/thumbnail/.test(url))
}

const clipId = async (page: Page, index: number) =>
  ((await page.locator(`${viewer} section[data-reel-index="${index}"]`).getAttribute('id')) ?? '').replace(/^reel-/, '')

test('the next clip has data in before the move, becomes current as the same element, and at most three clips hold media', async ({
  page,
  signedInAs,
}) => {
  test.setTimeout(240_000)
  await signedInAs('learner')
  await openViewer(page)
  for (let index = 0; index < 4; index++) {
    await playing(page, index)
    // Before the move: the next clip's first frame is there to show.
    await expect.poll(() => readyState(page, index + 1), { timeout: 15_000 }).toBeGreaterThanOrEqual(2)
    await page
      .locator(videoOf(index + 1))
      .evaluate((video) => ((video as HTMLVideoElement & { __before?: boolean }).__before = true))
    expect(await holdingMedia(page)).toBeLessThanOrEqual(3)
    await moveOn(page)
    await playing(page, index + 1)
    // The element that buffered is the one playing: nothing was made again.
    expect(
      await page
        .locator(videoOf(index + 1))
        .evaluate((video) => (video as HTMLVideoElement & { __before?: boolean }).__before === true),
    ).toBe(true)
    // A clip two behind is emptied once the viewer has moved past it.
    if (index >= 1) await expect.poll(() => readyState(page, index - 1)).toBe(0)
    expect(await holdingMedia(page)).toBeLessThanOrEqual(3)
  }
  // Back up two: the emptied clip gets its source again and plays.
  await page.keyboard.press('ArrowUp')
  await playing(page, 3)
  await page.keyboard.press('ArrowUp')
  await playing(page, 2)
  expect(await holdingMedia(page)).toBeLessThanOrEqual(3)
})

test('with Save-Data on, nothing of the next clip is fetched until the viewer moves to it', async ({ page, signedInAs }) => {
  test.setTimeout(240_000)
  await page.addInitScript(SAVE_DATA)
  const requests: Request[] = []
  page.on('request', (request) => requests.push(request))
  await signedInAs('learner')
  await openViewer(page)
  await playing(page, 0)
  const next = await clipId(page, 1)
  const current = await clipId(page, 0)
  // The clip in view streams (the counting sees media requests) …
  expect(mediaRequestsOf(requests, current).length).toBeGreaterThan(0)
  // … and has played past the point where an ordinary connection would have the next one buffered: 1.5 s
  // of playing, counted across loops (the first clip may be a 1-second one another spec uploaded, which
  // loops, so its currentTime never passes 1.5).
  await page.waitForFunction(
    (selector) => {
      const video = document.querySelector(selector) as HTMLVideoElement & { playedFor?: number; lastTime?: number }
      const now = video.currentTime
      const last = video.lastTime ?? now
      video.playedFor = (video.playedFor ?? 0) + (now >= last ? now - last : now)
      video.lastTime = now
      return video.playedFor > 1.5
    },
    videoOf(0),
    { polling: 100, timeout: 30_000 },
  )
  expect(await page.locator(videoOf(1)).getAttribute('preload')).toBe('none')
  expect(await readyState(page, 1)).toBe(0)
  expect(mediaRequestsOf(requests, next)).toEqual([])

  await moveOn(page)
  await playing(page, 1)
  expect(mediaRequestsOf(requests, next).length).toBeGreaterThan(0)
  // The one after it again waits.
  expect(mediaRequestsOf(requests, await clipId(page, 2))).toEqual([])
})
