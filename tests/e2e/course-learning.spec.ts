import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { randomUUID } from 'node:crypto'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, expect, expectAccessible, expectNoHorizontalScroll, test } from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * Learning a course (ADR 0048) on the demo content: a 3-lesson course of the demo
 * creator's videos is made for each test (through /api, as the creator) and deleted
 * after. A learner starts the course, finishes lesson 1 and
 * sees "1 of 3 lessons finished" on the course page and in My learning, with Continue at
 * lesson 2; at the end of lesson 1 Next lesson opens lesson 2 — with JavaScript after a
 * 5 s countdown that can be cancelled, without it through the plain link under the
 * player. The creator's dashboard counts the learner in the course's funnel.
 */

interface Lesson {
  id: string
  title: string
  duration: number
}

async function makeCourse(
  baseURL: string,
  request: APIRequestContext,
): Promise<{ id: string; title: string; lessons: Lesson[]; remove: () => Promise<void> }> {
  const service = supabaseFor(baseURL, 'service')
  const { data: creator } = await service.from('profiles').select('id').eq('username', DEMO_ACCOUNTS.creator.username).single()
  const creatorId = (creator as { id: string }).id
  let lessons: Lesson[] = []
  await expect
    .poll(
      async () => {
        const { data } = await service
          .from('videos')
          .select('id,title,type,status,is_public,external_url,hls_path,duration_seconds,created_at')
          .eq('creator_id', creatorId)
        const rows = (data ?? []) as {
          id: string
          title: string
          type: string
          status: string
          is_public: boolean
          external_url: string | null
          hls_path: string | null
          duration_seconds: number | null
          created_at: string
        }[]
        // The stand-in's REST API has no `order`: the oldest videos first, sorted here.
        rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
        lessons = rows
          .filter(
            (row) =>
              row.type === 'video' && row.status === 'ready' && row.is_public && !row.external_url && row.hls_path && row.duration_seconds,
          )
          .slice(0, 3)
          .map((row) => ({ id: row.id, title: row.title, duration: Number(row.duration_seconds) }))
        return lessons.length
      },
      { timeout: 420_000, intervals: [3000, 5000, 10_000] },
    )
    .toBe(3)
  // The creator makes and publishes it through /api, as a script would (the stand-in's REST API only reads).
  const { data: session, error } = await supabaseFor(baseURL, 'anon').auth.signInWithPassword({
    email: DEMO_ACCOUNTS.creator.email,
    password: DEMO_PASSWORD,
  })
  if (error || !session.session) throw new Error(`could not sign the creator in: ${error?.message}`)
  const headers = { Authorization: `Bearer ${session.session.access_token}` }
  const title = `Light, step by step ${randomUUID().slice(0, 6)}`
  const made = await request.post('/api/courses', {
    headers,
    data: { title, description: 'Three lessons in order.', lessons: lessons.map((lesson) => ({ videoId: lesson.id })), published: true },
  })
  expect(made.status(), await made.text()).toBe(201)
  const id = ((await made.json()) as { _id: string })._id
  return {
    id,
    title,
    lessons,
    remove: async () => {
      expect((await request.delete(`/api/courses/${id}`, { headers })).status()).toBe(200)
    },
  }
}

const panel = (page: Page) => page.getByRole('region', { name: /Your progress|Take this course/ })

async function playToEnd(video: Locator) {
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true
    element.currentTime = Math.max(0, element.duration - 1.5)
    await element.play()
  })
}

test.describe('with JavaScript', () => {
  test.skip(({ isMobile }) => isMobile, 'the player runs on desktop; the course page on a phone is checked without JavaScript')

  test('a learner starts the course, finishes lesson 1, and Next lesson counts down to lesson 2', async ({
    page,
    signedInAs,
    makeUser,
    baseURL,
  }) => {
    test.setTimeout(240_000)
    const course = await makeCourse(baseURL!, page.request)
    try {
      const [one, two] = course.lessons
      await signedInAs(await makeUser())
      await page.goto(`/course/${course.id}`)
      await page.getByRole('button', { name: 'Start course' }).click()
      const start = page.getByRole('link', { name: /^Start: Lesson 1/ })
      await expect(start).toBeFocused()
      await expect(panel(page)).toContainText('0 of 3 lessons finished')
      await expect(page.getByRole('status').filter({ hasText: 'You are enrolled' })).toBeAttached()
      await expectAccessible(page)
      await start.click()
      await page.waitForURL(`**/video/${one!.id}`)

      const line = page.getByRole('navigation', { name: 'Course' })
      await expect(line).toContainText(`Lesson 1 of 3 in ${course.title}`)
      const video = page.locator(`[data-video-id="${one!.id}"] video`)
      await expect(video).toHaveAttribute('data-engine', 'hls.js', { timeout: 20_000 })
      // A pointer on the player has hls.js take the element over and load the start (ADR 0057).
      await video.dispatchEvent('pointerdown')
      await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(2)

      // The end: the card takes focus; Escape cancels the countdown.
      const card = page.locator('[data-next-lesson-card]')
      await playToEnd(video)
      await expect(card).toBeFocused({ timeout: 20_000 })
      await expect(card).toContainText(`Next lesson: ${two!.title}`)
      await expect(card.locator('[data-countdown]')).toBeVisible()
      // Escape at once (axe first could outlast the 5 s countdown); axe runs on the cancelled card.
      await page.keyboard.press('Escape')
      await expect(card).toContainText('Autoplay cancelled')
      await expectAccessible(page)
      await expect(card.locator('[data-countdown]')).toHaveCount(0)
      // Focus was nowhere in particular (the test played the video by script): it lands on Play now.
      await expect(card.getByRole('link', { name: 'Play now' })).toBeFocused()

      // Played to the end again, it counts down and opens lesson 2 by itself.
      await playToEnd(video)
      await expect(card.locator('[data-countdown]')).toBeVisible({ timeout: 20_000 })
      await page.waitForURL(`**/video/${two!.id}`, { timeout: 15_000 })
      await expect(page.getByRole('navigation', { name: 'Course' })).toContainText('Lesson 2 of 3')

      await expect(async () => {
        await page.goto(`/course/${course.id}`)
        await expect(panel(page)).toContainText('1 of 3 lessons finished', { timeout: 1_000 })
      }).toPass({ timeout: 20_000 })
      await expect(page.getByRole('progressbar', { name: 'Lessons finished' })).toHaveAttribute('aria-valuenow', '1')
      await expect(page.locator('[data-lesson-state]').first()).toContainText('Finished')
      // Lesson 2 was opened (and maybe started): Continue is at lesson 2 either way.
      await expect(page.getByRole('link', { name: /^Continue: Lesson 2/ })).toHaveAttribute('href', new RegExp(`/video/${two!.id}`))

      await page.goto('/profile?tab=learning')
      const entry = page.locator(`[data-learning-course="${course.id}"]`)
      await expect(entry).toContainText('1 of 3 lessons finished')
      await expect(entry.getByRole('link', { name: /^Continue: Lesson 2/ })).toBeVisible()
      await expectAccessible(page)

      // Leaving is optimistic: the panel offers Start course again at once.
      await page.goto(`/course/${course.id}`)
      await page.getByRole('button', { name: 'Leave course' }).click()
      await expect(page.getByRole('button', { name: 'Start course' })).toBeVisible()
      await page.goto('/profile?tab=learning')
      await expect(entry).toHaveCount(0)
      await expect(page.getByText('No courses yet')).toBeVisible()

      // The creator's dashboard: the learner reached lessons 1 and 2 and finished 1, then left (counts only).
      await page.context().clearCookies()
      await signedInAs('creator')
      await page.goto('/dashboard')
      const funnel = page.locator(`[data-course-funnel="${course.id}"]`)
      await expect(funnel).toContainText('0 learners enrolled')
      await expectAccessible(page)
    } finally {
      await course.remove()
    }
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a visitor is asked to sign in; a learner enrolls with a form, finishes lesson 1 and follows the Next lesson link', async ({
    page,
    signedInAs,
    makeUser,
    baseURL,
  }) => {
    test.setTimeout(240_000)
    const course = await makeCourse(baseURL!, page.request)
    try {
      const [one, two] = course.lessons
      await page.goto(`/course/${course.id}`)
      await expect(panel(page).getByRole('link', { name: 'Sign in to start' })).toHaveAttribute(
        'href',
        `/login?redirectTo=${encodeURIComponent(`/course/${course.id}`)}`,
      )
      await expectNoHorizontalScroll(page)

      await signedInAs(await makeUser())
      await page.goto(`/course/${course.id}`)
      await page.getByRole('button', { name: 'Start course' }).click()
      await expect(page.getByText('You are enrolled. Start with the first lesson.')).toBeVisible()
      await expect(panel(page)).toContainText('0 of 3 lessons finished')
      await expect(page.getByRole('link', { name: /^Start: Lesson 1/ })).toHaveAttribute('href', `/video/${one!.id}`)
      await expectNoHorizontalScroll(page)

      // What the player reports at the end of lesson 1 (the page's own cookies).
      const report = await page.request.post('/views/report', {
        form: { session: randomUUID(), video: one!.id, played: '0', position: String(one!.duration) },
        headers: { Origin: baseURL! },
      })
      expect(report.status()).toBe(200)

      await page.goto(`/course/${course.id}`)
      await expect(panel(page)).toContainText('1 of 3 lessons finished')
      await expect(page.locator('[data-lesson-state]').nth(0)).toContainText('Finished')
      await expect(page.locator('[data-lesson-state]').nth(1)).toContainText('Not started')
      await expect(page.getByRole('link', { name: /^Continue: Lesson 2/ })).toHaveAttribute('href', `/video/${two!.id}`)
      await expectNoHorizontalScroll(page)

      await page.goto('/profile?tab=learning')
      const entry = page.locator(`[data-learning-course="${course.id}"]`)
      await expect(entry).toContainText('1 of 3 lessons finished')
      await expect(entry.getByRole('link', { name: /^Continue: Lesson 2/ })).toHaveAttribute('href', `/video/${two!.id}`)

      await page.goto(`/video/${one!.id}`)
      const line = page.getByRole('navigation', { name: 'Course' })
      await expect(line).toContainText(`Lesson 1 of 3 in ${course.title}`)
      await line.getByRole('link', { name: /^Next lesson/ }).click()
      await expect(page).toHaveURL(new RegExp(`/video/${two!.id}$`))
      await expect(page.getByRole('navigation', { name: 'Course' })).toContainText('Lesson 2 of 3')

      // The creator's dashboard counts the learner, never names them (opening lesson 2 without JavaScript saved no position).
      await page.context().clearCookies()
      await signedInAs('creator')
      await page.goto('/dashboard')
      const funnel = page.locator(`[data-course-funnel="${course.id}"]`)
      await expect(funnel).toContainText('1 learner enrolled')
      await expect(funnel.locator('[data-funnel-lesson="1"] td')).toHaveText(['1', '1'])
      await expect(funnel.locator('[data-funnel-lesson="2"] td')).toHaveText(['0', '0'])
    } finally {
      await course.remove()
    }
  })
})
