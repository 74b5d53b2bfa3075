import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { launch, type LaunchedChrome } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import type { Figure } from './figures'
import { uploadContent } from './playback'
import { learnerCookie, startBenchServer } from './server'

/**
 * Lighthouse (ADR 0030): the performance category only, its default
 * mobile profile (a mid-range phone's screen, 4× CPU slowdown, simulated slow
 * 4G), on the production server (embedded mode) with the playback bench's
 * content, for the welcome page as a visitor and the feed, a video page and
 * the reel viewer as the demo learner (the session cookie sent as a header).
 * It drives Debian's Chromium through chrome-launcher. Each page is audited
 * once after a warm-up load (the server's first render of a route is slower);
 * the figures are LCP, TBT and CLS against Google's "good" thresholds.
 *
 * TBT is the main thread's long tasks as observed, times the CPU slowdown: on
 * a machine whose two cores are shared with other work it reads high.
 */
const GOALS = { lcp: 2500, tbt: 200, cls: 0.1 }
/**
 * `LIGHTHOUSE_PAGES=video,feed`: only the pages whose label contains one of the words (every page
 * without it). `LIGHTHOUSE_RUNS=3`: each page audited that many times after its warm-up, one line
 * each (TBT varies run to run). `LIGHTHOUSE_JSON=<dir>`: each report's JSON written there.
 */
const ONLY = (process.env.LIGHTHOUSE_PAGES ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean)
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1) || 1)
const JSON_DIR = process.env.LIGHTHOUSE_JSON
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export async function benchLighthouse(): Promise<{ name: string; lines: string[]; figures: Figure[] }> {
  const server = await startBenchServer({ target: 'pglite', env: { MEDIA_WORKER: 'in-process' } })
  try {
    const content = await uploadContent(server)
    const cookie = await learnerCookie(server.base, server.dataDir)
    return {
      name: 'Lighthouse, mobile profile, performance category',
      ...(await auditPages(server.base, cookie, content.videoId)),
    }
  } finally {
    await server.stop()
  }
}

/** Lighthouse on the four pages of a running server (the learner's cookie for the signed-in ones). */
export async function auditPages(base: string, cookie: string, videoId: string): Promise<{ lines: string[]; figures: Figure[] }> {
  let chrome: LaunchedChrome | undefined
  try {
    chrome = await launch({
      chromePath: CHROMIUM,
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    })
    const pages = [
      { label: '/ (visitor)', path: '/', cookie: null },
      { label: '/feed', path: '/feed', cookie },
      { label: '/video/:id', path: `/video/${videoId}`, cookie },
      { label: '/sparks-reels', path: '/sparks-reels', cookie },
    ].filter((page) => !ONLY.length || ONLY.some((word) => page.label.includes(word)))
    const lines = [
      `${'page'.padEnd(16)}${'LCP ms'.padStart(8)}${'TBT ms'.padStart(8)}${'CLS'.padStart(8)}${'score'.padStart(7)}  LCP element`,
    ]
    const figures: Figure[] = []
    for (const page of pages) {
      const url = base + page.path
      const flags = {
        port: chrome.port,
        output: 'json' as const,
        logLevel: 'error' as const,
        onlyCategories: ['performance'],
        ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
      }
      await lighthouse(url, flags) // warm-up: the server's first render of each route, and its compressed scripts
      for (let run = 0; run < RUNS; run++) {
        const result = await lighthouse(url, flags)
        if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`)
        if (JSON_DIR) {
          await mkdir(JSON_DIR, { recursive: true })
          const name = `${page.path.split('/')[1] || 'welcome'}-${run + 1}.json`
          await writeFile(path.join(JSON_DIR, name), typeof result.report === 'string' ? result.report : result.report[0]!)
        }
        const { audits, categories } = result.lhr
        const lcp = audits['largest-contentful-paint']?.numericValue ?? Number.NaN
        const tbt = audits['total-blocking-time']?.numericValue ?? Number.NaN
        const cls = audits['cumulative-layout-shift']?.numericValue ?? Number.NaN
        const score = categories.performance?.score ?? null
        const element = lcpElement(audits['largest-contentful-paint-element']?.details)
        lines.push(
          `${page.label.padEnd(16)}${lcp.toFixed(0).padStart(8)}${tbt.toFixed(0).padStart(8)}${cls.toFixed(3).padStart(8)}${(score === null ? '-' : String(Math.round(score * 100))).padStart(7)}  ${element}`,
        )
        const problems = Object.values(audits)
          .filter(
            (audit) =>
              audit.score !== null &&
              audit.score < 0.9 &&
              ['opportunity', 'table', 'list'].includes(String(audit.details?.type)) &&
              audit.scoreDisplayMode !== 'informative',
          )
          .map((audit) => audit.id)
        if (problems.length) lines.push(`${''.padEnd(16)}to look at: ${problems.join(', ')}`)
        figures.push(
          {
            label: `${page.label} LCP (Lighthouse, mobile)`,
            value: lcp,
            unit: 'ms',
            goal: `≤ ${GOALS.lcp} ms`,
            met: lcp <= GOALS.lcp,
          },
          {
            label: `${page.label} TBT (Lighthouse, mobile)`,
            value: tbt,
            unit: 'ms',
            goal: `≤ ${GOALS.tbt} ms`,
            met: tbt <= GOALS.tbt,
          },
          {
            label: `${page.label} CLS (Lighthouse, mobile)`,
            value: cls,
            unit: '',
            goal: `≤ ${GOALS.cls}`,
            met: cls <= GOALS.cls,
          },
        )
      }
    }
    return { lines, figures }
  } finally {
    chrome?.kill()
  }
}

/** The LCP element's selector or snippet, from the audit's details (a list holding a table of nodes). */
function lcpElement(details: unknown): string {
  const seen: string[] = []
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object') return
    const node = value as { type?: string; snippet?: string; items?: unknown[] }
    if (node.type === 'node' && node.snippet) seen.push(node.snippet.slice(0, 90))
    for (const item of node.items ?? []) walk(item)
    for (const child of Object.values(node)) if (child && typeof child === 'object' && child !== node.items) walk(child)
  }
  walk(details)
  return seen[0] ?? ''
}
