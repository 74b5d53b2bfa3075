import { readFile } from 'node:fs/promises'
import type { Download, Page } from '@playwright/test'
import { expect, expectAccessible, expectNoHorizontalScroll, test } from './support/fixtures'

/**
 * Private timestamped notes on the demo lesson: a learner adds a note at
 * 0:07 (with JavaScript from the player's moment, without it from the `?t=`
 * field), its time link seeks there, it is edited and deleted, and the
 * Markdown export downloads with `?t=` links — from the video page and from
 * the profile's Notes tab.
 */
const TITLE = 'Why the Sky Is Blue'

/** The demo lesson's id, from the feed (on a data folder not prepared by `npm test`, once the demo content is processed). */
async function demoVideoId(page: Page): Promise<string> {
  const link = page.locator('[data-video-card]').filter({ hasText: TITLE }).getByRole('link', { name: TITLE, exact: true })
  await expect(async () => {
    await page.goto(`/feed?search=${encodeURIComponent('sky blue')}`)
    await expect(link).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 180_000 })
  return /\/video\/([0-9a-f-]{36})/.exec((await link.getAttribute('href'))!)![1]!
}

/** A transcript line's Note link (the demo lesson's captions are searchable once processed: reload until they are). */
async function transcriptNoteLink(page: Page, id: string, time: string) {
  const link = page
    .getByRole('list', { name: /Transcript/ })
    .getByRole('link', { name: `Add a note at ${time}` })
    .first()
  await expect(async () => {
    if (!(await link.isVisible())) await page.goto(`/video/${id}`)
    await expect(link).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 120_000 })
  return link
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  return { name: (download as Download).suggestedFilename(), text: await readFile((await download.path())!, 'utf8') }
}

test.describe('with JavaScript', () => {
  // The notes panel under the player and the profile's tab bar: a phone's layout.
  test('a note at the player’s moment: its link seeks there; edit, export, delete; the Notes tab', { tag: '@phone' }, async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    // Two pages, two downloads and axe three times: more than one page's budget.
    test.slow()
    await signedInAs(await makeUser())
    const id = await demoVideoId(page)
    await page.goto(`/video/${id}`)
    const video = page.locator(`[data-video-id="${id}"] video`)
    await expect(video).toHaveAttribute('data-engine', 'hls.js', { timeout: 20_000 })
    const notes = page.getByRole('region', { name: /My notes/ })
    const noteText = (text: string) => notes.getByRole('paragraph').filter({ hasText: text })
    await expect(notes.getByText('No notes yet.')).toBeVisible()

    // Play, pause, go to 0:07: the form offers that moment.
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true
      return element.play()
    })
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0)
    await video.evaluate((element: HTMLVideoElement) => {
      element.pause()
      element.currentTime = 7
    })
    const form = notes.getByRole('form', { name: 'Add a note' })
    await expect(form.getByRole('button', { name: 'Add note at 0:07' })).toBeVisible()
    await form.getByLabel('Note', { exact: true }).fill('Blue light scatters more')
    await form.getByRole('button', { name: 'Add note at 0:07' }).click()

    const link = notes.getByRole('link', { name: 'Play from 0:07' })
    await expect(link).toHaveAttribute('href', /\?t=7$/)
    await expect(noteText('Blue light scatters more')).toBeVisible()
    await expect(form.getByLabel('Note', { exact: true })).toHaveValue('')
    await expect(notes.getByText('Note added')).toBeVisible()

    // Elsewhere in the video, the note's time seeks back in place.
    await video.evaluate((element: HTMLVideoElement) => {
      element.currentTime = 18
    })
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThanOrEqual(17)
    await link.click()
    await expect(page).toHaveURL(/\?t=7$/)
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(7)
    expect(await video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeLessThan(16)
    await video.evaluate((element: HTMLVideoElement) => element.pause())

    // Edit.
    const item = notes.getByRole('listitem').filter({ hasText: 'Blue light scatters more' })
    await item.locator('summary', { hasText: 'Edit' }).click()
    await item.getByLabel('Note', { exact: true }).fill('Shorter wavelengths scatter more')
    await item.getByRole('button', { name: 'Save note' }).click()
    await expect(noteText('Shorter wavelengths scatter more')).toBeVisible()
    await expect(noteText('Blue light scatters more')).toHaveCount(0)
    await expectAccessible(page)
    await expectNoHorizontalScroll(page)

    // Export this video's notes.
    const file = await downloaded(page, () => notes.getByRole('link', { name: 'Export as Markdown' }).click())
    expect(file.name).toBe('lumen-notes-why-the-sky-is-blue.md')
    expect(file.text).toContain(`## [${TITLE}](`)
    expect(file.text).toMatch(new RegExp(`- \\[0:07\\]\\(https?://[^)]+/video/${id}\\?t=7\\) Shorter wavelengths scatter more`))

    // The profile's Notes tab lists it, links to the moment and exports everything.
    await page.goto('/profile?tab=notes')
    const tab = page.locator(`[data-notes-video="${id}"]`)
    await expect(tab.getByRole('heading', { name: TITLE })).toBeVisible()
    await expect(tab.getByRole('link', { name: 'Play from 0:07' })).toHaveAttribute('href', `/video/${id}?t=7`)
    await expectAccessible(page)
    const all = await downloaded(page, () => page.getByRole('link', { name: 'Export all as Markdown' }).click())
    expect(all.name).toBe('lumen-notes.md')
    expect(all.text).toContain('Shorter wavelengths scatter more')

    // Delete, after the confirmation.
    await page.goto(`/video/${id}`)
    const edited = notes.getByRole('listitem').filter({ hasText: 'Shorter wavelengths scatter more' })
    await edited.getByRole('button', { name: 'Delete note' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete your note at 0:07?' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Delete note' }).click()
    await expect(notes.getByText('No notes yet.')).toBeVisible()
    await expect(page.getByRole('heading', { name: /My notes/ })).toBeFocused()

    // A transcript line's Note link: the player goes there and the form is at that moment.
    await (await transcriptNoteLink(page, id, '0:09')).click()
    await expect(page).toHaveURL(/\?t=9#add-note$/)
    await expect(form.getByLabel('Moment', { exact: true })).toHaveValue('0:09')
    await expect(form.getByLabel('Note', { exact: true })).toBeFocused()
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the moment comes from ?t=; the note’s link starts the video there; edit, export and delete are plain forms', async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    await signedInAs(await makeUser())
    const id = await demoVideoId(page)
    await page.goto(`/video/${id}?t=7`)
    const notes = page.getByRole('region', { name: /My notes/ })
    const form = notes.getByRole('form', { name: 'Add a note' })
    await expect(form.getByLabel('Moment', { exact: true })).toHaveValue('0:07')
    await form.getByLabel('Note', { exact: true }).fill('Rayleigh scattering')
    await form.getByRole('button', { name: 'Add note' }).click()

    await expect(page.getByText('Note added')).toBeVisible()
    const link = notes.getByRole('link', { name: 'Play from 0:07' })
    await expect(link).toHaveAttribute('href', /\?t=7$/)
    await page.goto(`/video/${id}`)
    await link.click()
    await expect(page).toHaveURL(new RegExp(`/video/${id}\\?t=7$`))
    // Without JavaScript the page starts the MP4 at the moment.
    await expect(page.locator(`[data-video-id="${id}"] video source`)).toHaveAttribute('src', /#t=7$/)

    const item = notes.getByRole('listitem').filter({ hasText: 'Rayleigh scattering' })
    await item.locator('summary', { hasText: 'Edit' }).click()
    await item.getByLabel('Moment', { exact: true }).fill('0:09')
    await item.getByLabel('Note', { exact: true }).fill('Rayleigh scattering, edited')
    await item.getByRole('button', { name: 'Save note' }).click()
    await expect(page.getByText('Note saved')).toBeVisible()
    await expect(notes.getByRole('link', { name: 'Play from 0:09' })).toBeVisible()

    const file = await downloaded(page, () => notes.getByRole('link', { name: 'Export as Markdown' }).click())
    expect(file.text).toMatch(new RegExp(`/video/${id}\\?t=9\\) Rayleigh scattering, edited`))

    const edited = notes.getByRole('listitem').filter({ hasText: 'Rayleigh scattering, edited' })
    await edited.locator('summary', { hasText: 'Delete' }).click()
    await edited.getByRole('button', { name: 'Delete note' }).click()
    await expect(page.getByText('Note deleted')).toBeVisible()
    await expect(notes.getByText('No notes yet.')).toBeVisible()

    // A transcript line's Note link opens the form at that line's moment.
    await (await transcriptNoteLink(page, id, '0:09')).click()
    await expect(page).toHaveURL(/\?t=9#add-note$/)
    await expect(form.getByLabel('Moment', { exact: true })).toHaveValue('0:09')
  })
})
