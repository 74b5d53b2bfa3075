import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PHONE_TAG, specFiles } from '../../scripts/e2e-shards'

/**
 * playwright.config.ts runs every e2e test on the desktop project and, on the phone project, only the
 * tests tagged `@phone` (both projects) or `@phone-only` (the phone's own layout). A test that skipped
 * itself unless it ran on the phone (`test.skip(!isMobile)`, `project.name !== 'phone'`) would so never
 * run anywhere, silently: it must carry the tag instead.
 */
const PHONE_ONLY_SKIP = /test\.(skip|fixme)\([^\n]*(!isMobile|project\.name !== 'phone'|project\.name === 'desktop')/

describe('e2e phone tags', () => {
  const files = specFiles()

  it('no test waits for the phone project by skipping itself elsewhere', () => {
    const offending = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ line, at: `${file}:${index + 1}` }))
        .filter(({ line }) => PHONE_ONLY_SKIP.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()} — tag the test { tag: '@phone-only' } instead`),
    )
    expect(offending).toEqual([])
  })

  it('some tests are on the phone, and the tags are spelt as the config reads them', () => {
    const tags = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/tag: '(@[\w-]+)'/g)].map((match) => match[1]!))
    expect(tags.length).toBeGreaterThan(10)
    expect(tags.filter((tag) => !['@phone', '@phone-only'].includes(tag))).toEqual([])
    expect(tags.every((tag) => PHONE_TAG.test(tag))).toBe(true)
  })
})
