import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES } from '../e2e/support/chromium'

/**
 * Chromium reads only the last `--disable-features` switch, so the e2e suite's own list replaces
 * the one Playwright passes: it must repeat it. Playwright does not export its list; it is read
 * here from the installed playwright-core's source.
 */
function playwrightDisabledFeatures(): string[] {
  const root = path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'))
  const source = ['lib/coreBundle.js', 'lib/server/chromium/chromiumSwitches.js']
    .map((file) => path.join(root, file))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8'))
    .find((text) => /disabledFeatures = \[/.test(text))
  if (!source)
    throw new Error(
      'playwright-core no longer has a `disabledFeatures` list where this test looks: read how it launches Chromium',
    )
  const list = /disabledFeatures = \[([\s\S]*?)\]/.exec(source)![1]!
  return [...list.replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((match) => match[1]!)
}

describe('the e2e suite’s Chromium switches', () => {
  it('repeat every feature Playwright disables, in the one --disable-features switch', () => {
    const features = playwrightDisabledFeatures()
    expect(features.length).toBeGreaterThan(5)
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...features].sort())
    const switches = CHROMIUM_ARGS.filter((arg) => arg.startsWith('--disable-features='))
    expect(switches).toHaveLength(1)
    const ours = switches[0]!.slice('--disable-features='.length).split(',')
    for (const feature of features) expect(ours).toContain(feature)
  })
})
