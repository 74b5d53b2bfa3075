import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, expectAccessible, expectNoHorizontalScroll, test } from './support/fixtures'

/**
 * Courses (ADR 0048) with the demo creator's lessons. The creator builds a course of three
 * lessons — with JavaScript and without — reorders them (the arrows; with JavaScript also by
 * dragging), gives one a section heading and publishes it; a visitor then sees the course
 * page with the three lessons in that order, linked to their videos, under the heading.
 * axe runs on the editor and the course page (with JavaScript: it cannot run without), and
 * on a phone the course page fits the screen. Each course is deleted at the end, so the demo
 * stays as shipped.
 */
const LESSONS = ['Why the Sky Is Blue', 'Why Stars Twinkle', 'The Game of Life: Complexity from Four Rules'] as const

const editorTitles = (page: Page) => page.locator('[data-lesson-editor] [data-lesson-title]')
const pageLessons = (page: Page) => page.locator('[data-course-lessons] li')

/** Creates a course as the signed-in creator and lands on its edit page; returns its id. */
async function createCourse(page: Page, title: string): Promise<string> {
  await page.goto('/courses/new')
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Description').fill('Light, stars and patterns, in order.')
  await page.getByRole('button', { name: 'Create course' }).click()
  await page.waitForURL(/\/course\/[0-9a-f-]{36}\/edit$/)
  await expect(page.getByRole('heading', { name: 'Edit course' })).toBeVisible()
  return /\/course\/([0-9a-f-]{36})\/edit/.exec(page.url())![1]!
}

/** Adds one of the creator's videos by its title (its option's text starts with it). */
async function addLesson(page: Page, title: string, count: number) {
  const select = page.getByLabel('Video or spark')
  // The demo content may still be processing on a cold start: its options appear once it is there.
  await expect(select.locator('option', { hasText: title })).toHaveCount(1, { timeout: 120_000 })
  const value = await select.locator('option', { hasText: title }).getAttribute('value')
  await select.selectOption(value!)
  await page.getByRole('button', { name: 'Add lesson' }).click()
  await expect(editorTitles(page)).toHaveCount(count)
  await expect(editorTitles(page).last()).toHaveText(title)
}

async function publishAndCheck(page: Page, id: string, expected: readonly string[], section: { title: string; at: number }) {
  await page.getByRole('button', { name: 'Publish course' }).click()
  await expect(page.getByRole('heading', { name: 'Published' })).toBeVisible()

  // A visitor reads it.
  await page.context().clearCookies()
  await page.goto(`/course/${id}`)
  await expect(page.locator('[data-course-summary]')).toContainText('3 lessons')
  await expect(pageLessons(page)).toHaveCount(3)
  for (const [index, title] of expected.entries()) {
    const link = pageLessons(page).nth(index).getByRole('link')
    await expect(link).toContainText(title)
    await expect(link).toHaveAttribute('href', /^\/video\/[0-9a-f-]{36}$/)
  }
  await expect(page.getByRole('heading', { name: section.title, level: 3 })).toBeVisible()
  await expect(page.locator('[data-course-lessons]').nth(1).locator('li').first()).toContainText(expected[section.at]!)
}

async function deleteCourse(page: Page, signIn: () => Promise<void>, id: string) {
  await page.context().clearCookies()
  await signIn()
  await page.goto(`/course/${id}/edit?confirm=delete`)
  await page.getByRole('button', { name: 'Delete course' }).click()
  await page.waitForURL(/\/courses$/)
  const response = await page.goto(`/course/${id}`)
  expect(response?.status()).toBe(404)
}

test.describe('with JavaScript', () => {
  test('a creator builds a 3-lesson course, reorders it by arrows and by dragging, publishes; a visitor sees it in order', async ({
    page,
    signedInAs,
  }) => {
    test.setTimeout(240_000)
    await signedInAs('creator')
    const title = `Seeing the sky ${randomUUID().slice(0, 6)}`
    const id = await createCourse(page, title)
    await expect(page.getByText('No lessons yet')).toBeVisible()
    for (const [index, lesson] of LESSONS.entries()) await addLesson(page, lesson, index + 1)
    await expect(editorTitles(page)).toHaveText([...LESSONS])

    // The arrows: the second lesson up; the focus stays with the moved lesson's button.
    await page.getByRole('button', { name: `Move “${LESSONS[1]}” up` }).click()
    await expect(editorTitles(page)).toHaveText([LESSONS[1], LESSONS[0], LESSONS[2]])
    await expect(page.getByRole('button', { name: `Move “${LESSONS[1]}” down` })).toBeFocused()

    // Dragging: the last lesson onto the first; the new order is saved at once.
    const saved = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes(`/course/${id}/edit`))
    await page
      .locator(`[data-lesson-editor] li`)
      .nth(2)
      .locator('[data-drag-handle]')
      .dragTo(page.locator('[data-lesson-editor] li').nth(0))
    await saved
    const expected = [LESSONS[2], LESSONS[1], LESSONS[0]] as const
    await expect(editorTitles(page)).toHaveText([...expected])
    await expect(page.getByTestId('flash-toast')).toHaveText('Order saved')
    await page.reload()
    await expect(editorTitles(page)).toHaveText([...expected])

    // A section heading from the second lesson on.
    await page.locator('[data-lesson-editor] li').nth(1).getByLabel('Section heading above it').fill('Going further')
    await page.getByRole('button', { name: 'Save section headings' }).click()
    await expect(page.getByTestId('flash-toast')).toHaveText('Section headings saved')
    // axe on the editor as it opens (a flash toast fading in would be measured half-transparent).
    await page.reload()
    await expect(page.getByTestId('flash-toast')).toHaveCount(0)
    await expect(page.locator('[data-lesson-editor] li').nth(1).getByLabel('Section heading above it')).toHaveValue('Going further')
    await expectAccessible(page)

    await publishAndCheck(page, id, expected, { title: 'Going further', at: 1 })
    await expectAccessible(page)
    await expectNoHorizontalScroll(page)

    // It is listed on /courses and on the creator's Courses tab.
    await page.goto('/courses')
    await expect(page.locator(`[data-course-card="${id}"]`)).toBeVisible()
    await deleteCourse(page, () => signedInAs('creator', { fresh: true }), id)
  })

  test('learners are sent away from the course editor; an admin may unpublish a course but not edit it', async ({ page, signedInAs }) => {
    test.setTimeout(180_000)
    await signedInAs('learner')
    await page.goto('/courses/new')
    await page.waitForURL(/\/feed/)
    await expect(page.getByText('Only verified creators can make courses.')).toBeVisible()

    await page.context().clearCookies()
    await signedInAs('creator', { fresh: true })
    const id = await createCourse(page, `Admin check ${randomUUID().slice(0, 6)}`)
    await addLesson(page, LESSONS[0], 1)
    await page.getByRole('button', { name: 'Publish course' }).click()
    await expect(page.getByRole('heading', { name: 'Published' })).toBeVisible()

    await page.context().clearCookies()
    await signedInAs('admin', { fresh: true })
    await page.goto(`/course/${id}`)
    await expect(page.getByRole('link', { name: 'Edit course' })).toHaveCount(0)
    await page.getByRole('button', { name: 'Unpublish' }).click()
    await expect(page.getByText('Draft — only its creator and admins can see it')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0)

    await page.context().clearCookies()
    expect((await page.goto(`/course/${id}`))?.status()).toBe(404)
    await deleteCourse(page, () => signedInAs('creator', { fresh: true }), id)
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a creator builds a 3-lesson course with plain forms, reorders it, publishes; a visitor sees it in order', async ({
    page,
    signedInAs,
  }) => {
    test.setTimeout(240_000)
    await signedInAs('creator')
    const title = `Plain course ${randomUUID().slice(0, 6)}`
    const id = await createCourse(page, title)
    for (const [index, lesson] of LESSONS.entries()) await addLesson(page, lesson, index + 1)

    await page.getByRole('button', { name: `Move “${LESSONS[0]}” down` }).click()
    await expect(editorTitles(page)).toHaveText([LESSONS[1], LESSONS[0], LESSONS[2]])
    await page.getByRole('button', { name: `Move “${LESSONS[2]}” up` }).click()
    const expected = [LESSONS[1], LESSONS[2], LESSONS[0]] as const
    await expect(editorTitles(page)).toHaveText([...expected])

    // Removing one and adding it back puts it last.
    await page.getByRole('button', { name: `Remove “${LESSONS[0]}” from the course` }).click()
    await expect(editorTitles(page)).toHaveText([LESSONS[1], LESSONS[2]])
    await addLesson(page, LESSONS[0], 3)
    await expect(editorTitles(page)).toHaveText([...expected])

    await page.locator('[data-lesson-editor] li').nth(2).getByLabel('Section heading above it').fill('Patterns')
    await page.getByRole('button', { name: 'Save section headings' }).click()
    await expect(page.getByTestId('flash-toast')).toHaveText('Section headings saved')
    await expect(page.locator('[data-lesson-editor] li').nth(2).getByLabel('Section heading above it')).toHaveValue('Patterns')

    await publishAndCheck(page, id, expected, { title: 'Patterns', at: 2 })
    await expectNoHorizontalScroll(page)
    await deleteCourse(page, () => signedInAs('creator', { fresh: true }), id)
  })
})
