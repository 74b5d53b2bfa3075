import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext } from '@playwright/test'
import { UPLOAD_MESSAGES } from '../../app/lib/schemas/upload'
import { ffmpeg, makeClip } from '../integration/media/clips'
import {
  addSessionCookies,
  authCookieName,
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  expect,
  signInForCookies,
  test,
} from './support/fixtures'
import { CHROMIUM_ARGS } from './support/chromium'
import { supabaseFor } from './support/stand-in'

/**
 * The browser's own calls (the TUS upload of a video and of a video
 * response) go to the address the page was opened at, whichever it is:
 * `localhost` (PUBLIC_URL's default), `127.0.0.1`, and a second host name
 * (Chromium maps `lumen-alt.test` to this machine). Each page's
 * Content-Security-Policy allows only its own origin, so a call built from
 * PUBLIC_URL would be blocked at the other two.
 */

const SECOND_HOST = 'lumen-alt.test'
let browser: Browser
let dir: string
const files = {} as Record<'clip' | 'thumbnail', string>


test.beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${SECOND_HOST} 127.0.0.1`],
  })
  dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-address-'))
  files.clip = await makeClip(path.join(dir, 'lesson.mp4'), {
    width: 320,
    height: 180,
    seconds: 3,
    output: ['-movflags', '+faststart'],
  })
  files.thumbnail = path.join(dir, 'thumbnail.jpg')
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x4f46e5:s=640x360', '-frames:v', '1', files.thumbnail])
})

test.afterAll(async () => {
  await browser?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The server under test at another host name (same port). */
function at(baseURL: string, host: string): string {
  const url = new URL(baseURL)
  url.hostname = host
  return url.origin
}

/**
 * A context at `origin`, signed in as `who`. The session cookie's name comes from Supabase's URL (the
 * server's configuration, `localhost`), whatever address the browser uses.
 */
async function signedInAt(baseURL: string, origin: string, who: 'creator' | 'learner'): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin })
  const cookies = await signInForCookies(baseURL, DEMO_ACCOUNTS[who].email, DEMO_PASSWORD)
  expect(cookies[0]!.name.startsWith(authCookieName(baseURL))).toBe(true)
  await addSessionCookies(context, origin, cookies)
  return context
}

/** Console errors (a Content-Security-Policy violation is one) and the origins of the TUS requests. */
function watch(context: BrowserContext) {
  const seen = { errors: [] as string[], uploads: new Set<string>() }
  context.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) seen.errors.push(message.text())
  })
  context.on('request', (request) => {
    if (request.url().includes('/storage/v1/upload/resumable')) seen.uploads.add(new URL(request.url()).origin)
  })
  return seen
}

async function publicDemoVideo(baseURL: string): Promise<string> {
  const { data, error } = await supabaseFor(baseURL, 'service').from('videos').select('id,status,is_public,type')
  if (error) throw error
  const rows = (data ?? []) as { id: string; status: string; is_public: boolean; type: string }[]
  const video = rows.find((row) => row.is_public && row.status === 'ready' && row.type === 'video')
  if (!video) throw new Error('no public demo video')
  return video.id
}

for (const host of ['localhost', '127.0.0.1', SECOND_HOST]) {
  test(`a creator uploads a video with JavaScript at ${host}`, async ({ baseURL }) => {
    test.setTimeout(90_000)
    const origin = at(baseURL!, host)
    const context = await signedInAt(baseURL!, origin, 'creator')
    const seen = watch(context)
    const page = await context.newPage()
    await page.goto('/upload')
    await expect(page.locator('form[enctype="multipart/form-data"][novalidate]')).toHaveCount(1)
    await page.getByLabel('Video file').setInputFiles(files.clip)
    await page.getByLabel('Thumbnail', { exact: true }).setInputFiles(files.thumbnail)
    await page.getByLabel('Title').fill(`Uploaded at ${host} ${Date.now()}`)
    await page.getByLabel('Description').fill('Which address the page was opened at does not matter.')
    await page.getByLabel(/^Private/).check()
    await page.getByRole('button', { name: 'Upload Video' }).click()
    await expect(page.getByText(UPLOAD_MESSAGES.success)).toBeVisible({ timeout: 60_000 })
    expect([...seen.uploads]).toEqual([origin])
    expect(seen.errors).toEqual([])
    await context.close()
  })
}

test(`a learner quotes with a video response at 127.0.0.1 and at ${SECOND_HOST}`, async ({ baseURL }) => {
  test.setTimeout(90_000)
  const videoId = await publicDemoVideo(baseURL!)
  for (const host of ['127.0.0.1', SECOND_HOST]) {
    const origin = at(baseURL!, host)
    const context = await signedInAt(baseURL!, origin, 'learner')
    const seen = watch(context)
    const page = await context.newPage()
    await page.goto(`/create-quote?videoId=${videoId}`)
    await expect(page.locator('form[novalidate]')).toHaveCount(1)
    const answer = `Answered at ${host} ${Date.now()}`
    await page.getByLabel('Quote text').fill(answer)
    await page.getByLabel(/Video Response/).check()
    await page.getByLabel('Video file').setInputFiles(files.clip)
    await page.getByRole('button', { name: 'Submit Quote' }).click()
    await expect(page).toHaveURL(new RegExp(`^${origin}/video/${videoId}`), { timeout: 60_000 })
    await expect(page.locator('#quotes li').filter({ hasText: answer })).toBeVisible()
    expect([...seen.uploads]).toEqual([origin])
    expect(seen.errors).toEqual([])
    await context.close()
  }
})
