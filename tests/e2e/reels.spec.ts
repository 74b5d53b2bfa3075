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
  expectAccessible,
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

test('a landscape spark is letterboxed, a portrait one fills the screen, and a long word stays in the column', { tag: '@phone' }, async ({
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

  // A demo spark is portrait: it fills its frame. Found by its title: sparks other tests upload come first.
  await page.goto(`/sparks-reels?search=${encodeURIComponent('Rule 30 Chaos')}`)
  const portrait = page.locator('section[aria-label*="Rule 30: Chaos from One Line"]')
  await expect(portrait).toHaveAttribute('aria-current', 'true')
  await expect(portrait.locator('video')).toHaveCSS('object-fit', 'cover')
  await expect(portrait.locator('[data-reel-backdrop]')).toHaveCount(0)
})

test('keys pressed while the page hydrates break nothing: the viewer still moves', async ({ page, context, signedInAs }) => {
  await signedInAs('learner')
  // A slow phone (a 4× slower CPU) and a learner pressing ↓ all through the load: from the first script
  // on, a key every 5 ms until React has taken over the viewer (its no-JS region role is gone).
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  await page.addInitScript(() => {
    const timer = setInterval(() => {
      const scroller = document.querySelector('[data-reel-viewer] > div')
      if (scroller && !scroller.hasAttribute('role')) clearInterval(timer)
      else document.body?.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }))
    }, 5)
  })
  await page.goto('/sparks-reels')
  const viewer = page.locator('[data-reel-viewer]')
  await expect(viewer.locator('> div').first()).not.toHaveAttribute('role', 'region')
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  // Still alive: the next key moves one clip. (A crashed root leaves the page frozen, and the fixture fails
  // the test on the error it logs.)
  await expect(async () => {
    const before = Number(await viewer.getAttribute('data-current'))
    await page.keyboard.press('ArrowDown')
    await expect(viewer).toHaveAttribute('data-current', String(before + 1), { timeout: 2_000 })
  }).toPass({ timeout: 15_000 })
})

test('without JavaScript: true help, Page Down moves one clip, and the title stays clear of the controls', { tag: '@phone' }, async ({
  browser,
  baseURL,
  isMobile,
}) => {
  const viewport = isMobile ? { width: 360, height: 740 } : { width: 1280, height: 800 }
  const { context, page } = await noJsPage(browser, baseURL!, viewport)
  try {
    await page.goto(`/sparks-reels?start=${landscapeId}#reel-${landscapeId}`)
    // (It fades after 5 s.)
    await expect(page.getByText('Scroll, or press Page Down / Page Up, to move between sparks')).toHaveCount(1)
    await expect(page.getByText(/Swipe/)).toHaveCount(0)
    const wide = clip(page, landscapeId)
    await expect(wide.locator('video')).toHaveAttribute('controls', '')
    await expect(wide.locator('video')).toHaveCSS('object-fit', 'contain')
    await expectTextInsideColumn(page, landscapeId)

    // The browser draws its controls over the bottom ~3.5 rem of the video: the creator, title and buttons sit above.
    const video = (await wide.locator('video').boundingBox())!
    for (const element of [wide.getByRole('heading', { level: 2 }), wide.locator('h2 + p'), wide.locator('summary').last()]) {
      const box = (await element.boundingBox())!
      expect(box.y + box.height).toBeLessThanOrEqual(video.y + video.height - 56)
    }

    // The list is focusable, so the keys the hint names move it, clip by clip.
    const scroller = page.getByRole('region', { name: 'Sparks, one per screen' })
    const scrollTop = () => scroller.evaluate((element) => element.scrollTop)
    const before = await scrollTop()
    // The For You order puts this clip wherever other specs' activity ranks it: when it is the
    // last one, Page Up (the hint's other key) moves one clip back instead.
    const last = await scroller.evaluate((element) => element.scrollTop + element.clientHeight >= element.scrollHeight - 1)
    const [key, target] = last ? (['PageUp', before - viewport.height] as const) : (['PageDown', before + viewport.height] as const)
    // One press moves one clip. A press that moved nothing at all (it can land while the page is
    // still settling on the linked clip) is pressed again; a press that moved is never repeated.
    await expect(async () => {
      if ((await scrollTop()) === before) {
        await scroller.focus()
        await page.keyboard.press(key)
      }
      expect(await scrollTop()).toBe(target)
    }).toPass({ timeout: 15_000 })
  } finally {
    await context.close()
  }
})

/**
 * Acting on a clip from inside the viewer, on a phone, as a new learner:
 * like, comment, share, quote and follow — with JavaScript and without — and
 * each count moves by exactly one. (The rules behind them — who may like,
 * what a comment may hold — are the video page's, tested there.)
 */
// The phone is where the rail is used; the desktop places it beside the clip.
test.describe('acting on a clip', { tag: '@phone-only' }, () => {

  const likeCount = async (page: Page) => Number(await clip(page, landscapeId).locator('[data-reel-like]').getAttribute('data-like-count'))
  const commentCount = async (page: Page) =>
    Number(
      /(\d+) comment/.exec((await clip(page, landscapeId).locator('[data-reel-comments-button]').getAttribute('aria-label')) ?? '')?.[1],
    )

  test('with JavaScript: like, comment in the sheet, share, quote and follow', async ({ page, context, signedInAs, makeUser, baseURL }) => {
    await signedInAs(await makeUser())
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    await page.goto(`/sparks-reels?start=${landscapeId}`)
    const wide = clip(page, landscapeId)
    await expect(wide).toHaveAttribute('aria-current', 'true')
    await expect(wide.locator('video')).toHaveAttribute('data-engine', /.+/)

    // Like: at once, and the server's count after a reload.
    const likes = await likeCount(page)
    await wide.getByRole('button', { name: /^Like,/ }).click()
    await expect(wide.locator('[data-reel-like]')).toHaveAttribute('aria-pressed', 'true')
    await expect(wide.locator('[data-reel-like]')).toHaveAttribute('data-like-count', String(likes + 1))

    // Comments: a sheet over the clip, which keeps playing; Escape closes it and focus goes back.
    const comments = await commentCount(page)
    const opener = wide.getByRole('button', { name: /^Comments,/ })
    await opener.click()
    const sheet = page.getByRole('dialog', { name: /Comments/ })
    await expect(sheet).toBeVisible()
    const text = `From the rail ${Date.now()}`
    await sheet.getByLabel('Add a comment').fill(text)
    await sheet.getByRole('button', { name: 'Post Comment' }).click()
    await expect(sheet.getByRole('status')).toHaveText('Comment added')
    await expect(sheet.locator('[data-reel-comment-list] li').first()).toContainText(text)
    await expect(sheet.getByRole('heading', { name: `Comments (${comments + 1})` })).toBeVisible()
    expect(await wide.locator('video').evaluate((video: HTMLVideoElement) => video.paused)).toBe(false)
    await expectAccessible(page)
    await page.keyboard.press('Escape')
    await expect(sheet).toHaveCount(0)
    await expect(opener).toBeFocused()
    await expect(opener).toHaveAccessibleName(`Comments, ${comments + 1} ${comments + 1 === 1 ? 'comment' : 'comments'}`)

    // Follow, from the creator's avatar.
    await wide.getByRole('button', { name: `Follow ${DEMO_ACCOUNTS.creator.username}` }).click()
    await expect(wide.getByRole('button', { name: `Following ${DEMO_ACCOUNTS.creator.username}` })).toHaveAttribute('aria-pressed', 'true')

    // Share: the copied link opens the viewer at this clip.
    await wide.getByRole('button', { name: 'Share' }).click()
    await expect(wide.getByRole('status')).toHaveText('Video link copied to clipboard!')
    const link = await page.evaluate(() => navigator.clipboard.readText())
    expect(link).toBe(`${baseURL}/sparks-reels?start=${landscapeId}`)

    // What the server now says, from the shared link.
    await page.goto(link)
    await expect(clip(page, landscapeId)).toHaveAttribute('aria-current', 'true')
    await expect.poll(() => likeCount(page)).toBe(likes + 1)
    expect(await commentCount(page)).toBe(comments + 1)
    await expect(clip(page, landscapeId).getByRole('button', { name: `Following ${DEMO_ACCOUNTS.creator.username}` })).toBeVisible()

    // Quote: to the quote form for this clip.
    await clip(page, landscapeId).getByRole('link', { name: 'Quote' }).click()
    await expect(page).toHaveURL(`/create-quote?videoId=${landscapeId}`)
  })

  // On a slow connection the comments may still be arriving when the comment is posted: posting interrupts
  // that load (Remix aborts fetcher loads on a submission, then loads them again). Nothing is logged as an
  // error (the abort is expected; the failOnConsoleError fixture checks) and the list comes back whole.
  test('a comment posted while the comments are still arriving', async ({ page, signedInAs, makeUser }) => {
    await signedInAs(await makeUser())
    // The first comments answer sends its first bytes, then holds the rest until the request is aborted.
    await page.addInitScript(() => {
      const fetchOf = window.fetch
      let stalled = false
      window.fetch = async (input, init) => {
        const response = await fetchOf(input, init)
        const signal = init?.signal
        if (stalled || !signal || !String(input instanceof Request ? input.url : input).includes('commentsOf=')) return response
        stalled = true
        const bytes = new Uint8Array(await response.arrayBuffer())
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(bytes.slice(0, 8))
            await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
            controller.error(signal.reason)
          },
        })
        return new Response(body, { status: response.status, headers: response.headers })
      }
    })
    await page.goto(`/sparks-reels?start=${landscapeId}`)
    const wide = clip(page, landscapeId)
    await expect(wide.locator('video')).toHaveAttribute('data-engine', /.+/)
    const comments = await commentCount(page)
    await wide.getByRole('button', { name: /^Comments,/ }).click()
    const sheet = page.getByRole('dialog', { name: /Comments/ })
    await expect(sheet.getByText('Loading comments')).toBeVisible()
    const text = `While they load ${Date.now()}`
    await sheet.getByLabel('Add a comment').fill(text)
    await sheet.getByRole('button', { name: 'Post Comment' }).click()
    await expect(sheet.getByText('Comment added')).toBeVisible()
    await expect(sheet.getByRole('heading', { name: `Comments (${comments + 1})` })).toBeVisible()
    await expect(sheet.locator('[data-reel-comment-list] li')).toHaveCount(comments + 1)
    await expect(sheet.locator('[data-reel-comment-list] li').first()).toContainText(text)
  })

  test('without JavaScript: the same actions as plain forms and links, back at the clip', async ({ browser, baseURL, makeUser }) => {
    const account = await makeUser()
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 390, height: 800 } })
    try {
      await addSessionCookies(context, baseURL!, await signInForCookies(baseURL!, account.email, account.password))
      const page = await context.newPage()
      await page.goto(`/sparks-reels?start=${landscapeId}#reel-${landscapeId}`)
      const wide = clip(page, landscapeId)

      const likes = await likeCount(page)
      await wide.getByRole('button', { name: /^Like,/ }).click()
      await expect(page).toHaveURL(new RegExp(`start=${landscapeId}#reel-${landscapeId}$`))
      await expect(wide.locator('[data-reel-like]')).toHaveAttribute('aria-pressed', 'true')
      expect(await likeCount(page)).toBe(likes + 1)

      const comments = await commentCount(page)
      await wide.getByRole('link', { name: /^Comments,/ }).click()
      const sheet = page.locator('[data-reel-comment-sheet]')
      await expect(sheet.getByRole('heading', { name: `Comments (${comments})` })).toBeVisible()
      const text = `Without scripts ${Date.now()}`
      await sheet.getByLabel('Add a comment').fill(text)
      await sheet.getByRole('button', { name: 'Post Comment' }).click()
      await expect(page.getByTestId('flash-toast')).toHaveText('Comment added')
      await expect(sheet.getByRole('heading', { name: `Comments (${comments + 1})` })).toBeVisible()
      await expect(sheet.getByText(text)).toBeVisible()
      await sheet.getByRole('link', { name: 'Close comments' }).click()
      await expect(sheet).toHaveCount(0)
      expect(await commentCount(page)).toBe(comments + 1)

      await wide.getByRole('button', { name: `Follow ${DEMO_ACCOUNTS.creator.username}` }).click()
      await expect(clip(page, landscapeId).getByRole('button', { name: `Following ${DEMO_ACCOUNTS.creator.username}` })).toBeVisible()

      await wide.locator('summary', { hasText: 'Share' }).click()
      await expect(wide.getByLabel('Link to this spark')).toHaveValue(`${baseURL}/sparks-reels?start=${landscapeId}`)

      await wide.getByRole('link', { name: 'Quote' }).click()
      await expect(page).toHaveURL(`/create-quote?videoId=${landscapeId}`)
    } finally {
      await context.close()
    }
  })
})
