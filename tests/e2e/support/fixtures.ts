import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test'
import { createChunks, stringToBase64URL } from '@supabase/ssr'
import type { Session } from '@supabase/supabase-js'
import { supabaseFor } from './stand-in'

/**
 * Playwright fixtures that sign users in without typing: a session is
 * minted with supabase-js in Node against the server under test, then stored
 * in the browser context as the very cookies @supabase/ssr writes on the
 * server — `sb-<host>-auth-token`, `base64-` + base64url(JSON session),
 * split into `.0`, `.1`, … when longer than 3180 characters (see
 * node_modules/@supabase/ssr/dist/main/utils/chunker.js and cookies.js).
 *
 * Password grants count against Auth's per-IP token limit, which every e2e
 * test shares, so a demo account's cookies are minted once per worker and
 * reused; pass `fresh: true` when the test ends the session (sign-out).
 */
export const DEMO_PASSWORD = 'Lumen-demo-2026'

export const DEMO_ACCOUNTS = {
  learner: { email: 'learner@lumen.test', username: 'leo.learns', role: 'user' },
  creator: { email: 'creator@lumen.test', username: 'maya.creates', role: 'creator' },
  newcreator: { email: 'newcreator@lumen.test', username: 'noah.new', role: 'creator' },
  admin: { email: 'admin@lumen.test', username: 'ada.admin', role: 'admin' },
} as const

export type DemoAccount = keyof typeof DEMO_ACCOUNTS

export interface TestAccount {
  id: string
  email: string
  password: string
  username: string
  role: 'user' | 'creator'
}

export interface SessionCookie {
  name: string
  value: string
}

/** The auth cookie name @supabase/ssr derives from the Supabase URL (the app's own origin here). */
export function authCookieName(baseURL: string): string {
  return `sb-${new URL(baseURL).hostname.split('.')[0]}-auth-token`
}

/** The cookies that carry `session`, exactly as @supabase/ssr writes them. */
export function sessionCookies(baseURL: string, session: Session): SessionCookie[] {
  const encoded = `base64-${stringToBase64URL(JSON.stringify(session))}`
  return createChunks(authCookieName(baseURL), encoded)
}

export async function signInForCookies(baseURL: string, email: string, password: string): Promise<SessionCookie[]> {
  const { data, error } = await supabaseFor(baseURL, 'anon').auth.signInWithPassword({ email, password })
  if (error || !data.session) throw new Error(`could not sign ${email} in: ${error?.message ?? 'no session'}`)
  return sessionCookies(baseURL, data.session)
}

export async function addSessionCookies(context: BrowserContext, baseURL: string, cookies: SessionCookie[]) {
  await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: baseURL, sameSite: 'Lax' as const })))
}

/** Names of the auth cookies the browser holds now. */
export async function authCookies(context: BrowserContext, baseURL: string): Promise<string[]> {
  const prefix = authCookieName(baseURL)
  return (await context.cookies(baseURL)).map((cookie) => cookie.name).filter((name) => name.startsWith(prefix))
}

const minted = new Map<DemoAccount, SessionCookie[]>()

interface Fixtures {
  /** Automatic: what the browser asked for and logged, attached to a failed test (there is no trace). */
  flightLog: void
  /** Automatic: a page error or console error (hydration mismatches included) fails the test. */
  failOnConsoleError: void
  /** Signs the page's browser context in as a demo account, or as an account from `makeUser`. */
  signedInAs: (who: DemoAccount | TestAccount, options?: { fresh?: boolean }) => Promise<void>
  /** A new account made through the Auth admin API; deleted again after the test. */
  makeUser: (options?: { role?: 'user' | 'creator'; label?: string }) => Promise<TestAccount>
}

export const test = base.extend<Fixtures>({
  // Set up first, so it is torn down last: a failure found by another fixture's teardown is seen.
  flightLog: [
    async ({ context }, use, testInfo) => {
      const started = Date.now()
      const lines: string[] = []
      const at = () => secondsAfter(started, Date.now())
      context.on('console', (message) => lines.push(`${at()}  console.${message.type()}: ${message.text()}`))
      context.on('weberror', (error) => lines.push(`${at()}  page error: ${error.error().stack ?? error.error().message}`))
      context.on('page', (page) => {
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) lines.push(`${at()}  page at ${pathOf(frame.url())}`)
        })
      })
      await use()
      if (testInfo.status !== testInfo.expectedStatus) {
        // Requests are read from the pages' Resource Timing only now: listening to every request and response
        // cost each test their protocol messages (about a sixth of the Playwright process's CPU).
        for (const page of context.pages()) lines.push(...(await requestsOf(page, started)))
        if (!lines.length) return
        const file = testInfo.outputPath('network-and-console.txt')
        await writeFile(file, lines.join('\n') + '\n')
        await testInfo.attach('network-and-console.txt', { path: file, contentType: 'text/plain' })
      }
    },
    { auto: true },
  ],

  failOnConsoleError: [
    async ({ page }, use) => {
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      page.on('console', (message) => {
        // A 4xx answer to a form post is expected (validation); the browser logs it as a failed load.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          problems.push(`console.error: ${message.text()}`)
        }
      })
      await use()
      expect(problems, 'the page logged errors').toEqual([])
    },
    { auto: true },
  ],

  signedInAs: async ({ context, baseURL }, use) => {
    const origin = baseURL!
    await use(async (who, options = {}) => {
      if (typeof who !== 'string') {
        await addSessionCookies(context, origin, await signInForCookies(origin, who.email, who.password))
        return
      }
      let cookies = options.fresh ? undefined : minted.get(who)
      if (!cookies) {
        cookies = await signInForCookies(origin, DEMO_ACCOUNTS[who].email, DEMO_PASSWORD)
        if (!options.fresh) minted.set(who, cookies)
      }
      await addSessionCookies(context, origin, cookies)
    })
  },

  makeUser: async ({ baseURL }, use) => {
    const admin = supabaseFor(baseURL!, 'service')
    const made: string[] = []
    await use(async ({ role = 'user', label = role === 'creator' ? 'maker' : 'learner' } = {}) => {
      const suffix = randomUUID().slice(0, 8)
      const account = {
        email: `${label}-${suffix}@lumen.test`,
        password: `Pw-${randomUUID()}`,
        username: `${label}_${suffix}`,
        role,
      }
      const { data, error } = await admin.auth.admin.createUser({
        email: account.email,
        password: account.password,
        email_confirm: true,
        user_metadata: {
          username: account.username,
          role,
          ...(role === 'creator' ? { bio: 'I teach things in e2e tests.', creator_categories: ['technology-innovation'] } : {}),
        },
      })
      if (error || !data.user) throw new Error(`could not create ${account.email}: ${error?.message ?? 'no user'}`)
      made.push(data.user.id)
      return { id: data.user.id, ...account }
    })
    for (const id of made) await admin.auth.admin.deleteUser(id)
  },
})

export { expect }
export type { Page }

/** A URL without its origin: every request here goes to the server under test. */
const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '')
/** A moment of a failed test's log, as seconds since the test began. */
const secondsAfter = (started: number, moment: number) => `${((moment - started) / 1000).toFixed(2).padStart(7)} s`

/**
 * What the page's document asked for, from its Resource Timing: when (seconds since the test began), the
 * status (0: failed, or taken from the memory cache), how long, and by what. A page that does not answer
 * within 2 s gets a line saying so.
 */
async function requestsOf(page: Page, testStarted: number): Promise<string[]> {
  const read = page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => {
      const timing = entry as PerformanceResourceTiming & { responseStatus?: number }
      return {
        at: performance.timeOrigin + timing.startTime,
        status: timing.responseStatus ?? 0,
        took: Math.round(timing.duration),
        by: timing.initiatorType,
        url: timing.name,
      }
    }),
  )
  let timer: ReturnType<typeof setTimeout> | undefined
  const entries = await Promise.race([
    read.catch(() => null),
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 2_000))),
  ])
  clearTimeout(timer)
  if (!entries) return [`(the requests of ${pathOf(page.url())} could not be read)`]
  return [
    `requests of ${pathOf(page.url())} (Resource Timing):`,
    ...entries.map(
      (entry) => `${secondsAfter(testStarted, entry.at)}  ${entry.status} ${entry.by} ${pathOf(entry.url)} (${entry.took} ms)`,
    ),
  ]
}

/** axe-core on the page as it is now (menus and panels open included): no serious or critical violations. */
export async function expectAccessible(page: Page) {
  // Colours are judged as drawn: an element half-way through fading in or out (a flash toast) has too little
  // contrast. Animations ending within a second end first; endless ones (spinners), paused ones and ones still
  // waiting for their delay (the toast's fade-out, seconds away) are judged as they are. The wait is capped: an
  // animation paused while waited on (a pointer resting on the toast) never finishes.
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((animation) => {
      const timing = animation.effect?.getComputedTiming()
      if (animation.playState !== 'running' || timing?.progress == null || timing.endTime == null) return false
      return Number(timing.endTime) - Number(timing.localTime ?? 0) <= 1_000
    })
    const finished = Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)))
    await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 1_500))])
  })
  // Violations only: axe then keeps no node lists for the rules that passed (a tenth less of its time per page).
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze()
  const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
  expect(
    serious.map(
      (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    ),
    `accessibility of ${page.url()}`,
  ).toEqual([])
}

/** The page fits the viewport's width: nothing makes it scroll sideways. */
export async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0)
}
