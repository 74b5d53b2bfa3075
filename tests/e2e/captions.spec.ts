import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'

/**
 * Captions (ADR 0019) on the demo content, which ships English captions: a creator
 * adds and deletes a track; a learner turns captions on and a cue is showing over the
 * video, clicks a transcript line and the player seeks there, and finds a video by a
 * phrase said in it, landing on that moment — with JavaScript on and off.
 */

const PHRASE = 'Rayleigh scattering'
const SAID_LINE = 'This is Rayleigh scattering: it grows with the fourth power of frequency.'
const SAID_AT = 9

/** The demo video that says the phrase, found through the feed's search (its card opens it at the moment). */
async function openByWhatIsSaid(page: Page): Promise<string> {
  await page.goto(`/feed?search=${encodeURIComponent(PHRASE)}`)
  const card = page.locator('[data-video-card]').filter({ hasText: 'Why the Sky Is Blue' })
  await expect(card.locator(`[data-said-at="${SAID_AT}"]`)).toContainText(SAID_LINE)
  const link = card.getByRole('link', { name: 'Why the Sky Is Blue', exact: true })
  await expect(link).toHaveAttribute('href', new RegExp(`^/video/[0-9a-f-]{36}\\?t=${SAID_AT}$`))
  const id = /\/video\/([0-9a-f-]{36})/.exec((await link.getAttribute('href'))!)![1]!
  await link.click()
  await page.waitForURL(new RegExp(`/video/${id}\\?t=${SAID_AT}$`))
  return id
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
  expect(
    serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target).join(', ')})`),
  ).toEqual([])
}

const currentTime = (page: Page) =>
  page
    .locator('video')
    .first()
    .evaluate((video: HTMLVideoElement) => video.currentTime)

test.describe('with JavaScript', () => {
  test('a learner finds a video by what is said and lands on that moment', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await openByWhatIsSaid(page)
    await expect.poll(() => currentTime(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(SAID_AT - 0.5)
  })

  // The cue over the video and the transcript beside or below it: laid out differently on a phone.
  test(
    'a learner turns captions on, sees a cue over the video, and a transcript line seeks the player',
    { tag: '@phone' },
    async ({ page, signedInAs }) => {
      await signedInAs('learner')
      const id = await openByWhatIsSaid(page)
      const video = page.locator(`[data-video-id="${id}"] video`)
      // Until the learner reaches for the player, the server's `<track>` element is the captions (ADR 0057).
      // (The full hls.js is a larger chunk: under load it can take a while to arrive.)
      await expect(video).toHaveAttribute('data-engine', 'hls.js', { timeout: 20_000 })
      await expect(video).toHaveAttribute('data-captions', 'elements')
      await expect(video.locator('track[src^="/captions/"]')).toHaveCount(1)
      // Then hls.js offers the track from the master's subtitle rendition; the `<track>` element of the
      // server HTML gave way to it, so the browser lists the track once (ADR 0026).
      await video.dispatchEvent('pointerdown')
      await expect(video).toHaveAttribute('data-captions', 'hls.js')
      await expect(video.locator('track[kind="captions"]')).toHaveCount(1)
      await expect(video.locator('track[src^="/captions/"]')).toHaveCount(0)
      await expect
        .poll(() =>
          video.evaluate((element: HTMLVideoElement) =>
            Array.from(element.textTracks).map((track) => `${track.kind}:${track.language}:${track.label}`),
          ),
        )
        .toEqual(['captions:en:English'])
      await page.getByRole('button', { name: 'Turn captions on' }).click()
      await expect(page.getByRole('button', { name: 'Turn captions off' })).toHaveAttribute('aria-pressed', 'true')
      // The browser shows the track, and within the phrase's moment its cue is the active one (a second
      // in: hls.js's timeline puts the first frame, and so every cue, 83 ms after the WebVTT's times).
      await video.evaluate((element: HTMLVideoElement, at: number) => {
        element.currentTime = at
      }, SAID_AT + 1)
      await expect
        .poll(
          () =>
            video.evaluate((element: HTMLVideoElement) => {
              const track = Array.from(element.textTracks).find((candidate) => candidate.mode === 'showing')
              return Array.from(track?.activeCues ?? []).map((cue) => (cue as VTTCue).text)
            }),
          { timeout: 20_000 },
        )
        .toContain(SAID_LINE)
      // The cue starts when the WebVTT says (9 s), over the frame of that moment: the subtitle
      // segment's X-TIMESTAMP-MAP names the real first timestamp of the MPEG-TS segments.
      const cueStart = await video.evaluate((element: HTMLVideoElement, line: string) => {
        const track = Array.from(element.textTracks).find((candidate) => candidate.mode === 'showing')
        return Array.from(track?.cues ?? []).find((cue) => (cue as VTTCue).text === line)?.startTime ?? null
      }, SAID_LINE)
      expect(Math.abs(cueStart! - SAID_AT)).toBeLessThan(0.1)

      const transcript = page.getByRole('list', { name: /Transcript/ })
      await transcript.getByRole('link', { name: /Sunlight looks white/ }).click()
      await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeLessThan(2)
      await transcript.getByRole('link', { name: /At sunset the light crosses more air/ }).click()
      await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(18.5)
      await expect(transcript.locator('[aria-current="true"]')).toContainText('At sunset')
      // The choice is remembered: the next page starts with captions on.
      await page.reload()
      await expect(page.getByRole('button', { name: 'Turn captions off' })).toBeVisible()
    },
  )

  test('"captions on by default" shows the track from the start, then hls.js’s; the video page passes axe', async ({
    page,
    signedInAs,
  }) => {
    // The creator's profile (the learner's CC state is the other tests' starting point).
    await signedInAs('creator')
    const setCaptionsOn = async (on: boolean) => {
      await page.goto('/profile/edit')
      await page.getByLabel('Show captions by default').setChecked(on)
      await page.getByRole('button', { name: 'Save changes' }).click()
      await page.waitForURL((url) => !url.pathname.endsWith('/edit'))
    }
    await setCaptionsOn(true)
    try {
      const id = await openByWhatIsSaid(page)
      const video = page.locator(`[data-video-id="${id}"] video`)
      const shownTracks = () =>
        video.evaluate((element: HTMLVideoElement) =>
          Array.from(element.textTracks).map((track) => `${track.kind}:${track.mode}`),
        )
      // Before the learner reaches for the player, the server's track shows (ADR 0057)…
      await expect(video).toHaveAttribute('data-engine', 'hls.js', { timeout: 20_000 })
      await expect(video).toHaveAttribute('data-captions', 'elements')
      await expect(page.getByRole('button', { name: 'Turn captions off' })).toHaveAttribute('aria-pressed', 'true')
      await expect.poll(shownTracks, { timeout: 20_000 }).toEqual(['captions:showing'])
      // …and once hls.js takes the player over, its track from the master playlist, alone.
      await video.dispatchEvent('pointerdown')
      await expect(video).toHaveAttribute('data-captions', 'hls.js', { timeout: 20_000 })
      await expect(page.getByRole('button', { name: 'Turn captions off' })).toHaveAttribute('aria-pressed', 'true')
      await expect.poll(shownTracks, { timeout: 20_000 }).toEqual(['captions:showing'])
      await expectNoSeriousViolations(page)
    } finally {
      await setCaptionsOn(false)
    }
  })

  test('"Has captions" keeps the captioned videos; the search results pass axe', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto('/feed')
    await page.getByRole('checkbox', { name: 'Has captions' }).check()
    await page.waitForURL(/captions=1/)
    await expect(page.locator('[data-video-card]').first()).toBeVisible()
    await expect(page.getByText('Showing videos with captions')).toBeVisible()
    await page.goto(`/feed?search=${encodeURIComponent(PHRASE)}`)
    await expect(page.locator('[data-said-at]').first()).toBeVisible()
    await expectNoSeriousViolations(page)
  })

  test('a creator adds a caption track to their video, sees it, and deletes it', async ({ page, signedInAs }) => {
    await signedInAs('creator')
    const id = await openByWhatIsSaid(page)
    await page.getByRole('link', { name: 'Manage captions' }).click()
    await page.waitForURL(`/video/${id}/captions`)
    await page.getByLabel('Language').fill('fr')
    await page.getByLabel('Label (optional)').fill('Français')
    await page.locator('input[name="file"]').setInputFiles({
      name: 'fr.srt',
      mimeType: 'application/x-subrip',
      buffer: Buffer.from('1\n00:00:00,000 --> 00:00:04,000\nLa lumière du soleil paraît blanche.\n'),
    })
    await page.getByRole('button', { name: 'Save captions' }).click()
    await expect(page.getByText('Captions saved: Français')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Delete Français captions' })).toBeVisible()
    await expectNoSeriousViolations(page)
    await page.getByRole('button', { name: 'Delete Français captions' }).click()
    await expect(page.getByRole('button', { name: 'Delete Français captions' })).toHaveCount(0)
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('search shows the line said and opens the video at it; <track> and transcript links are there', async ({
    page,
    signedInAs,
  }) => {
    await signedInAs('learner')
    const id = await openByWhatIsSaid(page)
    await expect(page.locator(`[data-video-id="${id}"] video track[kind="captions"]`)).toHaveAttribute(
      'src',
      /^\/captions\/[0-9a-f-]{36}\.vtt$/,
    )
    // The player starts at the moment (`#t=` on the MP4 source).
    await expect(page.locator(`[data-video-id="${id}"] video source`)).toHaveAttribute('src', new RegExp(`#t=${SAID_AT}$`))
    const line = page.getByRole('list', { name: /Transcript/ }).getByRole('link', { name: /At sunset/ })
    await expect(line).toHaveAttribute('href', /\?t=19$/)
    await line.click()
    await page.waitForURL(/\?t=19$/)
    await expect(page.locator(`[data-video-id="${id}"] video source`)).toHaveAttribute('src', /#t=19$/)
  })

  test('"Has captions" applies through the form\'s Search button', async ({ page, signedInAs }) => {
    await signedInAs('learner')
    await page.goto('/sparks')
    await page.getByRole('checkbox', { name: 'Has captions' }).check()
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/captions=1/)
    await expect(page.getByRole('checkbox', { name: 'Has captions' })).toBeChecked()
  })
})
