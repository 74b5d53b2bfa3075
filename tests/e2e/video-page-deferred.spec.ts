import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * The video page's comments and quotes past the first page (ADR 0054) come as deferred data:
 * without JavaScript they are in the HTML, in place, with no "Loading" left behind; with it they
 * are there after hydration too, and again after posting a comment (the loader's data, deferred
 * part included, read again).
 */

const COMMENTS = 25
const QUOTES = 13

const TITLE = 'Fractals: Endless Detail from One Formula'

/** The demo lesson's id (read through the stand-in's REST as the service role). */
async function demoVideoId(baseURL: string): Promise<string> {
  const { data, error } = await supabaseFor(baseURL, 'service').from('videos').select('id').eq('title', TITLE).single()
  if (error || !data) throw new Error(`no demo video "${TITLE}": ${error?.message}`)
  return (data as { id: string }).id
}

/** Comments and text quotes by the signed-in learner, each with `mark` in it, posted as plain forms. */
async function postMany(page: Page, baseURL: string, id: string, mark: string) {
  const headers = { Origin: baseURL }
  for (let n = 1; n <= COMMENTS; n++) {
    const answer = await page.request.post(`/video/${id}`, {
      form: { intent: 'comment', body: `${mark} comment number ${n}` },
      headers,
      maxRedirects: 0,
    })
    expect(answer.status(), await answer.text()).toBe(302)
  }
  for (let n = 1; n <= QUOTES; n++) {
    const answer = await page.request.post('/create-quote', {
      multipart: { videoId: id, type: 'text', text: `${mark} quote number ${n}` },
      headers,
      maxRedirects: 0,
    })
    expect(answer.status(), await answer.text()).toBe(302)
  }
}

async function expectAll(page: Page, mark: string, comments: number, newest: string) {
  const commentItems = page.locator('#comments li[id^="comment-"]').filter({ hasText: mark })
  // After a post, the page's data is read again and rendered: on a busy machine that takes a while.
  await expect(commentItems).toHaveCount(comments, { timeout: 20_000 })
  // Newest first, the oldest last: the deferred rest follows the first page in order.
  await expect(commentItems.first()).toContainText(newest)
  await expect(commentItems.last()).toContainText(`${mark} comment number 1`)
  const quoteItems = page.locator('#quotes li[id^="quote-"]').filter({ hasText: mark })
  await expect(quoteItems).toHaveCount(QUOTES)
  await expect(quoteItems.first()).toContainText(`${mark} quote number ${QUOTES}`)
  await expect(quoteItems.last()).toContainText(`${mark} quote number 1`)
  await expect(page.getByText(/Loading more (comments|quotes)/)).toHaveCount(0)
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('every comment and quote is on the page, past the first page too', async ({ page, baseURL, makeUser, signedInAs }) => {
      test.slow()
      const mark = `[${randomUUID().slice(0, 8)}]`
      const id = await demoVideoId(baseURL!)
      await signedInAs(await makeUser())
      await postMany(page, baseURL!, id, mark)
      await page.goto(`/video/${id}`)
      await expectAll(page, mark, COMMENTS, `${mark} comment number ${COMMENTS}`)

      if (javaScriptEnabled) {
        // Posting reads the page's data again, its deferred part included.
        await page.getByLabel('Add a comment').fill(`${mark} comment added here`)
        await page.getByRole('button', { name: 'Post Comment' }).click()
        await expectAll(page, mark, COMMENTS + 1, `${mark} comment added here`)
      }
    })
  })
}
