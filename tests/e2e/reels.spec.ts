import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from '@playwright/test'
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
 * The reel viewer as a learner sees it, on a phone and a desktop: a landscape
 * spark is letterboxed (never cropped) and a portrait one fills the screen;
 * a 140-character unbroken word in a title or description stays inside the
 * clip's column; with JavaScript off the help is true (scroll or Page Down,
 * not "swipe") and the creator and title stay clear of the browser's controls.
 *
 * Content: one landscape spark uploaded by the demo creator (its title and
 * description hold the long word), and the demo sparks, which are portrait.
 */
const LONG = `Supercalifragilistic${'x'.repeat(120)}`
const TITLE = `${LONG} landscape`
let landscapeId = ''

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(180_000)
  const dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-reels-'))
  const creator = await browser.newContext({ baseURL })
  try {
    await addSessionCookies(creator, baseURL!, await signInForCookies(baseURL!, DEMO_ACCOUNTS.creator.email, DEMO_PASSWORD))
    const video = await makeClip(path.join(dir, 'wide.mp4'), { width: 320, height: 180, seconds: 1, output: ['-movflags', '+faststart'] })
    const thumbnail = path.join(dir, 'wide.jpg')
    await ffmpeg(['-f', 'lavfi', '-i', 'smptehdbars=s=320x180', '-frames:v', '1', thumbnail])
    const response = await creator.request.post('/upload', {
      multipart: {
        title: TITLE,
        description: `${LONG} in the description too.`,
        type: 'spark',
        category: 'other',
        visibility: 'public',
        video: { name: 'wide.mp4', mimeType: 'video/mp4', buffer: await readFile(video) },
        thumbnail: { name: 'wide.jpg', mimeType: 'image/jpeg', buffer: await readFile(thumbnail) },
      },
      maxRedirects: 0,
      timeout: 60_000,
    })
    expect(response.status()).toBe(302)
    landscapeId = new URL(response.headers().location!, 'http://x').searchParams.get('uploaded') ?? ''
    await expect
      .poll(async () => (await (await creator.request.get(`/video/${landscapeId}`)).text()).includes('data-engine='), {
        timeout: 170_000,
        intervals: [1000, 2000, 3000],
      })
      .toBe(true)
  } finally {
    await creator.close()
    await rm(dir, { recursive: true, force: true })
  }
})

const clip = (page: Page, id: string) => page.locator(`section#reel-${id}`)

async function noJsPage(browser: Browser, baseURL: string, viewport: { width: number; height: number }) {
  const context: BrowserContext = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport })
  await addSessionCookies(context, baseURL, await signInForCookies(baseURL, DEMO_ACCOUNTS.learner.email, DEMO_PASSWORD))
  return { context, page: await context.newPage() }
}

/** The clip's column holds its title and description: nothing reaches past its right edge. */
async function expectTextInsideColumn(page: Page, id: string) {
  const column = (await clip(page, id).locator('video').boundingBox())!
  for (const text of [clip(page, id).getByRole('heading', { level: 2 }), clip(page, id).locator('h2 + p')]) {
    const box = (await text.boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(column.x + column.width + 0.5)
    expect(await text.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0)
  }
  await expectNoHorizontalScroll(page)
}

test('a landscape spark is letterboxed, a portrait one fills the screen, and a long word stays in the column', async ({
  page,
  signedInAs,
}) => {
  await signedInAs('learner')
  await page.goto(`/sparks-reels?start=${landscapeId}`)
  const wide = clip(page, landscapeId)
  await expect(wide).toHaveAttribute('aria-current', 'true')
  await expect(wide.locator('video')).toHaveCSS('object-fit', 'contain')
  await expect(wide.locator('[data-reel-backdrop]')).toHaveCount(1)
  await expectTextInsideColumn(page, landscapeId)
  const viewport = page.viewportSize()!
  if (viewport.width >= 640) {
    // The desktop column keeps its 9:16 shape: a long word does not widen it.
    const column = (await wide.locator('video').boundingBox())!
    expect(Math.abs(column.width - (column.height * 9) / 16)).toBeLessThan(2)
  }

  // The next one is a demo spark, which is portrait: it fills its frame.
  const portrait = page.locator(`section#reel-${landscapeId} + section`)
  await expect(portrait.locator('video')).toHaveCSS('object-fit', 'cover')
  await expect(portrait.locator('[data-reel-backdrop]')).toHaveCount(0)
})

test('without JavaScript: true help, Page Down moves one clip, and the title stays clear of the controls', async ({
  browser,
  baseURL,
  isMobile,
}) => {
  const viewport = isMobile ? { width: 360, height: 740 } : { width: 1280, height: 800 }
  const { context, page } = await noJsPage(browser, baseURL!, viewport)
  try {
    await page.goto(`/sparks-reels?start=${landscapeId}#reel-${landscapeId}`)
    await expect(page.getByText('Scroll, or press Page Down / Page Up, to move between sparks')).toBeVisible()
    await expect(page.getByText(/Swipe/)).toHaveCount(0)
    const wide = clip(page, landscapeId)
    await expect(wide.locator('video')).toHaveAttribute('controls', '')
    await expect(wide.locator('video')).toHaveCSS('object-fit', 'contain')
    await expectTextInsideColumn(page, landscapeId)

    // The browser draws its controls over the bottom ~3.5 rem of the video: the creator, title and buttons sit above.
    const video = (await wide.locator('video').boundingBox())!
    for (const element of [wide.getByRole('heading', { level: 2 }), wide.locator('h2 + p'), wide.locator('summary')]) {
      const box = (await element.boundingBox())!
      expect(box.y + box.height).toBeLessThanOrEqual(video.y + video.height - 56)
    }

    // The list is focusable, so the keys the hint names move it, clip by clip.
    const scroller = page.getByRole('region', { name: 'Sparks, one per screen' })
    const before = await scroller.evaluate((element) => element.scrollTop)
    await scroller.focus()
    await page.keyboard.press('PageDown')
    await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(before + viewport.height)
  } finally {
    await context.close()
  }
})
