import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { ffmpeg, makeClip } from '../integration/media/clips'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, expect, expectAccessible, test } from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * Sparks lead to lessons (ADR 0050). The demo lessons are under a minute, so each worker
 * uploads its own through the API as the demo creator — a 4-minute lesson and a 6 s spark —
 * and the media pipeline processes them. The creator links the spark to the lesson at 3:12 on
 * the spark's edit page, with JavaScript and without (a bad moment first, shown on its
 * field); a learner's "Watch the full lesson" opens the lesson at 3:12 — with JavaScript the
 * player is at ≈ 192 s, without it the link carries `t=192` and the page starts the player
 * there; the lesson lists the spark under "Sparks from this lesson", opening the reel viewer
 * at that clip, whose own "Watch the full lesson" works on a phone too (tagged @phone). axe checks the new parts.
 */

const MOMENT = 192

interface Made {
  lessonId: string
  lessonTitle: string
  sparkId: string
  sparkTitle: string
}

let made: Promise<Made> | null = null

async function creatorToken(baseURL: string): Promise<string> {
  const { data, error } = await supabaseFor(baseURL, 'anon').auth.signInWithPassword({
    email: DEMO_ACCOUNTS.creator.email,
    password: DEMO_PASSWORD,
  })
  if (error || !data.session) throw new Error(`could not sign in as the demo creator: ${error?.message}`)
  return data.session.access_token
}

/** The lesson and the spark of this worker, uploaded once and processed by the media worker. */
function lessonAndSpark(baseURL: string): Promise<Made> {
  made ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'lumen-spark-lessons-'))
    // The clips are the server's once uploaded: nothing is left in the temporary folder, failed or not.
    const { lessonId, lessonTitle, sparkId, sparkTitle } = await uploadLessonAndSpark(baseURL, dir).finally(() =>
      rm(dir, { recursive: true, force: true }),
    )
    const service = supabaseFor(baseURL, 'service')
    await expect
      .poll(
        async () => {
          const { data } = await service
            .from('videos')
            .select('id,status')
            .eq('creator_id', await creatorId(baseURL))
          const rows = (data ?? []) as { id: string; status: string }[]
          return [lessonId, sparkId].map((id) => rows.find((row) => row.id === id)?.status).join(',')
        },
        { timeout: 420_000, intervals: [2000, 5000] },
      )
      .toBe('ready,ready')
    return { lessonId, lessonTitle, sparkId, sparkTitle }
  })()
  return made
}

/** A 4-minute lesson and a 6-second spark made in `dir` and uploaded by the demo creator (not yet processed). */
async function uploadLessonAndSpark(baseURL: string, dir: string): Promise<Made> {
  const [lessonFile, sparkFile, thumbnail] = [
    path.join(dir, 'lesson.mp4'),
    path.join(dir, 'spark.mp4'),
    path.join(dir, 'thumbnail.jpg'),
  ]
  const faststart = ['-movflags', '+faststart', '-g', '10']
  await makeClip(lessonFile, { width: 160, height: 90, seconds: 240, rate: 5, audio: false, output: faststart })
  await makeClip(sparkFile, { width: 90, height: 160, seconds: 6, rate: 10, audio: false, output: faststart })
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x4f46e5:s=320x180', '-frames:v', '1', thumbnail])
  const token = await creatorToken(baseURL)
  const suffix = randomUUID().slice(0, 8)
  const upload = async (file: string, title: string, type: 'video' | 'spark') => {
    const form = new FormData()
    form.set('videoFile', new Blob([await readFile(file)], { type: 'video/mp4' }), path.basename(file))
    form.set('thumbnailFile', new Blob([await readFile(thumbnail)], { type: 'image/jpeg' }), 'thumbnail.jpg')
    form.set('title', title)
    form.set('description', 'Made by the spark lessons e2e test.')
    form.set('type', type)
    const answer = await fetch(`${baseURL}/api/videos/upload-cloudinary`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    })
    if (answer.status !== 201) throw new Error(`upload refused: ${answer.status} ${await answer.text()}`)
    return ((await answer.json()) as { id: string }).id
  }
  const lessonTitle = `Lesson with sparks ${suffix}`
  const sparkTitle = `Spark from a lesson ${suffix}`
  const lessonId = await upload(lessonFile, lessonTitle, 'video')
  return { lessonId, lessonTitle, sparkId: await upload(sparkFile, sparkTitle, 'spark'), sparkTitle }
}

async function creatorId(baseURL: string): Promise<string> {
  const { data } = await supabaseFor(baseURL, 'service')
    .from('profiles')
    .select('id')
    .eq('username', DEMO_ACCOUNTS.creator.username)
    .single()
  return (data as { id: string }).id
}

/** The link as the API sets it (the creator's PUT /api/videos/{id}): each viewing test starts from it. */
async function linkThroughApi(baseURL: string, video: Made, lessonAt: number | null) {
  const answer = await fetch(`${baseURL}/api/videos/${video.sparkId}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${await creatorToken(baseURL)}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: video.sparkTitle,
      description: 'Made by the spark lessons e2e test.',
      lessonId: video.lessonId,
      lessonAt,
    }),
  })
  expect(answer.status).toBe(200)
}

const watchLesson = (scope: Page | Locator) => scope.getByRole('link', { name: /^Watch the full lesson/ })
const currentTime = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime)

async function setOnEditPage(page: Page, video: Made, hydrated: boolean) {
  await page.goto(`/video/${video.sparkId}/edit`)
  if (hydrated) await page.waitForFunction(() => Boolean((window as unknown as { __remixContext?: unknown }).__remixContext))
  const fields = page.locator('[data-spark-lesson-fields]')
  await fields.getByLabel('Lesson').selectOption(video.lessonId)
  // A moment that is not one: refused on its field, nothing saved.
  await fields.getByLabel('From (optional)').fill('3:75')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(fields.getByText('Please enter the moment as 3:12, 1:02:03 or a number of seconds')).toBeVisible()
  await expect(fields.getByLabel('From (optional)')).toHaveValue('3:75')
  await expect(fields.getByLabel('From (optional)')).toHaveAttribute('aria-invalid', 'true')
  await fields.getByLabel('From (optional)').fill('3:12')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await page.waitForURL(new RegExp(`/video/${video.sparkId}$`))
  await expect(watchLesson(page)).toHaveAttribute('href', `/video/${video.lessonId}?t=${MOMENT}`)
  await expect(page.getByText('From 3:12', { exact: true })).toBeVisible()
}

test.describe('with JavaScript', () => {
  test('the creator links the spark to the lesson at 3:12 on the edit page', async ({ page, signedInAs, baseURL }) => {
    test.setTimeout(480_000)
    const video = await lessonAndSpark(baseURL!)
    await linkThroughApi(baseURL!, video, null)
    await signedInAs('creator')
    await setOnEditPage(page, video, true)
    await expectAccessible(page)
    await page.goto(`/video/${video.sparkId}/edit`)
    await expect(page.getByLabel('From (optional)')).toHaveValue('3:12')
    await expectAccessible(page)
  })

  test('Watch the full lesson opens the lesson at 3:12: the player is there', async ({ page, signedInAs, baseURL }) => {
    test.setTimeout(480_000)
    const video = await lessonAndSpark(baseURL!)
    await linkThroughApi(baseURL!, video, MOMENT)
    await signedInAs('learner')
    await page.goto(`/video/${video.sparkId}`)
    await page.waitForFunction(() => Boolean((window as unknown as { __remixContext?: unknown }).__remixContext))
    await expect(page.getByRole('region', { name: 'From a lesson' })).toContainText(video.lessonTitle)
    await watchLesson(page).click()
    await page.waitForURL(new RegExp(`/video/${video.lessonId}\\?t=${MOMENT}$`))
    const player = page.locator(`[data-video-id="${video.lessonId}"] video`)
    await expect.poll(() => currentTime(player), { timeout: 30_000 }).toBeGreaterThanOrEqual(MOMENT - 1)
    expect(await currentTime(player)).toBeLessThan(MOMENT + 10)
  })

  test('the lesson lists the spark, which opens the reel viewer at that clip', async ({ page, signedInAs, baseURL }) => {
    test.setTimeout(480_000)
    const video = await lessonAndSpark(baseURL!)
    await linkThroughApi(baseURL!, video, MOMENT)
    await signedInAs('learner')
    await page.goto(`/video/${video.lessonId}`)
    const list = page.getByRole('region', { name: 'Sparks from this lesson' })
    const clip = list.getByRole('link', { name: new RegExp(video.sparkTitle) })
    await expect(clip).toHaveAttribute('href', `/sparks-reels?start=${video.sparkId}#reel-${video.sparkId}`)
    await expect(clip).toContainText('3:12')
    await expectAccessible(page)
    await clip.click()
    await page.waitForURL(/\/sparks-reels\?start=/)
    await expect(page.locator(`#reel-${video.sparkId}`)).toHaveAttribute('aria-current', 'true')
  })

  test(
    'in the reel viewer, the clip’s Watch the full lesson opens the lesson at 3:12',
    { tag: '@phone' },
    async ({ page, signedInAs, baseURL }) => {
      test.setTimeout(480_000)
      const video = await lessonAndSpark(baseURL!)
      await linkThroughApi(baseURL!, video, MOMENT)
      await signedInAs('learner')
      await page.goto(`/sparks-reels?start=${video.sparkId}#reel-${video.sparkId}`)
      const reel = page.locator(`#reel-${video.sparkId}`)
      await expect(reel).toHaveAttribute('aria-current', 'true')
      const link = watchLesson(reel)
      await expect(link).toBeInViewport()
      await expect(link).toHaveAttribute('href', `/video/${video.lessonId}?t=${MOMENT}`)
      await expect(link).toHaveAccessibleName(new RegExp(`Watch the full lesson: ${video.lessonTitle} from 3:12`))
      await expectAccessible(page)
      await link.click()
      await page.waitForURL(new RegExp(`/video/${video.lessonId}\\?t=${MOMENT}$`))
      const player = page.locator(`[data-video-id="${video.lessonId}"] video`)
      await expect.poll(() => currentTime(player), { timeout: 30_000 }).toBeGreaterThanOrEqual(MOMENT - 1)
    },
  )
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the creator links the spark at 3:12 with the plain form', async ({ page, signedInAs, baseURL }) => {
    test.setTimeout(480_000)
    const video = await lessonAndSpark(baseURL!)
    await linkThroughApi(baseURL!, video, null)
    await signedInAs('creator')
    await setOnEditPage(page, video, false)
  })

  test('Watch the full lesson carries t=192 and the lesson page starts there; the lesson lists the spark', async ({
    page,
    signedInAs,
    baseURL,
  }) => {
    test.setTimeout(480_000)
    const video = await lessonAndSpark(baseURL!)
    await linkThroughApi(baseURL!, video, MOMENT)
    await signedInAs('learner')
    await page.goto(`/sparks-reels?start=${video.sparkId}`)
    await expect(watchLesson(page.locator(`#reel-${video.sparkId}`))).toHaveAttribute(
      'href',
      `/video/${video.lessonId}?t=${MOMENT}`,
    )
    await page.goto(`/video/${video.sparkId}`)
    const link = watchLesson(page)
    await expect(link).toHaveAttribute('href', `/video/${video.lessonId}?t=${MOMENT}`)
    await link.click()
    await page.waitForURL(new RegExp(`/video/${video.lessonId}\\?t=${MOMENT}$`))
    // The server-rendered player starts at the moment (the MP4's media fragment).
    await expect(page.locator(`[data-video-id="${video.lessonId}"] video source[type="video/mp4"]`)).toHaveAttribute(
      'src',
      new RegExp(`#t=${MOMENT}$`),
    )
    await expect(
      page.getByRole('region', { name: 'Sparks from this lesson' }).getByRole('link', { name: new RegExp(video.sparkTitle) }),
    ).toHaveAttribute('href', `/sparks-reels?start=${video.sparkId}#reel-${video.sparkId}`)
  })
})
