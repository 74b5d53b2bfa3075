import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { formatClock, formatSeconds, pgProveCountOf, readPlaywrightReport, readVitestReport, slowest } from '../../scripts/test-timing'

const dir = mkdtempSync(path.join(tmpdir(), 'lumen-test-timing-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('npm test: times and counts', () => {
  it('reads counts and file times from Vitest’s JSON report', () => {
    const file = path.join(dir, 'vitest.json')
    writeFileSync(
      file,
      JSON.stringify({
        numPassedTests: 5,
        numFailedTests: 1,
        numPendingTests: 2,
        numTodoTests: 0,
        testResults: [{ name: path.resolve('tests/unit/a.test.ts'), startTime: 1000, endTime: 4500 }],
      }),
    )
    expect(readVitestReport(file, 'unit')).toEqual({
      counts: { ran: 6, skipped: 2 },
      files: [{ file: 'tests/unit/a.test.ts', suite: 'unit', ms: 3500 }],
    })
  })

  it('sums each Playwright file’s test durations per project and counts skipped tests apart', () => {
    const file = path.join(dir, 'playwright.json')
    const test = (duration: number, status = 'passed') => ({ projectName: 'desktop', results: [{ duration, status }] })
    writeFileSync(
      file,
      JSON.stringify({
        config: { rootDir: path.resolve('tests/e2e') },
        suites: [
          {
            file: 'a.spec.ts',
            specs: [{ file: 'a.spec.ts', tests: [test(1000), test(0, 'skipped')] }],
            suites: [{ file: 'a.spec.ts', specs: [{ file: 'a.spec.ts', tests: [test(2500)] }] }],
          },
        ],
      }),
    )
    expect(readPlaywrightReport(file, 'e2e')).toEqual({
      counts: { ran: 2, skipped: 1 },
      files: [{ file: 'tests/e2e/a.spec.ts', suite: 'e2e desktop', ms: 3500 }],
      // Untitled specs and suites here: the file's name and empty titles.
      distinct: ['tests/e2e/a.spec.ts › ', 'tests/e2e/a.spec.ts ›  › '],
    })
  })

  it('counts a test run on both projects twice, and once among the distinct tests', () => {
    const file = path.join(dir, 'playwright-both.json')
    const run = (projectName: string, status = 'passed') => ({ projectName, results: [{ duration: 1000, status }] })
    writeFileSync(
      file,
      JSON.stringify({
        config: { rootDir: path.resolve('tests/e2e') },
        suites: [
          {
            title: 'b.spec.ts',
            file: 'b.spec.ts',
            specs: [{ title: 'fits a phone', file: 'b.spec.ts', tests: [run('desktop'), run('phone')] }],
            suites: [
              {
                title: 'with JavaScript',
                file: 'b.spec.ts',
                specs: [
                  { title: 'saves a note', file: 'b.spec.ts', tests: [run('desktop')] },
                  { title: 'never ran', file: 'b.spec.ts', tests: [run('desktop', 'skipped')] },
                ],
              },
            ],
          },
        ],
      }),
    )
    const { counts, distinct } = readPlaywrightReport(file, 'e2e')
    expect(counts).toEqual({ ran: 3, skipped: 1 })
    expect(distinct).toEqual(['tests/e2e/b.spec.ts › fits a phone', 'tests/e2e/b.spec.ts › with JavaScript › saves a note'])
  })

  it('takes the number of pgTAP assertions from pg_prove’s closing line', () => {
    expect(pgProveCountOf('Files=24, Tests=812,  9 wallclock secs')).toEqual({ ran: 812, skipped: 0 })
    expect(pgProveCountOf('ok 3 - anon cannot read')).toBeNull()
  })

  it('reports no counts when a runner wrote no report', () => {
    expect(readVitestReport(path.join(dir, 'missing.json'), 'unit').counts).toEqual({ ran: 0, skipped: 0 })
  })

  it('orders files slowest first and formats minutes', () => {
    const files = [1, 3, 2].map((ms) => ({ file: String(ms), suite: 'unit', ms }))
    expect(slowest(files, 2).map((entry) => entry.ms)).toEqual([3, 2])
    expect(formatSeconds(125_000)).toBe('2 min 05 s')
    expect(formatSeconds(9_400)).toBe('9 s')
    // A suite's start and end in the summary, from the start of the run.
    expect(formatClock(301_300)).toBe('5:01')
    expect(formatClock(9_400)).toBe('0:09')
  })
})
