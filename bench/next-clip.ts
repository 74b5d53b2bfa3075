import { spawn } from 'node:child_process'
import { chromium, type Browser, type Page } from 'playwright-core'
import { prepareE2eData } from '../scripts/e2e-data'
import type { Figure } from './figures'
import { ensureBuild, freePort, learnerCookie, waitForServer } from './server'

/**
 * The next clip in the reel viewer (ADR 0051): the time from pressing
 * ArrowDown or PageDown (the keydown's own time stamp) to the next clip's first
 * presented frame (`requestVideoFrameCallback`, asked for in that keydown), in
 * Chromium, on the production build with the demo data (the five demo sparks,
 * transcoded by the media worker, as the e2e suite starts from:
 * scripts/e2e-data.ts).
 *
 * PASSES fresh browser contexts (nothing cached) open /sparks-reels as the
 * demo learner and move down through the feed: each clip plays for a second
 * (what a viewer sees before moving on) and then the key is pressed — four
 * moves a pass, 20 in all. The same again with Save-Data on
 * (`navigator.connection.saveData`, set before the page's scripts run): the
 * viewer then fetches nothing ahead, so the figure is what preloading saves.
 *
 * Chromium runs as the e2e suite runs it (`--no-sandbox --disable-gpu
 * --disable-background-networking --disable-component-update`); video is
 * decoded in software.
 */
const PASSES = Number(process.env.BENCH_NEXT_CLIP_PASSES ?? 5)
const GOAL_MS = 80
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update']
/** A phone's screen: the reel viewer is phone-first. */
const VIEWPORT = { width: 412, height: 915 }

/** Set before the page's scripts: the browser says Save-Data, as Chromium does with the data saver on. */
export const SAVE_DATA_SCRIPT = `
  (() => {
    const connection = new EventTarget()
    Object.assign(connection, { saveData: true, effectiveType: '4g', downlink: 10, rtt: 50 })
    Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection })
  })()
`

export async function benchNextClip(): Promise<{ name: string; lines: string[]; figures: Figure[] }> {
  const buildDir = ensureBuild()
  const data = await prepareE2eData(1, await freePort())
  const dataDir = data.shards[0]!
  const port = await freePort()
  const base = `http://localhost:${port}`
  const server = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      LUMEN_BUILD_DIR: buildDir,
      // The demo videos are ready in the prepared data: no transcoding competes with the browser.
      MEDIA_WORKER: 'off',
      LOG_LEVEL: 'warn',
      WEB_CONCURRENCY: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  })
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  let browser: Browser | undefined
  try {
    await waitForServer(base)
    const cookie = await learnerCookie(base, dataDir)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    const preloaded: number[] = []
    const saveData: number[] = []
    for (let pass = 0; pass < PASSES; pass++) {
      preloaded.push(...(await onePass(browser, base, cookie, false)))
      saveData.push(...(await onePass(browser, base, cookie, true)))
    }
    const lines = [
      `the demo sparks, ${PASSES} passes of a fresh browser context each way, a ${VIEWPORT.width}×${VIEWPORT.height} screen; keydown to the next clip’s first presented frame`,
      `${'figure'.padEnd(44)}${'n'.padStart(4)}${'min'.padStart(8)}${'median'.padStart(8)}${'p95'.padStart(8)}   goal`,
    ]
    const row = (label: string, values: number[], goal: string) =>
      lines.push(
        `${label.padEnd(44)}${String(values.length).padStart(4)}${fmt(Math.min(...values))}${fmt(quantile(values, 0.5))}${fmt(quantile(values, 0.95))}   ${goal}`,
      )
    row('next clip, preloaded (ordinary connection)', preloaded, `median ≤ ${GOAL_MS} ms`)
    row('next clip, Save-Data (nothing fetched ahead)', saveData, 'comparison')
    const median = quantile(preloaded, 0.5)
    const figures: Figure[] = [
      {
        label: 'next clip’s first frame after the key (median)',
        value: median,
        unit: 'ms',
        goal: `≤ ${GOAL_MS} ms`,
        met: median <= GOAL_MS,
      },
      {
        label: 'next clip’s first frame after the key (p95)',
        value: quantile(preloaded, 0.95),
        unit: 'ms',
        goal: 'shown',
        met: true,
      },
      {
        label: 'the same with Save-Data (median, not preloaded)',
        value: quantile(saveData, 0.5),
        unit: 'ms',
        goal: 'comparison',
        met: true,
      },
    ]
    return { name: 'Reels: the next clip (keydown → first presented frame)', lines, figures }
  } finally {
    await browser?.close()
    if (server.pid && server.exitCode === null && server.signalCode === null) {
      try {
        process.kill(-server.pid, 'SIGTERM')
      } catch {
        // Gone already.
      }
      await exited
    }
    await data.remove()
  }
}

/** One fresh context: the reel viewer from its first clip, a key press per clip to the last; the times (ms). */
async function onePass(browser: Browser, base: string, cookie: string, saveData: boolean): Promise<number[]> {
  const context = await browser.newContext({ viewport: VIEWPORT })
  try {
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=')
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: base, sameSite: 'Lax' as const }
      }),
    )
    if (saveData) await context.addInitScript(SAVE_DATA_SCRIPT)
    const page = await context.newPage()
    await page.goto(`${base}/sparks-reels`)
    const count = await page.locator('[data-reel-viewer] section[data-reel-index]').count()
    const times: number[] = []
    for (let index = 0; index + 1 < count; index++) {
      await playedASecond(page, index)
      const measured = page.evaluate(nextFrameAfterKey, index + 1)
      // The listener is in place once the evaluation has run; a frame later is safe.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
      await page.keyboard.press(index % 2 ? 'PageDown' : 'ArrowDown')
      times.push(await measured)
    }
    return times
  } finally {
    await context.close()
  }
}

async function playedASecond(page: Page, index: number) {
  await page.waitForFunction(
    (i) => {
      const video = document.querySelector<HTMLVideoElement>(`[data-reel-viewer] section[data-reel-index="${i}"] video`)
      const viewer = document.querySelector('[data-reel-viewer]')
      return Boolean(video && viewer?.getAttribute('data-current') === String(i) && !video.paused && video.currentTime > 1)
    },
    index,
    { timeout: 60_000 },
  )
}

/** In the page: at the next keydown, the time until clip `index` presents a frame. */
function nextFrameAfterKey(index: number): Promise<number> {
  const next = document.querySelector<HTMLVideoElement>(`[data-reel-viewer] section[data-reel-index="${index}"] video`)!
  return new Promise<number>((resolve) => {
    window.addEventListener(
      'keydown',
      (event) => {
        // The key's own time stamp (same clock as performance.now()), before the viewer's handler runs.
        const pressed = event.timeStamp > 0 && event.timeStamp <= performance.now() ? event.timeStamp : performance.now()
        next.requestVideoFrameCallback(() => resolve(performance.now() - pressed))
      },
      { capture: true, once: true },
    )
  })
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}

function fmt(value: number): string {
  return value.toFixed(0).padStart(8)
}
