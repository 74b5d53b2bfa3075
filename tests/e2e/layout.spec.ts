import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import type { APIRequestContext, BrowserContext } from '@playwright/test'
import { ffmpeg, makeClip } from '../integration/media/clips'
import { addSessionCookies, DEMO_ACCOUNTS, DEMO_PASSWORD, expect, signInForCookies, test, type Page } from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * Layouts that hold whatever users type: every user-supplied text (titles,
 * descriptions, usernames, bios, comments, quotes, report details,
 * feedback) is a 140-character word without a break, and no page at 360 px
 * or 1280 px scrolls sideways. Also the profile's tab bar: the same width on
 * every tab, every label whole.
 */
const WIDTHS = [360, 1280] as const

/** A word that never breaks by itself, different per field so a failure names its page. */
const long = (field: string) => `${field}${'W'.repeat(140 - field.length)}`

/** The page at `href` fits the viewport's width; if not, which element sticks out first. */
async function sidewaysScroll(page: Page, href: string): Promise<string | null> {
  await page.goto(href)
  return page.evaluate((where) => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth
    if (overflow <= 0) return null
    const culprit = [...document.body.querySelectorAll<HTMLElement>('*')].find(
      (element) => element.getBoundingClientRect().right > window.innerWidth + 0.5 && element.children.length === 0,
    )
    const name = culprit ? `<${culprit.tagName.toLowerCase()} class="${culprit.className}">` : 'an element'
    return `${where} at ${window.innerWidth} px scrolls sideways by ${overflow} px (${name})`
  }, href)
}

async function signedInContext(context: BrowserContext, baseURL: string, email: string, password: string) {
  await addSessionCookies(context, baseURL, await signInForCookies(baseURL, email, password))
}

async function post(request: APIRequestContext, url: string, form: Record<string, string>) {
  const response = await request.post(url, { multipart: form, maxRedirects: 0 })
  expect(response.status(), `${url}: ${await response.text().catch(() => '')}`).toBeLessThan(400)
  return response
}

test.describe('long words', () => {
  test('no page scrolls sideways at 360 px or 1280 px with 140-character words in every text field', async ({
    browser,
    page,
    baseURL,
    signedInAs,
  }) => {
    test.setTimeout(300_000)
    const origin = baseURL!
    // A creator whose username is as long as allowed and whose bio is one long word.
    const username = `w${randomUUID().replaceAll('-', '').slice(0, 29)}`
    const email = `${username}@lumen.test`
    const password = `Pw-${randomUUID()}`
    const admin = supabaseFor(origin, 'service')
    const { data: made, error } = await admin.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: { username, role: 'creator', bio: long('bio'), creator_categories: ['technology-innovation'] },
    })
    if (error || !made.user) throw new Error(`could not create ${email}: ${error?.message}`)

    const dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-layout-'))
    const author = await browser.newContext({ baseURL: origin })
    const uploader = await browser.newContext({ baseURL: origin })
    try {
      // The admin uploads (admins may), so the demo creator's own figures stay as other specs expect them.
      await signedInContext(uploader, origin, DEMO_ACCOUNTS.admin.email, DEMO_PASSWORD)
      const thumbnailPath = path.join(dir, 'thumb.jpg')
      await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x4f46e5:s=160x90', '-frames:v', '1', thumbnailPath])
      const thumbnail = await readFile(thumbnailPath)
      const uploadOne = async (type: 'video' | 'spark') => {
        const [width, height] = type === 'video' ? [160, 90] : [90, 160]
        const clip = await readFile(await makeClip(path.join(dir, `${type}.mp4`), { width, height, seconds: 1 }))
        const uploaded = await uploader.request.post('/upload', {
          multipart: {
            title: long(`${type}title`),
            description: long('description'),
            type,
            category: 'other',
            visibility: 'public',
            video: { name: 'lesson.mp4', mimeType: 'video/mp4', buffer: clip },
            thumbnail: { name: 'thumb.jpg', mimeType: 'image/jpeg', buffer: thumbnail },
          },
          maxRedirects: 0,
          timeout: 60_000,
        })
        expect(uploaded.status(), await uploaded.text().catch(() => '')).toBe(302)
        return new URL(uploaded.headers().location!, origin).searchParams.get('uploaded')!
      }
      const videoId = await uploadOne('video')
      const sparkId = await uploadOne('spark')
      for (const id of [videoId, sparkId]) {
        await expect
          .poll(async () => (await uploader.request.get(`/video/${id}`).then((r) => r.text())).includes('data-engine='), {
            timeout: 240_000,
            intervals: [2000, 3000, 5000],
          })
          .toBe(true)
      }

      // The long-named creator comments, quotes, reports and sends feedback, each one long word.
      await signedInContext(author, origin, email, password)
      await post(author.request, `/video/${videoId}`, { intent: 'comment', body: long('comment') })
      await post(author.request, '/create-quote', { videoId, type: 'text', text: long('quote') })
      await post(author.request, '/report', {
        surface: 'page',
        contentType: 'video',
        contentId: videoId,
        reason: 'spam',
        details: long('details'),
        returnTo: '/feed',
      })
      await post(author.request, '/feedback', {
        surface: 'page',
        liked: 'yes',
        usage: long('usage'),
        recommendations: long('recommendations'),
      })

      const pages = {
        author: [
          '/feed',
          '/sparks',
          `/sparks-reels?start=${sparkId}`,
          `/video/${videoId}`,
          '/profile',
          '/profile?tab=quotes',
          '/profile?tab=reports',
          '/profile?tab=following',
          '/profile/edit',
          `/creator/${made.user.id}`,
          `/creators?q=${username}`,
          `/create-quote?videoId=${videoId}`,
        ],
        admin: [
          '/dashboard',
          '/dashboard?tab=videos',
          `/dashboard/videos/${videoId}`,
          '/admin',
          '/admin/reports',
          `/admin/users?q=${username}`,
          '/admin/feedback',
          '/explore',
        ],
      }
      const problems: string[] = []
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 })
        await page.context().clearCookies()
        await signedInContext(page.context(), origin, email, password)
        for (const href of pages.author) problems.push((await sidewaysScroll(page, href)) ?? '')
        await page.context().clearCookies()
        await signedInAs('admin')
        for (const href of pages.admin) problems.push((await sidewaysScroll(page, href)) ?? '')
      }
      expect(problems.filter(Boolean)).toEqual([])
    } finally {
      await author.close()
      await uploader.close()
      await admin.auth.admin.deleteUser(made.user.id)
      await rm(dir, { recursive: true, force: true })
    }
  })
})

test.describe('the profile tab bar', () => {
  test('has one width on every tab and shows every label whole at 360 px and 1280 px', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 })
      const widths = new Set<number>()
      for (const tab of ['', '?tab=liked', '?tab=following', '?tab=quotes', '?tab=reports']) {
        await page.goto(`/profile${tab}`)
        const nav = page.getByRole('navigation', { name: 'Profile sections' })
        const box = (await nav.locator('ul').boundingBox())!
        widths.add(Math.round(box.width))
        const links = nav.getByRole('link')
        expect(await links.count()).toBeGreaterThanOrEqual(5)
        for (const link of await links.all()) {
          const clipped = await link.evaluate((element) => {
            const rect = element.getBoundingClientRect()
            const bar = element.closest('ul')!.getBoundingClientRect()
            return (
              element.scrollWidth > element.clientWidth ||
              rect.left < bar.left - 0.5 ||
              rect.right > bar.right + 0.5 ||
              rect.right > window.innerWidth
            )
          })
          expect(clipped, `"${await link.textContent()}" is clipped at ${width} px on /profile${tab}`).toBe(false)
        }
      }
      expect([...widths], `the tab bar's widths at ${width} px`).toHaveLength(1)
    }
  })
})
