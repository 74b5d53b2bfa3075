import type { Locator } from '@playwright/test'
import { DEMO_ACCOUNTS, expect, test } from './support/fixtures'
import { supabaseFor } from './support/stand-in'

/**
 * How playback starts. The first rendition fits the player and the
 * bandwidth (not always the lowest rung). A play pressed while the player
 * is still loading is kept: the `<video>`
 * first plays its MP4 source, and when hls.js takes over (after its dynamic
 * import) playback carries on from where it was — pressed right after a
 * client-side navigation, and on the server-rendered page before any script
 * has run (the scripts held back).
 */


/** A ready public demo video of at least 20 s (made and processed at start-up), with its title. */
async function demoVideo(baseURL: string): Promise<{ id: string; title: string }> {
  const service = supabaseFor(baseURL, 'service')
  const { data: creator } = await service.from('profiles').select('id').eq('username', DEMO_ACCOUNTS.creator.username).single()
  let found: { id: string; title: string } | undefined
  await expect
    .poll(
      async () => {
        const { data } = await service
          .from('videos')
          .select('id,title,type,status,is_public,external_url,hls_path,duration_seconds')
          .eq('creator_id', (creator as { id: string }).id)
        const rows = (data ?? []) as {
          id: string
          title: string
          type: string
          status: string
          is_public: boolean
          external_url: string | null
          hls_path: string | null
          duration_seconds: number | null
        }[]
        found = rows.find(
          (row) =>
            row.type === 'video' &&
            row.status === 'ready' &&
            row.is_public &&
            !row.external_url &&
            row.hls_path &&
            (row.duration_seconds ?? 0) >= 20,
        )
        return Boolean(found)
      },
      { timeout: 420_000, intervals: [3000, 5000, 10_000] },
    )
    .toBe(true)
  return found!
}

function playing(video: Locator) {
  return video.evaluate((element: HTMLVideoElement) => ({
    engine: element.dataset.engine,
    paused: element.paused,
    time: element.currentTime,
    muted: element.muted,
    src: element.currentSrc,
  }))
}

test('play pressed as soon as the player exists after a client-side navigation keeps playing through hls.js', async ({
  page,
  signedInAs,
  baseURL,
}) => {
  test.setTimeout(480_000)
  const video = await demoVideo(baseURL!)
  await signedInAs('learner')
  await page.goto(`/feed?search=${encodeURIComponent(video.title)}`)
  const card = page.getByRole('link', { name: video.title, exact: true })
  await expect(card).toBeVisible()
  // Hydrated: the client-side router handles the click.
  await page.waitForFunction(() => Boolean((window as unknown as { __remixContext?: unknown }).__remixContext))
  await page.waitForLoadState('networkidle')
  await page.evaluate((id) => {
    new MutationObserver((_records, observer) => {
      const element = document.querySelector<HTMLVideoElement>(`[data-video-id="${id}"] video`)
      if (!element) return
      observer.disconnect()
      element.muted = true
      void element.play().catch(() => undefined)
    }).observe(document.body, { subtree: true, childList: true })
  }, video.id)
  await card.click()
  await expect(page).toHaveURL(new RegExp(`/video/${video.id}$`))
  const player = page.locator(`[data-video-id="${video.id}"] video`)
  await expect(player).toHaveAttribute('data-engine', 'hls.js', { timeout: 30_000 })
  await expect.poll(async () => (await playing(player)).time, { timeout: 30_000 }).toBeGreaterThan(2)
  expect(await playing(player)).toMatchObject({
    engine: 'hls.js',
    paused: false,
    muted: true,
    src: expect.stringMatching(/^blob:/),
  })
})

test('play pressed before the scripts run keeps playing, from where it was, when hls.js takes over', async ({
  page,
  signedInAs,
  baseURL,
}) => {
  test.setTimeout(480_000)
  const video = await demoVideo(baseURL!)
  await signedInAs('learner')
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.goto(`/video/${video.id}`, { waitUntil: 'commit' })
  const player = page.locator(`[data-video-id="${video.id}"] video`)
  await expect(player).toHaveAttribute('data-engine', 'mp4')
  await player.evaluate((element: HTMLVideoElement) => {
    element.muted = true
    element.playbackRate = 1.5
    void element.play().catch(() => undefined)
  })
  await expect.poll(async () => (await playing(player)).time, { timeout: 30_000 }).toBeGreaterThan(1)
  const before = (await playing(player)).time
  // Every position played once hls.js has the element (not the reload's own reset to 0 while paused).
  await player.evaluate((element: HTMLVideoElement) => {
    const seen: number[] = []
    ;(window as unknown as { playedAfterHandOver: number[] }).playedAfterHandOver = seen
    element.addEventListener('timeupdate', () => {
      const playingFrames = element.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && !element.paused && !element.seeking
      if (element.dataset.engine === 'hls.js' && playingFrames) seen.push(element.currentTime)
    })
  })
  release()
  await expect(player).toHaveAttribute('data-engine', 'hls.js', { timeout: 30_000 })
  await expect.poll(async () => (await playing(player)).time, { timeout: 30_000 }).toBeGreaterThan(before + 2)
  expect(await playing(player)).toMatchObject({ paused: false, muted: true, src: expect.stringMatching(/^blob:/) })
  expect(await player.evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(1.5)
  const played = await page.evaluate(() => (window as unknown as { playedAfterHandOver: number[] }).playedAfterHandOver)
  expect(Math.min(...played), `no restart from 0: ${played.join(', ')}`).toBeGreaterThan(before - 1)
})

/** The rung (its folder under hls/) of the first segment hls.js itself requests (warm-hls's are `fetch`es). */
function firstRungRequested(page: import('@playwright/test').Page): Promise<string> {
  return new Promise((resolve) => {
    page.on('request', (request) => {
      const match = /\/hls\/([^/]+)\/segment_\d+\.\w+/.exec(request.url())
      if (match && request.resourceType() === 'xhr') resolve(match[1]!)
    })
  })
}

test('the first playback starts at the rung that fits the player and the reported bandwidth, not the lowest', async ({
  page,
  signedInAs,
  baseURL,
}) => {
  test.setTimeout(480_000)
  const video = await demoVideo(baseURL!)
  await signedInAs('learner')
  // The demo feed videos are 640×360: two rungs, 234p and 360p.
  const first = firstRungRequested(page)
  await page.goto(`/video/${video.id}`)
  const player = page.locator(`[data-video-id="${video.id}"] video`)
  await expect(player).toHaveAttribute('data-engine', 'hls.js')
  expect(await player.evaluate((element: HTMLVideoElement) => element.clientHeight)).toBeGreaterThanOrEqual(300)
  // The video page's player asks for its first segment on play (ADR 0057).
  await player.evaluate((element: HTMLVideoElement) => {
    element.muted = true
    void element.play().catch(() => undefined)
  })
  // Chromium reports a fast link (navigator.connection.downlink): the 360p rung fits the desktop player.
  expect(await first).toMatch(/360/)
})
