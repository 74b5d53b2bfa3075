import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS } from './tests/e2e/support/chromium'

/**
 * End-to-end tests drive Debian's Chromium (Playwright's own browser download
 * is not available here) against a production build on a fresh embedded
 * database, so every run starts from the demo data alone.
 */
const port = Number(process.env.E2E_PORT ?? 3100)
// Made once by the main process; workers inherit it, so tests can read the stand-in's keys there.
process.env.E2E_DATA_DIR ||= mkdtempSync(path.join(tmpdir(), 'lumen-e2e-'))
const dataDir = process.env.E2E_DATA_DIR
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * The files a project runs in this process: all of them, or those `npm test` gave this shard
 * (scripts/e2e-shards.ts sets E2E_FILES_DESKTOP and E2E_FILES_PHONE, JSON lists of paths).
 */
function filesOf(variable: string): { testMatch?: RegExp[] } {
  const listed = process.env[variable]
  if (!listed) return {}
  const files = JSON.parse(listed) as string[]
  return { testMatch: files.map((file) => new RegExp(`[\\\\/]${path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)) }
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [
    ['list'],
    ...(process.env.CI ? [] : [['html', { open: 'never' }] as const]),
    // `npm test` reads each file's time and the test count from it (scripts/test-timing.ts).
    ...(process.env.E2E_JSON_REPORT ? [['json', { outputFile: process.env.E2E_JSON_REPORT }] as const] : []),
  ],
  // Two shards share two cores with their servers: a multi-page flow with axe runs needs more than 30 s.
  timeout: 60_000,
  // Per process, so concurrent shards (scripts/test.ts) do not clear each other's artifacts.
  outputDir: process.env.E2E_OUTPUT_DIR || 'test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    // No trace unless asked for (`E2E_TRACE=retain-on-failure`): recording one cost a fifth of e2e's CPU in
    // every test, passed or not. A failed test keeps one screenshot of its end, the page's accessibility
    // snapshot, and what the browser asked for and logged (the `flightLog` fixture). A trace, when asked for,
    // has every action with the DOM before and after it and no screencast (which cost a quarter more).
    trace: process.env.E2E_TRACE
      ? { mode: process.env.E2E_TRACE === 'on' ? 'on' : 'retain-on-failure', screenshots: false, snapshots: true, sources: true }
      : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      // The switches this machine needs, and features the tests never use turned off (tests/e2e/support/chromium.ts).
      args: CHROMIUM_ARGS,
    },
  },
  /**
   * Every test runs on the desktop project; the phone project runs only what a phone shows differently —
   * its layout, touch, the reel viewer, menus — tagged `@phone` (on both projects) or `@phone-only` (on the
   * phone alone: a check of the phone's own layout). Behaviour that does not depend on the viewport runs
   * once. tests/unit/e2e-tags.test.ts keeps the convention (no project checks inside tests).
   */
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'] }, grepInvert: /@phone-only/, ...filesOf('E2E_FILES_DESKTOP') },
    { name: 'phone', use: { ...devices['Pixel 7'] }, grep: /@phone\b/, ...filesOf('E2E_FILES_PHONE') },
  ],
  webServer: {
    // The production server as `npm start` runs it, without its build step: `npm test` builds first.
    command: 'node scripts/start.mjs',
    url: `http://localhost:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    // Warnings and errors only: a line per request would bury the test report.
    env: { NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdout: 'pipe',
  },
})
