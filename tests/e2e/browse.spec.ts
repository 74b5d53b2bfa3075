import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test'
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
  type TestAccount,
} from './support/fixtures'

/**
 * Browsing (docs/product.md: Feed, Sparks; and the report control): a learner uses the
 * feed (search, category, next page), the sparks grid (Load More), the reel
 * viewer (swipe, buttons, keyboard, position, the hint, preloading) and
 * reports a video from a card — with JavaScript on and off; on a phone, the
 * feed and the reels at 360 px.
 *
 * Content: the demo creator uploads 13 tiny videos and 6 sparks through the
 * upload form's plain post, and the server's own media worker processes them.
 * Their titles share a tag word, so searching for it lists exactly these,
 * whatever else the server holds.
 */
const TAG = `zebra${Date.now().toString(36)}`
const VIDEO_COUNT = 13
const SPARK_COUNT = 6
/** The phone project proves the layout only: a few clips are enough. */
const PHONE_COUNTS = { videos: 2, sparks: 3 }

interface Uploaded {
  id: string
  title: string
}

let videos: Uploaded[] = []
let sparks: Uploaded[] = []

async function makeMedia(dir: string, portrait: boolean) {
  const [width, height] = portrait ? [90, 160] : [160, 90]
  const video = await makeClip(path.join(dir, `clip-${width}.mp4`), {
    width,
    height,
    seconds: 1,
    output: ['-movflags', '+faststart'],
  })
  const thumbnail = path.join(dir, `thumb-${width}.jpg`)
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=0x4f46e5:s=${width}x${height}`, '-frames:v', '1', thumbnail])
  return { video: await readFile(video), thumbnail: await readFile(thumbnail) }
}

async function upload(
  request: APIRequestContext,
  media: { video: Buffer; thumbnail: Buffer },
  fields: { title: string; description: string; type: 'video' | 'spark'; category: string },
): Promise<string> {
  const response = await request.post('/upload', {
    multipart: {
      ...fields,
      visibility: 'public',
      video: { name: 'lesson.mp4', mimeType: 'video/mp4', buffer: media.video },
      thumbnail: { name: 'thumb.jpg', mimeType: 'image/jpeg', buffer: media.thumbnail },
    },
    maxRedirects: 0,
    timeout: 60_000,
  })
  expect(response.status(), await response.text().catch(() => '')).toBe(302)
  const id = new URL(response.headers().location!, 'http://x').searchParams.get('uploaded')
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  return id!
}

test.beforeAll(async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(300_000)
  const phone = testInfo.project.name === 'phone'
  const counts = phone ? PHONE_COUNTS : { videos: VIDEO_COUNT, sparks: SPARK_COUNT }
  const dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-browse-'))
  const creator = await browser.newContext({ baseURL })
  try {
    await addSessionCookies(creator, baseURL!, await signInForCookies(baseURL!, DEMO_ACCOUNTS.creator.email, DEMO_PASSWORD))
    const landscape = await makeMedia(dir, false)
    const portrait = await makeMedia(dir, true)
    // One after another, so that "newest first" is the reverse of this order.
    for (let i = 0; i < counts.videos; i++) {
      const title = `${TAG} lesson ${i + 1}`
      const physics = i < 2
      const id = await upload(creator.request, landscape, {
        title,
        description: physics
          ? 'Forces and motion, one frame at a time, for anyone who ever wondered why things fall.'
          : 'A short lesson.',
        type: 'video',
        category: physics ? 'natural-sciences-physics' : 'other',
      })
      videos.push({ id, title })
    }
    for (let i = 0; i < counts.sparks; i++) {
      const title = `${TAG} spark ${i + 1}`
      sparks.push({
        id: await upload(creator.request, portrait, { title, description: 'A quick idea.', type: 'spark', category: 'other' }),
        title,
      })
    }
    // The server's media worker processes them one by one: wait until each page has a player.
    await expect
      .poll(
        async () => {
          let ready = 0
          for (const { id } of [...videos, ...sparks]) {
            const html = await (await creator.request.get(`/video/${id}`)).text()
            if (html.includes('data-engine=')) ready++
            else if (html.includes('Processing failed')) throw new Error(`processing failed for ${id}`)
          }
          return ready
        },
        { timeout: 280_000, intervals: [2000, 3000, 5000] },
      )
      .toBe(counts.videos + counts.sparks)
    videos = videos.reverse()
    sparks = sparks.reverse()
  } finally {
    await creator.close()
    await rm(dir, { recursive: true, force: true })
  }
})

const cards = (page: Page) => page.locator('[data-video-card]')
const currentClip = (page: Page) => page.locator('section[aria-current="true"]')
const position = (page: Page) => currentClip(page).locator('[data-reel-position]')

async function noJsPage(
  browser: Browser,
  baseURL: string,
  who: TestAccount | 'learner',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false })
  const account = who === 'learner' ? { email: DEMO_ACCOUNTS.learner.email, password: DEMO_PASSWORD } : who
  await addSessionCookies(context, baseURL, await signInForCookies(baseURL, account.email, account.password))
  return { context, page: await context.newPage() }
}

async function pausedStates(page: Page): Promise<boolean[]> {
  return page
    .locator('[data-reel-viewer] video')
    .evaluateAll((elements) => elements.map((element) => (element as HTMLVideoElement).paused))
}

test.describe('with JavaScript', () => {
  test('the feed: search as you type, a category, Load more, and a way out of an empty result', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto('/feed')
    await expect(page.getByRole('heading', { level: 1, name: 'Your Feed' })).toBeVisible()
    await expect(page.getByRole('option', { name: 'All Categories' })).toHaveCount(1)

    await page.getByPlaceholder('Search by video name...').pressSequentially(TAG.slice(0, 8), { delay: 20 })
    await expect(page).toHaveURL(new RegExp(`/feed\\?search=${TAG.slice(0, 8)}$`))
    await expect(cards(page)).toHaveCount(12)
    // Newest first.
    await expect(cards(page).first()).toContainText(videos[0]!.title)

    await page.getByRole('button', { name: 'Load more' }).click()
    await expect(cards(page)).toHaveCount(VIDEO_COUNT)
    await expect(cards(page).last()).toContainText(videos[VIDEO_COUNT - 1]!.title)
    await expect(page.locator(`[data-video-card="${videos[12]!.id}"] .card-link`)).toBeFocused()
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0)

    await page.getByLabel('Category').selectOption('natural-sciences-physics')
    await expect(page).toHaveURL(/category=natural-sciences-physics/)
    await expect(cards(page)).toHaveCount(2)
    // The description is cut to 80 characters on the card.
    const description = cards(page).first().locator('p').last()
    await expect(description).toHaveText(/^Forces and motion, one frame at a time, for anyone who ever wondered why things…$/)

    await page.getByPlaceholder('Search by video name...').fill(`${TAG} nothing-like-this`)
    await expect(page.getByRole('heading', { name: 'No videos available' })).toBeVisible()
    await page.getByRole('link', { name: 'Clear filters' }).click()
    await expect(page).toHaveURL(/\/feed$/)
    await expect(page.getByPlaceholder('Search by video name...')).toHaveValue('')
    await expectAccessible(page)
  })

  test('a card’s thumbnail comes resized from Storage, falls back to the original, and says when there is none', async ({
    page,
    signedInAs,
  }) => {
    await signedInAs('learner')
    const thumbnailOf = (id: string) => page.locator(`[data-video-card="${id}"] img`)
    const shown = (id: string) =>
      thumbnailOf(id).evaluate((img: HTMLImageElement) => ({
        src: img.currentSrc ? new URL(img.currentSrc).pathname : '',
        loaded: img.complete && img.naturalWidth > 0,
      }))
    const id = videos[0]!.id

    const rendered = page.waitForResponse((response) => response.url().includes(`/render/image/public/thumbnails/`))
    await page.goto(`/feed?search=${TAG}`)
    expect((await rendered).headers()['content-type']).toBe('image/webp')
    await expect(thumbnailOf(id)).toHaveAttribute('srcset', /\/render\/image\/public\/thumbnails\/.+\?width=360 360w/)
    await expect
      .poll(() => shown(id))
      .toEqual({ src: expect.stringMatching(/^\/storage\/v1\/render\/image\/public\/thumbnails\//), loaded: true })

    // A Supabase project without image transformations: the original is shown instead.
    await page.route('**/storage/v1/render/image/**', (route) => route.fulfill({ status: 403, body: '' }))
    await page.reload()
    await expect
      .poll(() => shown(id))
      .toEqual({ src: expect.stringMatching(/^\/storage\/v1\/object\/public\/thumbnails\//), loaded: true })

    // Neither answers: the placeholder says why (docs/product.md, Rules and messages).
    await page.route('**/storage/v1/object/public/thumbnails/**', (route) => route.fulfill({ status: 404, body: '' }))
    await page.reload()
    const card = page.locator(`[data-video-card="${id}"]`)
    await expect(card.getByText('Thumbnail Missing')).toBeVisible()
    await expect(thumbnailOf(id)).toHaveCount(0)

    await page.unroute('**/storage/v1/object/public/thumbnails/**')
    await page.route('**/storage/v1/object/public/thumbnails/**', (route) => route.fulfill({ status: 403, body: '' }))
    await page.reload()
    await expect(card.getByText('Private Video')).toBeVisible()
  })

  test('a card opens its video, and its report control opens a modal that answers and closes itself', async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    await signedInAs(await makeUser({ label: 'cardreporter' }))
    await page.goto(`/feed?search=${TAG}`)
    const card = page.locator(`[data-video-card="${videos[0]!.id}"]`)
    await card.getByRole('button', { name: `Report video: ${videos[0]!.title}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Report video' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByLabel('Reason')).toBeFocused()
    await expect(dialog.getByLabel('Reason').locator('option')).toHaveText([
      'Select a reason',
      'Inappropriate content',
      'Copyright violation',
      'Misinformation',
      'Harmful or dangerous',
      'Spam',
      'Other',
    ])
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(card.getByRole('button', { name: /^Report video/ })).toBeFocused()

    await card.getByRole('button', { name: /^Report video/ }).click()
    await dialog.getByRole('button', { name: 'Submit Report' }).click()
    await expect(dialog.getByText('Please provide a reason for reporting this content')).toBeVisible()
    await dialog.getByLabel('Reason').selectOption('copyright')
    await dialog.getByLabel('Details').fill('This is my lecture, re-uploaded.')
    await dialog.getByRole('button', { name: 'Submit Report' }).click()
    await expect(dialog.getByText('Thank you for your report. Our team will review this content shortly.')).toBeVisible()
    await expect(dialog).toBeHidden({ timeout: 6000 })

    // Again: a friendly duplicate, not an error.
    await card.getByRole('button', { name: /^Report video/ }).click()
    await dialog.getByLabel('Reason').selectOption('spam')
    await dialog.getByRole('button', { name: 'Submit Report' }).click()
    await expect(dialog.getByText('You have already reported this content. Our team will review it shortly.')).toBeVisible()
    await page.keyboard.press('Escape')

    await card.getByRole('link', { name: videos[0]!.title }).click()
    await expect(page).toHaveURL(`/video/${videos[0]!.id}`)
  })

  test('sparks: portrait cards, Load More by five, and Watch as Reels keeping the filters', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto(`/sparks?search=${TAG}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Sparks' })).toBeVisible()
    await expect(cards(page)).toHaveCount(5)
    await page.getByRole('button', { name: 'Load More' }).click()
    await expect(cards(page)).toHaveCount(SPARK_COUNT)
    await expect(page.getByRole('button', { name: 'Load More' })).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Watch as Reels' })).toHaveAttribute('href', `/sparks-reels?search=${TAG}`)
    await expectAccessible(page)
  })

  test('reels: keyboard, buttons and a mouse swipe move one clip; the clip in view plays and the next preloads', async ({
    page,
    signedInAs,
  }) => {
    await signedInAs('learner')
    await page.goto(`/sparks-reels?search=${TAG}`)
    // Full screen: no header or bottom bar.
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
    await expect(position(page)).toHaveText(`Spark 1 / ${SPARK_COUNT}`)
    await expect(currentClip(page)).toHaveAttribute('aria-label', `Spark 1 of ${SPARK_COUNT}: ${sparks[0]!.title}`)
    await expect(page.locator('[data-reel-viewer] video').nth(1)).toHaveAttribute('preload', 'auto')
    await expect(page.locator('[data-reel-viewer] video').nth(3)).toHaveAttribute('preload', 'none')
    await expect.poll(() => pausedStates(page)).toEqual([false, true, true, true, true, true])

    await page.keyboard.press('ArrowDown')
    await expect(position(page)).toHaveText(`Spark 2 / ${SPARK_COUNT}`)
    await page.keyboard.press('PageDown')
    await expect(position(page)).toHaveText(`Spark 3 / ${SPARK_COUNT}`)
    await page.keyboard.press('ArrowUp')
    await expect(position(page)).toHaveText(`Spark 2 / ${SPARK_COUNT}`)
    await expect.poll(() => pausedStates(page)).toEqual([true, false, true, true, true, true])
    await expect(page.locator('[data-reel-viewer] video').nth(2)).toHaveAttribute('preload', 'auto')

    await currentClip(page).getByRole('link', { name: 'Next spark' }).click()
    await expect(position(page)).toHaveText(`Spark 3 / ${SPARK_COUNT}`)
    await currentClip(page).getByRole('link', { name: 'Previous spark' }).click()
    await expect(position(page)).toHaveText(`Spark 2 / ${SPARK_COUNT}`)

    // A drag of more than 10 px moves one clip; one of 6 px is a tap (it unmutes). The drag starts once
    // the last move's smooth scroll has come to rest on a clip.
    await expect
      .poll(() =>
        page
          .locator('[data-reel-viewer] > div')
          .first()
          .evaluate((list) => Math.abs(list.scrollTop - Math.round(list.scrollTop / list.clientHeight) * list.clientHeight)),
      )
      .toBeLessThan(1)
    const box = (await page.locator('[data-reel-viewer]').boundingBox())!
    const x = box.x + box.width / 2
    const y = box.y + box.height / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x, y - 60, { steps: 4 })
    await page.mouse.up()
    await expect(position(page)).toHaveText(`Spark 3 / ${SPARK_COUNT}`)
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x, y + 6, { steps: 2 })
    await page.mouse.up()
    await expect(position(page)).toHaveText(`Spark 3 / ${SPARK_COUNT}`)
    await expect(currentClip(page).getByRole('button', { name: 'Mute' })).toBeVisible()
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x, y + 80, { steps: 4 })
    await page.mouse.up()
    await expect(position(page)).toHaveText(`Spark 2 / ${SPARK_COUNT}`)

    await page.keyboard.press('ArrowUp')
    await expect(position(page)).toHaveText(`Spark 1 / ${SPARK_COUNT}`)
    await expect(currentClip(page).getByRole('button', { name: 'Previous spark' })).toBeDisabled()
    await expectAccessible(page)

    await page.getByRole('link', { name: 'Back to sparks' }).click()
    await expect(page).toHaveURL(`/sparks?search=${TAG}`)
  })

  test('reels: the next clip’s poster and first bytes are fetched while the current one plays, before any move', async ({
    page,
    signedInAs,
  }) => {
    await signedInAs('learner')
    const requested: string[] = []
    page.on('request', (request) => requested.push(new URL(request.url()).pathname))
    const fetched = (id: string) => ({
      poster: requested.some((path) => path.includes('/thumbnails/') && path.includes(id)),
      media: requested.includes(`/media/videos/${id}/video.mp4`),
    })
    await page.goto(`/sparks-reels?search=${TAG}`)
    await expect(position(page)).toHaveText(`Spark 1 / ${SPARK_COUNT}`)
    await expect.poll(() => fetched(sparks[1]!.id)).toEqual({ poster: true, media: true })
    // Only the next one: the clip after it waits until it is next.
    expect(fetched(sparks[2]!.id).media).toBe(false)

    await currentClip(page).getByRole('link', { name: 'Next spark' }).click()
    await expect(position(page)).toHaveText(`Spark 2 / ${SPARK_COUNT}`)
    await expect.poll(() => fetched(sparks[2]!.id)).toEqual({ poster: true, media: true })
  })

  test('reels: the hint hides after 5 s; ?start= opens at a clip', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    // Time stands still until the test moves it: a slow machine must not use up the hint's 5 s while the page loads.
    const start = new Date('2026-01-05T09:00:00Z')
    await page.clock.install({ time: start })
    await page.clock.pauseAt(new Date(start.getTime() + 1000))
    await page.goto(`/sparks-reels?search=${TAG}&start=${sparks[3]!.id}`)
    const hint = page.getByText('Swipe or use ↑ ↓ to move between sparks')
    await expect(hint).toBeVisible()
    await expect(position(page)).toHaveText(`Spark 4 / ${SPARK_COUNT}`)
    await expect(currentClip(page)).toHaveAttribute('id', `reel-${sparks[3]!.id}`)
    await page.clock.fastForward(4000)
    await expect(hint).toBeVisible()
    await page.clock.fastForward(1100)
    await expect(hint).toBeHidden()
  })

  test('reels: the next sparks fail to load on a dropped connection; ↓ at the last clip or Try again asks again', async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    await signedInAs(await makeUser({ label: 'reelsoffline' }))
    // For You, unfiltered: the demo sparks and this file's, more than the viewer's first eight. The first two
    // loads of the next eight fail as on a dropped connection; the third gets through.
    let failures = 0
    await page.route(/\/sparks-reels\.data\?.*cursor=/, (route) =>
      failures++ < 2 ? route.abort('internetdisconnected') : route.fallback(),
    )
    await page.goto('/sparks-reels')
    const failed = page.locator('[data-reel-more-failed]')
    await expect(page.locator('[data-reel-viewer] > div').first()).not.toHaveAttribute('role', 'region')
    const down = (to: number) =>
      expect(async () => {
        await page.keyboard.press('ArrowDown')
        await expect(position(page)).toContainText(`${to} /`, { timeout: 2_000 })
      }).toPass({ timeout: 15_000 })
    // Asked for two clips before the end of the eight: the failure is told at the last one, the viewer still there.
    for (let at = 2; at <= 8; at++) await down(at)
    await expect(failed).toHaveText(/Failed to load sparks\. Please try again later\./)
    expect(failures).toBe(1)
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => failures).toBe(2)
    await expect(failed).toBeVisible()
    await expect(position(page)).toContainText('8 /')
    await failed.getByRole('button', { name: 'Try again' }).click()
    await expect(failed).toBeHidden()
    await down(9)
    expect(failures).toBe(3)
  })

  test('reels: the spark menu reports with one tap', async ({ page, signedInAs, makeUser }) => {
    await signedInAs(await makeUser({ label: 'sparkreporter' }))
    await page.goto(`/sparks-reels?search=${TAG}`)
    await currentClip(page).locator('summary', { hasText: 'More options' }).click()
    await currentClip(page).getByRole('button', { name: 'Report inappropriate content' }).click()
    await expect(currentClip(page).getByText('Content reported successfully.')).toBeVisible()
  })

  test('reels: “No sparks available yet” when nothing matches', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto(`/sparks-reels?search=${TAG}-none-at-all`)
    await expect(page.getByRole('heading', { name: 'No sparks available yet' })).toBeVisible()
    await page.getByRole('link', { name: 'Back to Sparks' }).click()
    await expect(page).toHaveURL(`/sparks?search=${TAG}-none-at-all`)
  })
})

test.describe('without JavaScript', () => {
  test('the feed: the search form, the category and the next-page link work as plain HTML', async ({ browser, baseURL }) => {
    const { context, page } = await noJsPage(browser, baseURL!, 'learner')
    try {
      await page.goto('/feed')
      await page.getByPlaceholder('Search by video name...').fill(TAG)
      await page.getByRole('button', { name: 'Search' }).click()
      await expect(page).toHaveURL(new RegExp(`search=${TAG}`))
      await expect(cards(page)).toHaveCount(12)
      // Without JavaScript the next page is added below the first, and the page opens at the first new card (ADR 0018).
      await page.getByRole('link', { name: 'Load more' }).click()
      await expect(page).toHaveURL(/shown=\d+#card-13$/)
      await expect(cards(page)).toHaveCount(13)
      await expect(cards(page).nth(12)).toContainText(videos[12]!.title)
      await page.goto(`/feed?search=${TAG}`)
      await expect(cards(page)).toHaveCount(12)

      await page.getByLabel('Category').selectOption('natural-sciences-physics')
      await page.getByRole('button', { name: 'Search' }).click()
      await expect(cards(page)).toHaveCount(2)

      // Hostile input is just text: here it matches nothing.
      await page.goto(`/feed?search=${encodeURIComponent(`${TAG} ' OR 1=1--`)}`)
      await expect(page.getByRole('heading', { name: 'No videos available' })).toBeVisible()
      await page.goto(`/feed?search=${encodeURIComponent('a & b | !c :*')}&cursor=garbage`)
      await expect(page.getByRole('heading', { level: 1, name: 'Your Feed' })).toBeVisible()
    } finally {
      await context.close()
    }
  })

  test('reporting from a card goes through the report page and back with the flash', async ({ browser, baseURL, makeUser }) => {
    const reporter = await makeUser({ label: 'pagereporter' })
    const { context, page } = await noJsPage(browser, baseURL!, reporter)
    try {
      await page.goto(`/feed?search=${TAG}`)
      const card = page.locator(`[data-video-card="${videos[1]!.id}"]`)
      await card.getByRole('link', { name: `Report video: ${videos[1]!.title}` }).click()
      await expect(page).toHaveURL(/\/report\?contentType=video&contentId=/)
      await expect(page.getByRole('heading', { name: 'Report video' })).toBeVisible()
      await page.getByRole('button', { name: 'Submit Report' }).click()
      await expect(page.getByText('Please provide a reason for reporting this content')).toBeVisible()
      await page.getByLabel('Reason').selectOption('misinformation')
      await page.getByRole('button', { name: 'Submit Report' }).click()
      await expect(page).toHaveURL(`/feed?search=${TAG}`)
      await expect(page.getByTestId('flash-toast')).toHaveText('Content reported successfully.')
    } finally {
      await context.close()
    }
  })

  test('sparks Load More is a link, and the reels scroll clip by clip with plain video elements', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await noJsPage(browser, baseURL!, 'learner')
    try {
      // The ranked grid (For You: this file's sparks make a second page): everything up to the new page,
      // the first cards unchanged, and the page at the first new card (ADR 0018).
      await page.goto('/sparks')
      const before = await cards(page).count()
      const firstTitle = await cards(page).first().locator('h3, h2').first().textContent()
      await page.getByRole('link', { name: 'Load More' }).click()
      await expect(page).toHaveURL(new RegExp(`shown=\\d+#card-${before + 1}$`))
      expect(await cards(page).count()).toBeGreaterThan(before)
      await expect(cards(page).first().locator('h3, h2').first()).toHaveText(firstTitle!)
      await expect(page.locator(`#card-${before + 1}`)).toBeInViewport()

      await page.goto(`/sparks?search=${TAG}`)
      await expect(cards(page)).toHaveCount(5)
      // Everything up to the new page, not only the new card (ADR 0018).
      await page.getByRole('link', { name: 'Load More' }).click()
      await expect(cards(page)).toHaveCount(SPARK_COUNT)

      await page.goto(`/sparks-reels?search=${TAG}`)
      const clips = page.locator('[data-reel-viewer] section')
      await expect(clips).toHaveCount(SPARK_COUNT)
      const first = clips.first().locator('video')
      await expect(first).toHaveAttribute('controls', '')
      await expect(first).toHaveAttribute('poster', /thumbnails/)
      await expect(first.locator('source')).toHaveAttribute('src', `/media/videos/${sparks[0]!.id}/video.mp4`)
      await expect(clips.nth(4).locator('video')).toHaveAttribute('preload', 'none')
      const scroller = page.locator('[data-reel-viewer] > div').first()
      await expect(scroller).toHaveCSS('scroll-snap-type', 'y mandatory')
      await clips.first().getByRole('link', { name: 'Next spark' }).click()
      await expect(page).toHaveURL(new RegExp(`#reel-${sparks[1]!.id}$`))
      await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBeGreaterThan(100)
      await expect(clips.first().getByText('1 / 6')).toHaveCount(1)
      await expect(page.getByText('Scroll, or press Page Down / Page Up, to move between sparks')).toHaveCount(1)
      await expect(page.getByText('Swipe or use ↑ ↓ to move between sparks')).toHaveCount(0)

      // The spark menu opens without JavaScript and its report redirects back with the flash.
      await clips.nth(1).locator('summary', { hasText: 'More options' }).click()
      await clips.nth(1).getByRole('button', { name: 'Report inappropriate content' }).click()
      await expect(page.getByTestId('flash-toast')).toHaveText(
        /Content reported successfully\.|You have already reported this content/,
      )
    } finally {
      await context.close()
    }
  })
})

test.describe('on a phone', { tag: '@phone-only' }, () => {
  test('the feed fits 360 px', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.setViewportSize({ width: 360, height: 740 })
    await page.goto(`/feed?search=${TAG}`)
    await expect(cards(page)).toHaveCount(PHONE_COUNTS.videos)
    await expectNoHorizontalScroll(page)
    const box = (await cards(page).first().boundingBox())!
    expect(box.width).toBeLessThanOrEqual(360)
  })

  test('reels fill the screen at 360 px and a touch swipe moves one clip', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.setViewportSize({ width: 360, height: 740 })
    await page.goto(`/sparks-reels?search=${TAG}`)
    await expect(position(page)).toHaveText(`Spark 1 / ${PHONE_COUNTS.sparks}`)
    const clip = (await currentClip(page).boundingBox())!
    expect(Math.round(clip.height)).toBe(740)
    expect(Math.round(clip.width)).toBe(360)
    await expectNoHorizontalScroll(page)

    await swipe(page, 500, 300)
    await expect(position(page)).toHaveText(`Spark 2 / ${PHONE_COUNTS.sparks}`)
    await swipe(page, 300, 380)
    await expect(position(page)).toHaveText(`Spark 1 / ${PHONE_COUNTS.sparks}`)
    // Under the 10 px threshold: no move.
    await swipe(page, 400, 392)
    await expect(position(page)).toHaveText(`Spark 1 / ${PHONE_COUNTS.sparks}`)
  })
})

/** A real touch gesture (Chrome DevTools Protocol), from y=`from` to y=`to` in the middle of the screen. */
async function swipe(page: Page, from: number, to: number) {
  const cdp = await page.context().newCDPSession(page)
  const x = 150
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: from }] })
  const steps = 5
  for (let i = 1; i <= steps; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: from + ((to - from) * i) / steps }] })
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await cdp.detach()
}
