import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FileTime } from './test-timing'

/**
 * How `npm test` splits the Playwright files between its concurrent shards: by how long each file took
 * on each project (desktop, phone) the last time, longest first into the least-loaded shard (LPT), so the
 * shards end together. Playwright's own `--shard` splits by count, and the phone project (mostly skips)
 * used to run after one shard's half, which left the other shard idle for minutes.
 *
 * The times come from the last `npm test` on this machine (a file in the system's temporary folder), else
 * from `tests/e2e/durations.json` (committed; refresh it by copying the former), else a default per file.
 * A wrong guess only costs balance: every file still runs.
 *
 * The desktop project runs every file; the phone project only the files with a test tagged `@phone` or
 * `@phone-only` (playwright.config.ts): given a file without one, Playwright would stop with "No tests found".
 */
export const PROJECTS = ['desktop', 'phone'] as const
export type Project = (typeof PROJECTS)[number]

export interface ShardPlan {
  /** Per project, the spec files (relative to the repository) this shard runs. */
  files: Record<Project, string[]>
  /** The expected time, in ms. */
  ms: number
}

/** The seconds a file without a recorded time is taken to need: desktop runs most tests, phone skips most. */
const DEFAULT_MS: Record<Project, number> = { desktop: 30_000, phone: 8_000 }

export const COMMITTED_DURATIONS = 'tests/e2e/durations.json'
export const LOCAL_DURATIONS = path.join(tmpdir(), 'lumen-e2e-durations.json')

/** `project file` → ms. */
export type Durations = Record<string, number>

const keyOf = (project: Project, file: string) => `${project} ${file}`

/**
 * Longest first into the shard with the least expected time; ties go to the lower shard. Deterministic.
 * `files`: per project (see `projectFiles`), or one list for both. `firstEndsEarlier` (ms): the first shard
 * is planned to end that much before the others (`npm test` starts faults on its core when it ends).
 */
export function planShards(
  files: readonly string[] | Readonly<Record<Project, readonly string[]>>,
  durations: Durations,
  shards: number,
  { firstEndsEarlier = 0 } = {},
): ShardPlan[] {
  const plans: ShardPlan[] = Array.from({ length: Math.max(1, shards) }, () => ({ files: { desktop: [], phone: [] }, ms: 0 }))
  if (plans.length > 1) plans[0]!.ms = firstEndsEarlier
  const filesOf = (project: Project): readonly string[] => (isFileList(files) ? files : files[project])
  const items = PROJECTS.flatMap((project) =>
    filesOf(project).map((file) => ({ project, file, ms: durations[keyOf(project, file)] ?? DEFAULT_MS[project] })),
  ).sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file) || a.project.localeCompare(b.project))
  for (const item of items) {
    const target = plans.reduce((least, plan) => (plan.ms < least.ms ? plan : least), plans[0]!)
    target.files[item.project].push(item.file)
    target.ms += item.ms
  }
  if (plans.length > 1) plans[0]!.ms -= firstEndsEarlier
  for (const plan of plans) for (const project of PROJECTS) plan.files[project].sort()
  return plans
}

function isFileList(files: readonly string[] | Readonly<Record<Project, readonly string[]>>): files is readonly string[] {
  return Array.isArray(files)
}

/** The tag that puts a test on the phone project too (`@phone`) or only there (`@phone-only`). */
export const PHONE_TAG = /@phone\b/

/** Per project, the spec files it runs: all of them on desktop, those with a phone tag on the phone. */
export function projectFiles(files: readonly string[], root = process.cwd()): Record<Project, string[]> {
  return {
    desktop: [...files],
    phone: files.filter((file) => PHONE_TAG.test(readFileSync(path.join(root, file), 'utf8'))),
  }
}

/** The spec files under tests/e2e, relative to the repository. */
export function specFiles(root = process.cwd()): string[] {
  return readdirSync(path.join(root, 'tests/e2e'))
    .filter((name) => name.endsWith('.spec.ts'))
    .sort()
    .map((name) => `tests/e2e/${name}`)
}

export function readDurations(root = process.cwd()): { durations: Durations; from: string } {
  for (const file of [LOCAL_DURATIONS, path.join(root, COMMITTED_DURATIONS)]) {
    if (!existsSync(file)) continue
    try {
      return { durations: JSON.parse(readFileSync(file, 'utf8')) as Durations, from: file }
    } catch {
      // A torn or hand-broken file: try the next one.
    }
  }
  return { durations: {}, from: 'defaults' }
}

/** The times of a complete e2e run (`e2e desktop`/`e2e phone` entries of the slowest-files list), for the next plan. */
export function durationsOf(times: readonly FileTime[]): Durations {
  const durations: Durations = {}
  for (const { suite, file, ms } of times) {
    const project = suite.replace(/^e2e /, '')
    if (!(PROJECTS as readonly string[]).includes(project)) continue
    durations[keyOf(project as Project, file)] = (durations[keyOf(project as Project, file)] ?? 0) + Math.round(ms)
  }
  return durations
}

/**
 * The next plan's times: the mean of the last plan's and this run's for each file this run timed (a
 * file's time moves 20–30 % between runs with what ran beside it — faults, the other shard — and one
 * run's noise then skewed the next split by minutes); a file new in this run takes its time as is.
 */
export function blendDurations(previous: Durations, measured: Durations): Durations {
  return Object.fromEntries(
    Object.entries(measured).map(([key, ms]) => [key, previous[key] === undefined ? ms : Math.round((previous[key]! + ms) / 2)]),
  )
}

export function writeDurations(durations: Durations, file = LOCAL_DURATIONS): void {
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)))
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`)
}

/** The environment that tells playwright.config.ts which files each project runs in this shard. */
export function shardEnv(plan: ShardPlan): Record<string, string> {
  return { E2E_FILES_DESKTOP: JSON.stringify(plan.files.desktop), E2E_FILES_PHONE: JSON.stringify(plan.files.phone) }
}
