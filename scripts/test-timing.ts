/**
 * What `npm test` (scripts/test.ts) prints at its end about time and counts:
 * each suite's wall time and number of tests, and the slowest test files
 * across the Vitest projects and Playwright. Read from the JSON reports the
 * runners write beside their usual output.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

export interface FileTime {
  /** The test file, relative to the repository. */
  file: string
  /** Which suite ran it (with Playwright's project, e.g. `e2e desktop`). */
  suite: string
  ms: number
}

export interface Counts {
  /** Tests that ran (passed or failed). */
  ran: number
  /** Tests declared but not run (skipped, todo). */
  skipped: number
}

export const noCounts: Counts = { ran: 0, skipped: 0 }

export function addCounts(a: Counts, b: Counts): Counts {
  return { ran: a.ran + b.ran, skipped: a.skipped + b.skipped }
}

const relative = (file: string) => path.relative(process.cwd(), path.resolve(file))

interface VitestReport {
  numPassedTests?: number
  numFailedTests?: number
  numPendingTests?: number
  numTodoTests?: number
  testResults?: { name: string; startTime?: number; endTime?: number }[]
}

/** Counts and per-file times from Vitest's `json` reporter output. */
export function readVitestReport(file: string, suite: string): { counts: Counts; files: FileTime[] } {
  if (!existsSync(file)) return { counts: noCounts, files: [] }
  const report = JSON.parse(readFileSync(file, 'utf8')) as VitestReport
  return {
    counts: {
      ran: (report.numPassedTests ?? 0) + (report.numFailedTests ?? 0),
      skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    },
    files: (report.testResults ?? []).map((result) => ({
      file: relative(result.name),
      suite,
      ms: Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0)),
    })),
  }
}

interface PlaywrightSuite {
  title?: string
  file?: string
  suites?: PlaywrightSuite[]
  specs?: {
    title?: string
    file?: string
    tests?: { projectName?: string; results?: { duration?: number; status?: string }[] }[]
  }[]
}

/**
 * Counts and per-file times (the sum of its tests' durations, retries included)
 * from Playwright's `json` reporter output. A test run on two projects counts twice in `counts`;
 * `distinct` names each test that ran on any project once (file and titles), so the runs of
 * several reports can be told apart from the tests they hold.
 */
export function readPlaywrightReport(file: string, suite: string): { counts: Counts; files: FileTime[]; distinct: string[] } {
  if (!existsSync(file)) return { counts: noCounts, files: [], distinct: [] }
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites?: PlaywrightSuite[]; config?: { rootDir?: string } }
  const rootDir = report.config?.rootDir ?? 'tests/e2e'
  const times = new Map<string, FileTime>()
  let counts = noCounts
  const distinct = new Set<string>()
  const visit = (node: PlaywrightSuite, titles: string[]) => {
    for (const spec of node.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const results = test.results ?? []
        const ran = results.some((result) => result.status !== 'skipped')
        counts = addCounts(counts, ran ? { ran: 1, skipped: 0 } : { ran: 0, skipped: 1 })
        const name = relative(path.join(rootDir, spec.file ?? node.file ?? '?'))
        if (ran) distinct.add([name, ...titles, spec.title ?? ''].join(' › '))
        const key = `${test.projectName ?? ''} ${name}`
        const entry = times.get(key) ?? { file: name, suite: test.projectName ? `${suite} ${test.projectName}` : suite, ms: 0 }
        entry.ms += results.reduce((sum, result) => sum + (result.duration ?? 0), 0)
        times.set(key, entry)
      }
    }
    for (const child of node.suites ?? []) visit(child, [...titles, child.title ?? ''])
  }
  // The top suites are the files (their title is the file's name), then describe blocks.
  for (const top of report.suites ?? []) visit(top, [])
  return { counts, files: [...times.values()], distinct: [...distinct] }
}

/** pg_prove's closing line, `Files=24, Tests=812, …`: the number of pgTAP assertions. */
export function pgProveCountOf(line: string): Counts | null {
  const match = /\bFiles=\d+, Tests=(\d+)/.exec(line)
  return match ? { ran: Number(match[1]), skipped: 0 } : null
}

export function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 1000)
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s` : `${seconds} s`
}

/** A moment of the run as minutes and seconds from its start: `4:05`. */
export function formatClock(ms: number): string {
  const seconds = Math.round(ms / 1000)
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

/** The `limit` slowest files, slowest first. */
export function slowest(files: FileTime[], limit = 15): FileTime[] {
  return [...files].sort((a, b) => b.ms - a.ms).slice(0, limit)
}
