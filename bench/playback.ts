import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { resolveMediaTools, runMediaTool } from '../media/tools'
import type { Figure } from './figures'
import { learnerCookie, startBenchServer, type BenchServer } from './server'

/**
 * Playback start in Chromium (ADR 0027), on the production server
 * (embedded mode, its own media worker) with media that went through the
 * real pipeline: the demo creator uploads a 20 s 1280×720 lesson and a few
 * portrait sparks through the upload form, the worker transcodes them, and
 * Debian's Chromium (Playwright) plays them as the demo learner.
 *
 * - **After `play()`**: a fresh browser context per run (nothing cached),
 *   loopback; `play()` is called the moment the player is ready (hydrated,
 *   hls.js attached: the earliest a visitor could press play) and the time
 *   to the first presented frame (`requestVideoFrameCallback`) is stamped
 *   in the page with `performance.now()`.
 * - **From navigation**: the same, but the link is throttled to 10 Mbit/s
 *   each way with 40 ms of latency and a cold cache (a new context, and
 *   CDP `Network.clearBrowserCache`; `Network.emulateNetworkConditions`); the
 *   figure is the first frame's `performance.now()`, i.e. time since the
 *   navigation started.
 * - **Next spark**: the reel viewer at its first clip; once that clip has
 *   played for a second, the Next spark button is clicked (in the page, so
 *   the click is stamped exactly) and the time to the next clip's first
 *   presented frame is taken; then the same for a mouse swipe (stamped at
 *   `pointerup`).
 *
 * Each is the median of RUNS runs. Chromium runs with `--disable-gpu`, as
 * everywhere on this machine; video is decoded in software.
 */
const RUNS = Number(process.env.BENCH_PLAYBACK_RUNS ?? 7)
const SPARKS = 4
const GOALS = { play: 150, navigation: 500, nextSpark: 80 }
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  // The bench presses play from script, without a user gesture.
  '--autoplay-policy=no-user-gesture-required',
]
/** 10 Mbit/s each way and 40 ms of latency, in CDP's units (bytes per second, ms). */
export const THROTTLED = { offline: false, latency: 40, downloadThroughput: 10_000_000 / 8, uploadThroughput: 10_000_000 / 8 }

export async function benchPlayback(): Promise<{ name: string; lines: string[]; figures: Figure[] }> {
  const server = await startBenchServer({ target: 'pglite', env: { MEDIA_WORKER: 'in-process' } })
  let browser: Browser | undefined
  try {
    const content = await uploadContent(server)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    const cookie = await learnerCookie(server.base, server.dataDir)
    const result = await measurePlayback(browser, server.base, cookie, content)
    return { name: 'Playback start in Chromium (first presented frame)', ...result }
  } finally {
    await browser?.close()
    await server.stop()
  }
}

export interface PlaybackContent {
  videoId: string
  sparkIds: string[]
}

export async function measurePlayback(
  browser: Browser,
  base: string,
  cookie: string,
  content: PlaybackContent,
): Promise<{ lines: string[]; figures: Figure[] }> {
  const play: number[] = []
  const navigation: number[] = []
  const nextButton: number[] = []
  const swipe: number[] = []
  for (let run = 0; run < RUNS; run++) {
    play.push(await withContext(browser, base, cookie, (page) => afterPlay(page, `${base}/video/${content.videoId}`)))
    navigation.push(await withContext(browser, base, cookie, (page) => fromNavigation(page, `${base}/video/${content.videoId}`)))
    const reel = await withContext(browser, base, cookie, (page) => nextSpark(page, `${base}/sparks-reels`))
    nextButton.push(reel.button)
    if (reel.swipe !== null) swipe.push(reel.swipe)
  }
  const lines = [
    `a 20 s 1280×720 lesson and ${SPARKS} sparks (720×1280, 8 s) uploaded and transcoded by the server's worker; ${RUNS} runs each, a fresh browser context per run`,
    `${'figure'.padEnd(48)}${'median'.padStart(8)}${'min'.padStart(8)}${'max'.padStart(8)}  all (ms)`,
  ]
  const figures: Figure[] = []
  const add = (label: string, values: number[], goal: number) => {
    if (!values.length) {
      lines.push(`${label.padEnd(48)}  (no measurement)`)
      return
    }
    const value = median(values)
    lines.push(
      `${label.padEnd(48)}${value.toFixed(0).padStart(8)}${Math.min(...values)
        .toFixed(0)
        .padStart(8)}${Math.max(...values)
        .toFixed(0)
        .padStart(8)}  ${values.map((v) => v.toFixed(0)).join(' ')}`,
    )
    figures.push({ label, value, unit: 'ms', goal: `≤ ${goal} ms`, met: value <= goal })
  }
  add('video page: first frame after play() (loopback)', play, GOALS.play)
  add('video page: first frame from navigation (10 Mbit/s, 40 ms, cold)', navigation, GOALS.navigation)
  add('reels: next spark’s frame after the Next button', nextButton, GOALS.nextSpark)
  add('reels: next spark’s frame after a swipe', swipe, GOALS.nextSpark)
  return { lines, figures }
}

async function withContext<T>(browser: Browser, base: string, cookie: string, work: (page: Page) => Promise<T>): Promise<T> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=')
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: base, sameSite: 'Lax' as const }
      }),
    )
    return await work(await context.newPage())
  } finally {
    await context.close()
  }
}

/** In the page: play() as soon as the player runs hls.js; resolves with [play() called, first frame] (performance.now()). */
const PLAY_WHEN_READY = `
  window.__firstFrame = new Promise((resolve) => {
    const start = () => {
      const video = document.querySelector('video[data-engine="hls.js"]')
      if (!video) return requestAnimationFrame(start)
      const called = performance.now()
      video.requestVideoFrameCallback(() => resolve([called, performance.now()]))
      video.muted = true
      video.play().catch(() => {})
    }
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
    else start()
  })
`

async function afterPlay(page: Page, url: string): Promise<number> {
  await page.addInitScript(PLAY_WHEN_READY)
  await page.goto(url)
  const [called, frame] = await page.evaluate(
    () => (window as unknown as { __firstFrame: Promise<[number, number]> }).__firstFrame,
  )
  return frame - called
}

async function fromNavigation(page: Page, url: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  // Cold: a new context starts with an empty cache, and this clears the browser's too. The cache stays on,
  // as on a first visit: what the page fetches ahead (ADR 0027) may be used once it is there.
  await cdp.send('Network.clearBrowserCache')
  await cdp.send('Network.emulateNetworkConditions', THROTTLED)
  await page.addInitScript(PLAY_WHEN_READY)
  await page.goto(url)
  const [, frame] = await page.evaluate(() => (window as unknown as { __firstFrame: Promise<[number, number]> }).__firstFrame)
  return frame
}

async function nextSpark(page: Page, url: string): Promise<{ button: number; swipe: number | null }> {
  await page.goto(url)
  const clip = (index: number) => `[data-reel-viewer] section[data-reel-index="${index}"] video`
  // The first clip plays for a second: what a viewer sees before moving on.
  await page.waitForFunction((selector) => {
    const video = document.querySelector<HTMLVideoElement>(selector)
    return Boolean(video && !video.paused && video.currentTime > 1)
  }, clip(0))
  const button = await page.evaluate((selector) => {
    const next = document.querySelector<HTMLVideoElement>(selector)!
    const link = document.querySelector<HTMLAnchorElement>(
      '[data-reel-viewer] section[aria-current="true"] a[aria-label="Next spark"]',
    )!
    return new Promise<number>((resolve) => {
      const clicked = performance.now()
      next.requestVideoFrameCallback(() => resolve(performance.now() - clicked))
      link.click()
    })
  }, clip(1))
  // Then a swipe from the second clip to the third, once the second has played a second.
  await page.waitForFunction((selector) => {
    const video = document.querySelector<HTMLVideoElement>(selector)
    return Boolean(video && !video.paused && video.currentTime > 1)
  }, clip(1))
  await page.evaluate((selector) => {
    const next = document.querySelector<HTMLVideoElement>(selector)!
    const w = window as unknown as { __swipe: Promise<number> }
    w.__swipe = new Promise<number>((resolve) => {
      window.addEventListener(
        'pointerup',
        () => {
          const released = performance.now()
          next.requestVideoFrameCallback(() => resolve(performance.now() - released))
        },
        { capture: true, once: true },
      )
    })
  }, clip(2))
  const box = (await page.locator('[data-reel-viewer]').boundingBox())!
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  await page.mouse.move(x, y - 80, { steps: 4 })
  await page.mouse.up()
  const swipe = await Promise.race([
    page.evaluate(() => (window as unknown as { __swipe: Promise<number> }).__swipe),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
  ])
  return { button, swipe }
}

/** The demo creator uploads the lesson and the sparks; resolves once the worker has made every one playable. */
export async function uploadContent(server: BenchServer): Promise<PlaybackContent> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'lumen-bench-playback-'))
  try {
    const creator = await learnerCookie(server.base, server.dataDir, 'creator@lumen.test')
    const lesson = await makeClip(path.join(scratch, 'lesson.mp4'), 1280, 720, 20)
    const spark = await makeClip(path.join(scratch, 'spark.mp4'), 720, 1280, 8)
    const poster = path.join(scratch, 'poster.jpg')
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=1280x720', '-frames:v', '1', poster])
    const upload = async (file: string, title: string, type: 'video' | 'spark') => {
      const form = new FormData()
      form.set('title', title)
      form.set('description', 'Measured by the playback bench.')
      form.set('type', type)
      form.set('category', 'other')
      form.set('visibility', 'public')
      form.set('video', new Blob([await readFile(file)], { type: 'video/mp4' }), 'clip.mp4')
      form.set('thumbnail', new Blob([await readFile(poster)], { type: 'image/jpeg' }), 'poster.jpg')
      const response = await fetch(`${server.base}/upload`, {
        method: 'POST',
        body: form,
        headers: { cookie: creator },
        redirect: 'manual',
      })
      const id = new URL(response.headers.get('location') ?? '/', server.base).searchParams.get('uploaded')
      if (response.status !== 302 || !id) throw new Error(`upload failed: ${response.status} ${await response.text()}`)
      return id
    }
    const videoId = await upload(lesson, 'Playback bench lesson', 'video')
    const sparkIds: string[] = []
    for (let i = 0; i < SPARKS; i++) sparkIds.push(await upload(spark, `Playback bench spark ${i + 1}`, 'spark'))
    const deadline = Date.now() + 10 * 60_000
    for (const id of [videoId, ...sparkIds]) {
      for (;;) {
        const html = await (await fetch(`${server.base}/video/${id}`, { headers: { cookie: creator } })).text()
        if (html.includes('data-engine=')) break
        if (html.includes('Processing failed')) throw new Error(`processing failed for ${id}`)
        if (Date.now() > deadline) throw new Error(`${id} was not processed within 10 minutes`)
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
    }
    return { videoId, sparkIds }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** A test card with sound, encoded the way a phone or screen recorder would (x264, ~2–4 Mbit/s, faststart). */
async function makeClip(file: string, width: number, height: number, seconds: number): Promise<string> {
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=30`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-t', String(seconds), '-map', '0:v', '-map', '1:a'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '3M', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart'],
    file,
  ])
  return file
}

async function ffmpeg(args: string[]): Promise<void> {
  await runMediaTool(resolveMediaTools().ffmpeg.path, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], {
    timeoutMs: 5 * 60_000,
  })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
