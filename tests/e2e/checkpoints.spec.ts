import type { Locator, Page } from '@playwright/test'
import { expect, expectAccessible, test } from './support/fixtures'

/**
 * Checkpoints (ADR 0047) on the demo content. With JavaScript: the creator adds
 * two checkpoints; a learner who seeks past the required one at 0:08 is stopped
 * there, answers wrongly (sees the explanation, must try again), then rightly and
 * goes on; the insights page shows 0% right on first try, then the aggregate once
 * a second learner answers right. Without JavaScript: the "Check yourself" form.
 * The answer's explanation is in no page or /api answer before answering.
 * Each test starts by deleting the video's checkpoints, so it can run again.
 */

const EXPLANATION = 'Starlight bends through moving layers of air.'

async function demoVideoId(page: Page, title: string, search: string): Promise<string> {
  const link = page.locator('[data-video-card]').filter({ hasText: title }).getByRole('link', { name: title, exact: true })
  await expect(async () => {
    await page.goto(`/feed?search=${encodeURIComponent(search)}`)
    await expect(link).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 180_000 })
  return /\/video\/([0-9a-f-]{36})/.exec((await link.getAttribute('href'))!)![1]!
}

/** On the authoring page: removes every checkpoint (a run before may have left some). */
async function clearCheckpoints(page: Page, id: string) {
  await page.goto(`/video/${id}/checkpoints`)
  const deletes = page.getByRole('list').getByRole('button', { name: /^Delete/ })
  while ((await deletes.count()) > 0) {
    const before = await deletes.count()
    await deletes.first().click()
    await expect(deletes).toHaveCount(before - 1)
  }
  await expect(page.getByText('No checkpoints yet')).toBeVisible()
}

async function addCheckpoint(
  page: Page,
  input: { at: string; question: string; options: string[]; correct: number[]; explanation?: string; required: boolean },
) {
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add checkpoint' }) })
  await form.getByLabel('Moment').fill(input.at)
  await form.getByLabel('Question').fill(input.question)
  for (const [index, option] of input.options.entries())
    await form.getByLabel(`Option ${index + 1}`, { exact: true }).fill(option)
  for (const index of input.correct) await form.getByLabel(`Correct (option ${index + 1})`).check()
  if (input.explanation) await form.getByLabel('Explanation (optional)').fill(input.explanation)
  if (input.required) await form.getByLabel(/^Required/).check()
  await form.getByRole('button', { name: 'Add checkpoint' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Checkpoint added' }).first()).toBeVisible()
  await expect(page.getByTestId('checkpoint-list')).toContainText(input.question)
}

const currentTime = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime)

test.describe('with JavaScript', () => {
  test('a learner is stopped at the required checkpoint, answers wrongly then rightly, and the creator sees the rate', async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    test.setTimeout(240_000)
    await signedInAs('creator')
    const id = await demoVideoId(page, 'Why Stars Twinkle', 'stars twinkle')
    await clearCheckpoints(page, id)
    await addCheckpoint(page, {
      at: '0:08',
      question: 'Why do stars twinkle?',
      options: ['They blink on and off', 'Moving air bends their light', 'Clouds pass in front'],
      correct: [1],
      explanation: EXPLANATION,
      required: true,
    })
    await addCheckpoint(page, {
      at: '0:15',
      question: 'Do planets twinkle as much as stars?',
      options: ['Less', 'More'],
      correct: [0],
      required: false,
    })

    // The learner: no key in the page's HTML or in /api before answering.
    await page.context().clearCookies()
    await signedInAs(await makeUser())
    await page.goto(`/video/${id}`)
    expect(await page.content()).not.toContain(EXPLANATION)
    const listed = await page.request.get(`/api/videos/${id}/checkpoints`)
    expect(listed.ok()).toBe(true)
    expect(await listed.text()).not.toContain(EXPLANATION)
    await expect(page.locator('[data-player-marks] [data-mark-kind="checkpoint"]')).toHaveCount(2)

    const video = page.locator(`[data-video-id="${id}"] video`)
    await expect(video).toHaveAttribute('data-engine', 'hls.js', { timeout: 20_000 })
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true
      return element.play()
    })
    await expect.poll(() => currentTime(video)).toBeGreaterThan(0)
    // Seeking past the required checkpoint stops at it.
    await video.evaluate((element: HTMLVideoElement) => {
      element.currentTime = 12
    })
    const dialog = page.getByRole('dialog', { name: 'Question at 0:08' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('heading', { name: 'Question at 0:08' })).toBeFocused()
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true)
    await expect.poll(() => currentTime(video)).toBeLessThan(8.5)
    expect(await currentTime(video)).toBeGreaterThanOrEqual(7.9)

    // Playing again does not get past it either.
    await video.evaluate((element: HTMLVideoElement) => element.play().catch(() => {}))
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true)
    expect(await currentTime(video)).toBeLessThan(8.5)

    // Wrong: the explanation, and Try again (no Continue).
    await dialog.getByRole('radio', { name: 'They blink on and off' }).check()
    await dialog.getByRole('button', { name: 'Check answer' }).click()
    await expect(dialog.getByRole('status')).toHaveText('Not quite.')
    await expect(dialog.getByText(EXPLANATION)).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Continue' })).toHaveCount(0)
    await expectAccessible(page)
    await dialog.getByRole('button', { name: 'Try again' }).click()

    // Right: Continue plays on past 0:08, and focus is back on the player.
    await dialog.getByRole('radio', { name: 'Moving air bends their light' }).check()
    await dialog.getByRole('button', { name: 'Check answer' }).click()
    await expect(dialog.getByRole('status')).toHaveText('Right!')
    await expect(dialog.getByRole('button', { name: 'Continue' })).toBeFocused()
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await expect(dialog).toHaveCount(0)
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(8.6)

    // The creator: 0% right on the first try.
    await page.context().clearCookies()
    await signedInAs('creator')
    await page.goto(`/dashboard/videos/${id}`)
    const row = page.getByTestId('checkpoint-stats').getByRole('row').filter({ hasText: 'Why do stars twinkle?' })
    await expect(row.getByTestId('first-try-rate')).toHaveText('0%')
    await expect(row).toContainText('They blink on and off')

    // A second learner right at once (through the Check yourself form): 50%.
    await page.context().clearCookies()
    await signedInAs(await makeUser())
    await page.goto(`/video/${id}`)
    const check = page.getByRole('region', { name: 'Check yourself' })
    await check.getByRole('radio', { name: 'Moving air bends their light' }).check()
    await check.getByRole('button', { name: 'Check answers' }).click()
    await expect(check.getByTestId('checkpoint-result').first()).toContainText('Right')
    await page.context().clearCookies()
    await signedInAs('creator')
    await page.goto(`/dashboard/videos/${id}`)
    await expect(row.getByTestId('first-try-rate')).toHaveText('50%')
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the creator adds a checkpoint and a learner answers it in the Check yourself form', async ({
    page,
    signedInAs,
    makeUser,
  }) => {
    test.setTimeout(240_000)
    await signedInAs('creator')
    const id = await demoVideoId(page, 'The Game of Life: Complexity from Four Rules', 'game of life')
    await clearCheckpoints(page, id)
    await addCheckpoint(page, {
      at: '0:08',
      question: 'How many rules does the Game of Life have?',
      options: ['Two', 'Four', 'Ten'],
      correct: [1],
      explanation: 'Birth, survival, loneliness and overcrowding.',
      required: true,
    })

    await page.context().clearCookies()
    await signedInAs(await makeUser())
    await page.goto(`/video/${id}`)
    expect(await page.content()).not.toContain('Birth, survival')
    const check = page.getByRole('region', { name: 'Check yourself' })
    await check.getByRole('radio', { name: 'Ten' }).check()
    await check.getByRole('button', { name: 'Check answers' }).click()
    await expect(page).toHaveURL(new RegExp(`/video/${id}#check-yourself$`))
    await expect(check.getByTestId('checkpoint-result')).toContainText('Not right')
    await expect(check.getByTestId('checkpoint-result')).toContainText('Birth, survival, loneliness and overcrowding.')
    await check.getByRole('radio', { name: 'Four' }).check()
    await check.getByRole('button', { name: 'Check answers' }).click()
    await expect(check.getByTestId('checkpoint-result')).toContainText('Right')
    await expect(check).toContainText('Your answers: 1 of 1 right.')

    // Profile → Progress: the video with the learner's score.
    await page.goto('/profile?tab=progress')
    await expect(page.getByTestId('progress-list').getByRole('listitem').filter({ hasText: 'The Game of Life' })).toContainText(
      '1 of 1 right',
    )
  })
})
