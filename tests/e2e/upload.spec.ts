import { mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Request } from '@playwright/test'
import { UPLOAD_MESSAGES } from '../../app/lib/schemas/upload'
import { ffmpeg, makeClip } from '../integration/media/clips'
import { expect, expectAccessible, expectNoHorizontalScroll, test, type Page } from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * The upload page (docs/product.md, Upload). A verified
 * creator uploads with JavaScript (a real progress bar fed by the TUS
 * transfer, the success message, /video/<id> after 1.5 s) and without it
 * (a multipart post); a learner and an unverified creator are turned away;
 * a refused file leaves nothing in Storage; an interrupted upload resumes
 * from the bytes the server has, after a reload and after a dropped
 * connection, up to the 100 MB limit.
 *
 * Test uploads are private so they never show in other tests' feeds.
 */

const MB = 1024 * 1024
const DEMO_CREATOR_ID = 'de300000-0000-4000-8000-000000000002'
const RESUMABLE = '**/storage/v1/upload/resumable**'

let dir: string
const media = {} as Record<'clip' | 'medium' | 'large' | 'thumbnail' | 'notes', string>

/** A real short MP4 grown to `bytes` with a trailing `free` box: a valid video of any size, made in an instant. */
async function paddedClip(name: string, bytes: number): Promise<string> {
  const file = await makeClip(path.join(dir, name), { width: 320, height: 180, seconds: 3, output: ['-movflags', '+faststart'] })
  const { size } = await stat(file)
  const handle = await open(file, 'r+')
  try {
    const header = Buffer.alloc(8)
    header.writeUInt32BE(bytes - size, 0)
    header.write('free', 4, 'latin1')
    await handle.write(header, 0, 8, size)
    await handle.truncate(bytes)
  } finally {
    await handle.close()
  }
  return file
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-upload-'))
  media.clip = await makeClip(path.join(dir, 'lesson.mp4'), {
    width: 320,
    height: 180,
    seconds: 3,
    output: ['-movflags', '+faststart'],
  })
  media.medium = await paddedClip('medium.mp4', 30 * MB)
  media.large = await paddedClip('large.mp4', 100 * MB)
  media.thumbnail = path.join(dir, 'thumbnail.jpg')
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x4f46e5:s=640x360', '-frames:v', '1', media.thumbnail])
  media.notes = path.join(dir, 'notes.mp4')
  await writeFile(media.notes, 'These are my lecture notes, not a video.\n'.repeat(200))
})

test.afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

async function openUpload(page: Page) {
  await page.goto('/upload')
  await expect(page.getByRole('heading', { name: 'Upload Content' })).toBeVisible()
}

/** Waits for React: the form switches off the browser's own validation once hydrated. */
async function hydrated(page: Page) {
  await expect(page.locator('form[enctype="multipart/form-data"][novalidate]')).toHaveCount(1)
}

async function fillForm(page: Page, video: string, title: string) {
  await page.getByLabel('Video file').setInputFiles(video)
  await page.getByLabel('Thumbnail', { exact: true }).setInputFiles(media.thumbnail)
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Description').fill('Refraction, focal points and why your glasses work.')
  await page.getByLabel(/^Private/).check()
}

/** Every value the progress bar announces, recorded in the page as it changes. */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: number[] = []
    ;(window as unknown as { progressSeen: number[] }).progressSeen = seen
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]')
      const value = Number(bar?.getAttribute('aria-valuenow') ?? NaN)
      if (!Number.isNaN(value) && seen.at(-1) !== value) seen.push(value)
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] })
  })
}

/** The object name a TUS creation request asked for (from its Upload-Metadata). */
function objectNameOf(request: Request): string | null {
  const metadata = request.headers()['upload-metadata'] ?? ''
  const entry = metadata.split(',').find((pair) => pair.trim().startsWith('objectName '))
  return entry ? Buffer.from(entry.trim().split(' ')[1]!, 'base64').toString('utf8') : null
}

async function objectExists(baseURL: string, name: string): Promise<boolean> {
  const folder = name.slice(0, name.lastIndexOf('/'))
  const { data, error } = await supabaseFor(baseURL, 'service')
    .storage.from('uploads')
    .list(folder, { search: name.slice(folder.length + 1) })
  if (error) throw error
  return data.some((entry) => `${folder}/${entry.name}` === name)
}

test.describe('a verified creator, with JavaScript', () => {
  test('uploads with a rising progress bar, sees the success message, and lands on the video 1.5 s later', async ({
    page,
    signedInAs,
  }) => {
    test.setTimeout(90_000)
    await signedInAs('creator')
    await openUpload(page)
    await hydrated(page)
    await fillForm(page, media.medium, `Lenses, with JavaScript ${Date.now()}`)
    await expect(page.getByTestId('video-preview')).toContainText('0:03')
    await expect(page.getByTestId('thumbnail-preview')).toBeVisible()
    await recordProgress(page)
    // When the message appeared and when the page moved on, as the page saw them: the test's own
    // polling notices the message late under load, which made the wait look shorter than it was.
    await page.evaluate((text) => {
      const seen = window as unknown as { successAt?: number; leftAt?: number }
      new MutationObserver((_, observer) => {
        if (document.body.innerText.includes(text)) {
          seen.successAt = performance.now()
          observer.disconnect()
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true })
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history)
        history[method] = (...args: Parameters<History['pushState']>) => {
          seen.leftAt ??= performance.now()
          return original(...args)
        }
      }
    }, UPLOAD_MESSAGES.success)

    await page.getByRole('button', { name: 'Upload Video' }).click()
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible()
    const success = page.getByText(UPLOAD_MESSAGES.success)
    await expect(success).toBeVisible({ timeout: 60_000 })
    await page.waitForURL(/\/video\/[0-9a-f-]{36}$/, { timeout: 15_000 })
    const { successAt, leftAt } = await page.evaluate(() => {
      const seen = window as unknown as { successAt?: number; leftAt?: number }
      return { successAt: seen.successAt, leftAt: seen.leftAt }
    })
    expect(successAt, 'the success message appeared').toBeDefined()
    expect(leftAt! - successAt!, 'the page moved on 1.5 s after the message').toBeGreaterThanOrEqual(1_400)

    const seen = await page.evaluate(() => (window as unknown as { progressSeen?: number[] }).progressSeen ?? [])
    expect(
      seen.some((value) => value > 0 && value < 100),
      `progress values ${seen.join(', ')}`,
    ).toBe(true)
    expect([...seen].sort((a, b) => a - b)).toEqual(seen)
  })

  test('warns about a spark of a minute or more before anything is sent', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    const long = path.join(dir, 'long.mp4')
    await makeClip(long, { width: 160, height: 90, seconds: 65, rate: 5, audio: false })
    await openUpload(page)
    await hydrated(page)
    await expect(page.getByTestId('spark-notice')).toHaveText(UPLOAD_MESSAGES.sparkNotice)
    await fillForm(page, long, 'Too long for a spark')
    await page.getByLabel('Sparks - Short Educational Clips').check()
    // Said once, next to the destination choice, with the way out (ADR 0018).
    const destination = page.getByRole('group', { name: 'Content destination' })
    await expect(destination.getByText('Sparks should be under 60 seconds', { exact: true })).toBeVisible()
    await expect(destination.getByText('This video is 1:05 long.')).toBeVisible()
    let sent = false
    page.on('request', (request) => void (request.url().includes('/upload/resumable') && (sent = true)))
    await page.getByRole('button', { name: 'Upload Video' }).click()
    await expect(page.getByText('Sparks must be under 60 seconds. This video is 65 seconds long.')).toBeVisible()
    expect(sent).toBe(false)
    await destination.getByRole('button', { name: 'Publish to the feed instead' }).click()
    await expect(page.getByLabel('Sparks - Short Educational Clips')).not.toBeChecked()
    await expect(destination.getByText('Sparks should be under 60 seconds', { exact: true })).toHaveCount(0)
  })

  test('a text file named .mp4 is refused by the server, and its upload is removed from Storage', async ({
    page,
    signedInAs,
    baseURL,
  }) => {
    await signedInAs('creator')
    await openUpload(page)
    await hydrated(page)
    await fillForm(page, media.notes, 'Not a video')
    const creation = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/upload/resumable'))
    await page.getByRole('button', { name: 'Upload Video' }).click()
    const name = objectNameOf(await creation)
    expect(name).toMatch(new RegExp(`^${DEMO_CREATOR_ID}/videos/[0-9a-f-]{36}\\.mp4$`))
    await expect(page.getByText(/^Please select a valid video file\. This file is not a video\./)).toBeVisible({
      timeout: 30_000,
    })
    await expect(page).toHaveURL(/\/upload$/)
    expect(await objectExists(baseURL!, name!)).toBe(false)
    // The form is ready for another try.
    await expect(page.getByRole('button', { name: 'Upload Video' })).toBeEnabled()
  })

  test('an upload interrupted by a reload continues from the last chunk the server has', async ({ page, signedInAs }) => {
    test.setTimeout(90_000)
    await signedInAs('creator')
    await openUpload(page)
    await hydrated(page)
    const title = `Resumed after a reload ${Date.now()}`
    await fillForm(page, media.medium, title)

    // Let the creation (first 6 MiB chunk) and one PATCH through; hold the next one, then leave the page.
    let patches = 0
    await page.route(RESUMABLE, async (route) => {
      if (route.request().method() === 'PATCH' && ++patches >= 2) return // never answered: the connection is lost
      await route.continue()
    })
    await page.getByRole('button', { name: 'Upload Video' }).click()
    await expect.poll(() => patches, { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
    // Leave while the PATCH is held; only then take the hold away (removing it first would let the
    // held PATCH through, and on a slow machine the upload then finished before the reload).
    await page.reload()
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    await hydrated(page)

    // Same file again: the upload found in localStorage continues where the server stopped.
    const offsets: number[] = []
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/upload/resumable/')) {
        offsets.push(Number(request.headers()['upload-offset']))
      }
    })
    await fillForm(page, media.medium, title)
    await page.getByRole('button', { name: 'Upload Video' }).click()
    await expect(page.getByText(UPLOAD_MESSAGES.success)).toBeVisible({ timeout: 60_000 })
    // At least the two chunks the server acknowledged before the reload (it may hold part of the third).
    expect(offsets[0]).toBeGreaterThanOrEqual(12 * MB)
    expect(offsets[0]).toBeLessThan(30 * MB)
    await page.waitForURL(/\/video\/[0-9a-f-]{36}$/)
  })

  test('a 100 MB upload survives a dropped connection and is published', async ({ page, signedInAs }) => {
    test.setTimeout(180_000)
    await signedInAs('creator')
    await openUpload(page)
    await hydrated(page)
    await fillForm(page, media.large, `A 100 MB lesson ${Date.now()}`)

    // The first PATCH's connection is reset; tus-js-client asks the server for its offset and goes on.
    const requests: { method: string; offset: number }[] = []
    page.on('request', (request) => {
      if (request.url().includes('/upload/resumable/')) {
        requests.push({ method: request.method(), offset: Number(request.headers()['upload-offset'] ?? NaN) })
      }
    })
    let dropped: number | null = null
    await page.route(RESUMABLE, async (route) => {
      if (route.request().method() !== 'PATCH' || dropped !== null) return route.continue()
      dropped = Number(route.request().headers()['upload-offset'])
      await route.abort('connectionreset')
      // Only this one request is interfered with; the rest goes at full speed.
      await page.unroute(RESUMABLE)
    })
    await page.getByRole('button', { name: 'Upload Video' }).click()
    await expect(page.getByText(UPLOAD_MESSAGES.success)).toBeVisible({ timeout: 120_000 })
    await page.waitForURL(/\/video\/[0-9a-f-]{36}$/)

    // The creation request carried the first 6 MiB; the PATCH after it was cut off.
    expect(dropped).toBe(6 * MB)
    const patches = requests.filter((request) => request.method === 'PATCH')
    expect(patches[0]!.offset).toBe(6 * MB)
    // Then: the server asked for its offset (HEAD), and the same chunk was sent again, not the file from zero.
    const retry = requests.findIndex((request, index) => index > 0 && request.method === 'HEAD')
    expect(retry).toBeGreaterThan(0)
    expect(requests[retry + 1]).toEqual({ method: 'PATCH', offset: 6 * MB })
    expect(patches.at(-1)!.offset).toBe(96 * MB)
    expect((await stat(media.large)).size).toBe(100 * MB)
  })

  test('has no serious accessibility problems, with previews shown', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    await openUpload(page)
    await hydrated(page)
    await fillForm(page, media.clip, 'Accessible upload')
    await expect(page.getByTestId('video-preview')).toBeVisible()
    await expectAccessible(page)
  })
})

test.describe('a verified creator, without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('posts the form with the file, sees the success message, then the video page', async ({ page, signedInAs }) => {
    test.setTimeout(60_000)
    await signedInAs('creator')
    await openUpload(page)
    await fillForm(page, media.clip, `Lenses, without JavaScript ${Date.now()}`)
    // The success page moves on by itself after UPLOAD_REDIRECT_MS: read it as served, which a
    // busy machine's assertions could otherwise reach only once the browser has left it.
    const successPage = page.waitForResponse(
      (response) => /\/upload\?uploaded=/.test(response.url()) && response.request().resourceType() === 'document',
    )
    await page.getByRole('button', { name: 'Upload Video' }).click()
    const served = await successPage
    expect(served.url()).toMatch(/\/upload\?uploaded=[0-9a-f-]{36}$/)
    const html = await served.text()
    expect(html).toContain(UPLOAD_MESSAGES.success)
    const id = new URL(served.url()).searchParams.get('uploaded')
    // A refresh tag takes the visitor on without JavaScript.
    expect(html).toContain(`url=/video/${id}`)
    await page.waitForURL(`**/video/${id}`, { timeout: 10_000 })
  })

  test('a refused file comes back with the server’s message and the typed fields kept', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    await openUpload(page)
    await fillForm(page, media.thumbnail, 'A picture, not a video')
    await page.getByRole('button', { name: 'Upload Video' }).click()
    await expect(page.getByText(/^Please select a valid video file\. This file is a JPG image, not a video\./)).toBeVisible()
    await expect(page.getByLabel('Title')).toHaveValue('A picture, not a video')
    await expect(page.getByText('Please choose your video again.')).toBeVisible()
  })
})

test.describe('who is turned away', () => {
  test('a learner goes to the feed, told only verified creators upload and that they can quote', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto('/upload')
    await expect(page).toHaveURL(/\/feed$/)
    await expect(page.getByTestId('flash-toast')).toContainText(UPLOAD_MESSAGES.notCreator)
  })

  test('an unverified creator goes to their profile, told they are waiting for verification', async ({ page, signedInAs }) => {
    await signedInAs('newcreator')
    await page.goto('/upload')
    await expect(page).toHaveURL(/\/profile\?verification=required$/)
    const panel = page.getByTestId('verification-required')
    await expect(panel.getByRole('heading', { name: 'Account Verification Required' })).toBeVisible()
    await expect(panel.getByRole('button', { name: 'Refresh Status' })).toBeVisible()
    // One message, once (docs/product.md, Rules and messages): no toast, no pending banner, no second status on the card.
    await expect(page.getByTestId('flash-toast')).toHaveCount(0)
    await expect(page.getByRole('region', { name: 'Your creator account is pending verification' })).toHaveCount(0)
    await expect(page.getByTestId('verification-status')).toHaveCount(0)
    await expect(page.getByRole('button', { name: /Refresh|Check Status/ })).toHaveCount(1)
    await expect(page.getByRole('region', { name: 'Profile card' })).toBeVisible()
  })

  test('a signed-out visitor signs in first', async ({ page }) => {
    await page.goto('/upload')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fupload$/)
  })
})

test.describe('on a phone', { tag: '@phone-only' }, () => {
  test('the form fits the screen and keeps the spark notice in view of the destination', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    await openUpload(page)
    await expectNoHorizontalScroll(page)
    await expect(page.getByLabel('Video file')).toBeVisible()
    await expect(page.getByTestId('spark-notice')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Upload Video' })).toBeVisible()
  })
})
