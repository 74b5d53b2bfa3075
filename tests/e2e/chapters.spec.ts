import type { Locator, Page } from '@playwright/test'
import { expect, expectAccessible, expectNoHorizontalScroll, test } from './support/fixtures'

/**
 * Chapters (ADR 0042) on the demo lesson "Why the Sky Is Blue", which ships three: a
 * learner sees three marks under the player and the current chapter's title, which follows
 * the player as it seeks; the Chapters list's `?t=` links seek there — in place with
 * JavaScript, through the page's `?t=` without it. Its creator edits the chapters on the
 * edit page with JavaScript (rows added and removed in place) and without (plain rows), a
 * broken rule shown on its row; each edit is put back, so the demo stays as shipped. (axe
 * runs with JavaScript: it cannot run in a page without it.)
 */
const TITLE = 'Why the Sky Is Blue'
const CHAPTERS = [
  { at: 0, title: 'Light meets air' },
  { at: 14, title: 'Blue skies, red sunsets' },
  { at: 24, title: 'In one sentence' },
] as const

/** The demo lesson's id, from the feed (once the demo content is processed). */
async function demoVideoId(page: Page): Promise<string> {
  const link = page.locator('[data-video-card]').filter({ hasText: TITLE }).getByRole('link', { name: TITLE, exact: true })
  await expect(async () => {
    await page.goto(`/feed?search=${encodeURIComponent('sky blue')}`)
    await expect(link).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 180_000 })
  return /\/video\/([0-9a-f-]{36})/.exec((await link.getAttribute('href'))!)![1]!
}

const chapterList = (page: Page) => page.getByRole('list', { name: 'Chapters' })
const currentChapter = (page: Page) => page.locator('[data-current-mark]')
const marks = (page: Page) => page.locator('[data-player-marks] [data-mark-kind="chapter"]')
const currentTime = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime)

/** Saves the edit page and lands back on the video. */
async function save(page: Page, id: string) {
  await page.getByRole('button', { name: 'Save changes' }).click()
  await page.waitForURL(new RegExp(`/video/${id}$`))
}

test.describe('with JavaScript', () => {
  // The marks on a narrow progress bar and the list under the player: a phone's layout.
  test('a learner sees three marks and the current chapter, which follows the player; the list seeks in place', { tag: '@phone' }, async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    // A new learner: no saved position moves the start.
    await signedInAs(await makeUser())
    const id = await demoVideoId(page)
    await page.goto(`/video/${id}`)
    const video = page.locator(`[data-video-id="${id}"] video`)
    await expect(marks(page)).toHaveCount(3)
    await expect(chapterList(page).getByRole('link')).toHaveCount(3)
    await expect(currentChapter(page)).toContainText(CHAPTERS[0].title)
    await expect(video).toHaveAttribute('data-engine', 'hls.js', { timeout: 20_000 })
    // A pointer on the player (its controls) has hls.js take the element over and load the start (ADR 0057).
    await video.dispatchEvent('pointerdown')
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 20_000 })
      .toBeGreaterThan(0)
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true
    })

    // The player seeks (its own controls, here by script): the title follows.
    await video.evaluate((element: HTMLVideoElement) => {
      element.currentTime = 15
    })
    await expect(currentChapter(page)).toContainText(CHAPTERS[1].title)

    // The list's link seeks in place: no navigation, the player is there.
    await chapterList(page)
      .getByRole('link', { name: new RegExp(CHAPTERS[2].title) })
      .click()
    await expect.poll(() => currentTime(video)).toBeGreaterThanOrEqual(CHAPTERS[2].at - 0.5)
    await expect(currentChapter(page)).toContainText(CHAPTERS[2].title)
    expect(page.url()).not.toContain('?t=')
    await expect(chapterList(page).locator('[aria-current="true"]')).toContainText(CHAPTERS[2].title)

    // A mark seeks too.
    await marks(page).nth(1).click()
    // Held there: playing on would reach the next chapter.
    await video.evaluate((element: HTMLVideoElement) => element.pause())
    await expect.poll(() => currentTime(video)).toBeLessThan(CHAPTERS[2].at)
    await expect(currentChapter(page)).toContainText(CHAPTERS[1].title)

    // The transcript's lines sit under the chapters' titles.
    const transcript = page.getByRole('list', { name: /Transcript/ })
    await expect(transcript.getByRole('heading', { name: CHAPTERS[1].title })).toBeVisible()
    await expectAccessible(page)
    await expectNoHorizontalScroll(page)
  })

  test('the creator edits a chapter in place, a broken rule is shown on its row, and the list shows the change', async ({
    page,
    signedInAs,
  }) => {
    await signedInAs('creator')
    const id = await demoVideoId(page)
    await page.goto(`/video/${id}`)
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.waitForURL(`/video/${id}/edit`)
    await expect(page.getByRole('heading', { name: 'Edit video' })).toBeVisible()
    await expect(page.getByLabel('Chapter 3 title')).toHaveValue(CHAPTERS[2].title)

    // Rows come and go in place.
    const rows = page.locator('[data-chapter-row]')
    const before = await rows.count()
    await page.getByRole('button', { name: 'Add chapter' }).click()
    await expect(rows).toHaveCount(before + 1)
    await expect(page.getByLabel(`Chapter ${before + 1} start`)).toBeFocused()
    await page.getByRole('button', { name: `Remove chapter ${before + 1}` }).click()
    await expect(rows).toHaveCount(before)
    await expectAccessible(page)

    // Two chapters too close: the row says so, nothing is saved.
    await page.getByLabel('Chapter 2 start').fill('0:05')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.locator('[data-chapter-row="1"]')).toContainText('at least 10 seconds after the one before')
    await expect(page.getByLabel('Chapter 2 start')).toHaveAttribute('aria-invalid', 'true')
    expect(page.url()).toContain('/edit')
    await expectAccessible(page)

    await page.getByLabel('Chapter 2 start').fill('0:14')
    await page.getByLabel('Chapter 3 title').fill('The whole story')
    await save(page, id)
    await expect(chapterList(page)).toContainText('The whole story')

    // Put back as shipped.
    await page.goto(`/video/${id}/edit`)
    await page.getByLabel('Chapter 3 title').fill(CHAPTERS[2].title)
    await save(page, id)
    await expect(chapterList(page)).toContainText(CHAPTERS[2].title)
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the chapter list and the marks are links that start the player there; the title is the chapter at ?t=', async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    await signedInAs(await makeUser())
    const id = await demoVideoId(page)
    await page.goto(`/video/${id}`)
    const source = page.locator(`[data-video-id="${id}"] video source`)
    await expect(marks(page)).toHaveCount(3)
    await expect(currentChapter(page)).toContainText(CHAPTERS[0].title)
    const link = chapterList(page).getByRole('link', { name: new RegExp(CHAPTERS[1].title) })
    await expect(link).toHaveAttribute('href', `/video/${id}?t=${CHAPTERS[1].at}`)
    await link.click()
    await page.waitForURL(new RegExp(`\\?t=${CHAPTERS[1].at}$`))
    await expect(source).toHaveAttribute('src', new RegExp(`#t=${CHAPTERS[1].at}$`))
    await expect(currentChapter(page)).toContainText(CHAPTERS[1].title)

    await marks(page).nth(2).click()
    await page.waitForURL(new RegExp(`\\?t=${CHAPTERS[2].at}$`))
    await expect(source).toHaveAttribute('src', new RegExp(`#t=${CHAPTERS[2].at}$`))
    await expect(currentChapter(page)).toContainText(CHAPTERS[2].title)
  })

  test('the creator edits the chapters with plain rows; a broken rule comes back on its row', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    const id = await demoVideoId(page)
    await page.goto(`/video/${id}/edit`)
    await expect(page.getByRole('button', { name: 'Add chapter' })).toHaveCount(0)
    // A fourth chapter 2 s before the end of this 36 s lesson: too short.
    await page.getByLabel('Chapter 4 start').fill('0:34')
    await page.getByLabel('Chapter 4 title').fill('Encore')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.locator('[data-chapter-row="3"]')).toContainText('at least 10 seconds before the video ends')
    await expect(page.getByLabel('Chapter 4 title')).toHaveValue('Encore')

    await page.getByLabel('Chapter 4 start').fill('')
    await page.getByLabel('Chapter 4 title').fill('')
    await page.getByLabel('Chapter 1 title').fill('Sunlight meets air')
    await save(page, id)
    await expect(chapterList(page).getByRole('link')).toHaveCount(3)
    await expect(chapterList(page)).toContainText('Sunlight meets air')

    // Put back as shipped.
    await page.goto(`/video/${id}/edit`)
    await page.getByLabel('Chapter 1 title').fill(CHAPTERS[0].title)
    await save(page, id)
    await expect(chapterList(page)).toContainText(CHAPTERS[0].title)
  })
})
