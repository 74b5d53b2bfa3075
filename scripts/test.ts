/**
 * `npm test`: every suite, in the order that fails fastest.
 *   static       tsc --noEmit, then ESLint (types, hooks, accessibility, import boundaries)
 *   unit         Vitest, no services, and the `components` project (React components in happy-dom)
 *   integration  Vitest against real PostgreSQL 15 and embedded PGlite
 *   security     Vitest: ADR 0012's findings and their classes, against the stand-in
 *   rls          pgTAP files in supabase/tests, by pg_prove on PostgreSQL 15
 *   e2e          Playwright in Debian's Chromium against a production build
 *   faults       Vitest project `faults`: real processes SIGKILLed, SIGTERMed and their database
 *                restarted (ADR 0017)
 * e2e and faults share one production build, made only when its sources changed (productionBuild).
 * `npm test -- rls e2e` runs only the named suites; `npm test -- static` only the static checks.
 * static, unit and rls run side by side; the others start when the suites before them end, faults beside
 * the last e2e shard (see `startsAfter`). The production build and the e2e data are made from the start,
 * beside the first suites (`e2eGroundwork`).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { openDatabase } from '../db/connect'
import { migrate } from '../db/migrate'
import { createScratchDatabase } from '../tests/support/postgres'
import { prepareE2eData, type E2eData } from './e2e-data'
import { blendDurations, durationsOf, planShards, projectFiles, PROJECTS, readDurations, shardEnv, specFiles, writeDurations } from './e2e-shards'
import { BUILD_INPUTS, sourceHash } from './source-hash'
import { failureLineOf } from './test-output'
import {
  addCounts,
  formatClock,
  formatSeconds,
  noCounts,
  pgProveCountOf,
  readPlaywrightReport,
  readVitestReport,
  slowest,
  type Counts,
  type FileTime,
} from './test-timing'

const all = ['static', 'unit', 'integration', 'security', 'rls', 'e2e', 'faults'] as const
type Suite = (typeof all)[number]
const requested = process.argv.slice(2).filter((arg): arg is Suite => (all as readonly string[]).includes(arg))
const suites: readonly Suite[] = requested.length ? requested : all

/**
 * Runs a command, its output passed through line by line (after `label`, if any);
 * the lines that name a failure are kept for the summary, so the end of a long
 * log still says which test failed (two e2e shards interleave their reports).
 */
function run(
  command: string,
  args: string[],
  { env = process.env, label: ownLabel = '', onLine = (_line: string) => {} } = {},
): Promise<boolean> {
  const suite = current.getStore()
  const label = (suite?.label ?? '') + ownLabel
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.stdout.isTTY ? { FORCE_COLOR: '1', ...env } : env,
  })
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      console.log(label + line)
      onLine(line)
      const failure = failureLineOf(line)
      if (failure) suite?.failures.push(label + failure)
    })
  }
  return new Promise<boolean>((resolve) => {
    child.on('error', () => resolve(false))
    child.on('close', (code) => resolve(code === 0))
  })
}

/** The suite a command runs for: its output's label (when suites run side by side), its failures and test count. */
interface SuiteRun {
  label: string
  failures: string[]
  counts: Counts | null
  /** Playwright: each test that ran, once, whichever projects ran it. */
  distinct?: Set<string>
}
const current = new AsyncLocalStorage<SuiteRun>()

function addToCounts(counts: Counts) {
  const suite = current.getStore()
  if (suite) suite.counts = addCounts(suite.counts ?? noCounts, counts)
}

function heading(text: string) {
  console.log(`\n\x1b[1m── ${text} ${'─'.repeat(Math.max(0, 60 - text.length))}\x1b[0m`)
}

const needsServices = suites.some((suite) => suite !== 'static' && suite !== 'unit')
if (needsServices) {
  heading('checking system packages and PostgreSQL')
  const deps = spawnSync('bash', ['scripts/ensure-test-deps.sh'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
  if (deps.status !== 0) process.exit(1)
  const line = deps.stdout.trim().split('\n').pop() ?? ''
  process.env.TEST_DATABASE_URL = line.replace(/^TEST_DATABASE_URL=/, '')
}

/** `at`: when the suite started, from the start of the run. */
const results: { suite: Suite; at: number; ok: boolean; failures: string[]; ms: number; counts: Counts | null; distinct?: number }[] = []
/** The runners' JSON reports, read for the closing times and counts. */
const reportDir = mkdtempSync(path.join(tmpdir(), 'lumen-test-reports-'))
const fileTimes: FileTime[] = []

type Gate = Suite | 'first e2e shard'
/**
 * When each suite starts: once every suite or event it names is over (a suite not asked for counts
 * as over once its own are). static (tsc, then ESLint: one core), unit + components (light Vitest
 * workers) and rls (PostgreSQL's own processes) start at once, beside the e2e groundwork (the build and
 * data); integration starts when unit and rls are done, beside the end of ESLint; security after it.
 * Integration and security each keep both cores busy with two Vitest workers, and the e2e shards each
 * keep about one core busy. Faults starts when the first e2e shard ends: the shards are split to end
 * together, but one always ends first, and the other then keeps only one core busy; faults (processes
 * killed and restarted, timers, a 15-second load) takes the other.
 * `TEST_SERIAL=1` runs every suite alone, one after another.
 */
const startsAfter: Record<Suite, Gate[]> = process.env.TEST_SERIAL
  ? { static: [], unit: ['static'], integration: ['unit'], security: ['integration'], rls: ['security'], e2e: ['rls'], faults: ['e2e'] }
  : {
      static: [],
      unit: [],
      rls: [],
      integration: ['unit', 'rls'],
      security: ['integration'],
      e2e: ['security'],
      faults: ['security', 'first e2e shard'],
    }

const shardCount = Math.max(1, Number(process.env.E2E_SHARDS ?? 2))
const basePort = Number(process.env.E2E_PORT ?? 3100)
const groundwork: SuiteRun = { label: '[e2e prep] ', failures: [], counts: null }
let groundworkDone: Promise<{ built: boolean; data: E2eData | null }> | undefined

/**
 * The production build (e2e, faults) and the e2e data (the demo content processed, a copy per shard),
 * made once. Begun as the run starts, beside the first suites, which leave a core idle now and
 * then (tsc and ESLint run on one; tests wait on PostgreSQL and timers), so that e2e finds them ready
 * instead of starting with them: a fresh build is about 25 s and fresh data (after a change to the
 * schema, seed or media worker) 40–120 s of ffmpeg. Output lines start with `[e2e prep]`; a failure
 * counts against the first suite that needs them. With `TEST_SERIAL` they are made when needed.
 */
function e2eGroundwork(): Promise<{ built: boolean; data: E2eData | null }> {
  groundworkDone ??= current.run(groundwork, async () => {
    const started = Date.now()
    const built = await productionBuild()
    if (!built || !suites.includes('e2e')) return { built, data: null }
    console.log(`${groundwork.label}preparing the e2e data: demo accounts and content, processed once for every shard`)
    const data = await prepareE2eData(shardCount, basePort + shardCount).catch((error: unknown) => {
      const message = `${groundwork.label}${error instanceof Error ? error.message : String(error)}`
      console.error(message)
      groundwork.failures.push(message)
      return null
    })
    if (data) console.log(`${groundwork.label}the build and the e2e data ready in ${formatSeconds(Date.now() - started)}`)
    return { built, data }
  })
  return groundworkDone
}
if (!process.env.TEST_SERIAL && (suites.includes('e2e') || suites.includes('faults'))) void e2eGroundwork()

/** Runs `e2eGroundwork` (or waits for it) for a suite: its failures become the suite's. */
async function needGroundwork(): Promise<{ built: boolean; data: E2eData | null }> {
  const done = await e2eGroundwork()
  current.getStore()?.failures.push(...groundwork.failures.splice(0))
  return done
}

/**
 * How much earlier than the others the first e2e shard is planned to end when faults follows it
 * (recorded e2e time). Faults keeps about one and a half cores busy for two minutes on a quiet
 * machine (180 s of CPU in 124 s); beside a shard it takes the free core and the shard's gaps. Not
 * more: planned 120 s apart, the shards ended 2.7 min apart, faults took 2 min 51 s beside the last
 * one and slowed it, and e2e with faults took 9.6 min, against 9.0 at 60 s.
 */
const FAULTS_HEAD_START_MS = 60_000

/** Resolved when the first e2e shard's Playwright process ends (`runPlaywrightShards`). */
let firstShardEnded = () => {}
const firstShard = new Promise<void>((resolve) => {
  firstShardEnded = resolve
})
/** Labelled output when more than one suite may run at a time. */
const labelled = suites.length > 1 && !process.env.TEST_SERIAL
const finishing = new Map<Gate, Promise<void>>()

/** Resolves when `gate` is over: a suite asked for has run, one not asked for once its own gates are over. */
function over(gate: Gate): Promise<void> {
  let promise = finishing.get(gate)
  if (!promise) {
    if (gate === 'first e2e shard') promise = suites.includes('e2e') ? Promise.race([firstShard, over('e2e')]) : over('e2e')
    else if (suites.includes(gate)) promise = runWhenReady(gate)
    else promise = Promise.all(startsAfter[gate].map(over)).then(() => {})
    finishing.set(gate, promise)
  }
  return promise
}

async function runWhenReady(suite: Suite): Promise<void> {
  await Promise.all(startsAfter[suite].map(over))
  const running = [...started].filter((other) => !results.some((result) => result.suite === other))
  const at = Date.now() - startedAll
  heading(`${running.length ? `${suite} (beside ${running.join(', ')})` : suite} at ${formatClock(at)}`)
  started.add(suite)
  // The e2e shards label their own lines (`[e2e 1/2] `).
  const label = labelled && !(suite === 'e2e' && shardCount > 1) ? `[${suite}] ` : ''
  const state: SuiteRun = { label, failures: [], counts: suite === 'static' ? null : noCounts }
  const startedAt = Date.now()
  const ok = await current.run(state, () => runSuite(suite))
  results.push({
    suite,
    at,
    ok,
    failures: [...new Set(state.failures)],
    ms: Date.now() - startedAt,
    counts: state.counts,
    distinct: state.distinct?.size,
  })
}

const startedAll = Date.now()
const started = new Set<Suite>()
await Promise.all(suites.map(over))
// The summary in the order the suites started.
results.sort((a, b) => [...started].indexOf(a.suite) - [...started].indexOf(b.suite))
rmSync(reportDir, { recursive: true, force: true })

/** Vitest projects with a JSON report beside the usual output; their counts and file times are kept. */
async function vitest(...projects: string[]): Promise<boolean> {
  const name = projects.join('+')
  const report = path.join(reportDir, `vitest-${name}.json`)
  const ok = await run('npx', [
    'vitest',
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ])
  const { counts, files } = readVitestReport(report, name)
  addToCounts(counts)
  fileTimes.push(...files)
  return ok
}

async function runSuite(suite: Suite): Promise<boolean> {
  switch (suite) {
    case 'static':
      return (await run('npx', ['tsc', '--noEmit'])) && (await run('npx', ['eslint', '.']))
    case 'unit':
      return vitest('unit', 'components')
    case 'integration':
    case 'security':
      return vitest(suite)
    case 'rls':
      return runPgTap()
    case 'e2e': {
      const { built, data } = await needGroundwork()
      if (!built || !data) {
        await data?.remove()
        return false
      }
      return runPlaywrightShards(data)
    }
    case 'faults':
      return (await needGroundwork()).built && vitest('faults')
  }
}

heading('slowest test files')
for (const { file, suite, ms } of slowest(fileTimes)) {
  console.log(`${formatSeconds(ms).padStart(10)}  ${suite.padEnd(16)} ${file}`)
}

heading('summary')
for (const { suite, at, ok, failures, ms, counts, distinct } of results) {
  // e2e: runs on both projects count twice; the distinct tests follow.
  const runs = distinct !== undefined && counts && distinct !== counts.ran ? ` (${distinct} distinct, ${counts.ran - distinct} also on the phone)` : ''
  const tests = counts ? `${counts.ran} tests${runs}${counts.skipped ? `, ${counts.skipped} skipped` : ''}` : ''
  const span = `${formatClock(at)}–${formatClock(at + ms)}`
  console.log(`${ok ? '✔' : '✘'} ${suite.padEnd(12)} ${formatSeconds(ms).padStart(10)}  ${span.padEnd(11)}  ${tests}`)
  if (!ok) for (const line of failures.slice(0, 40)) console.log(`    ${line}`)
}
const failed = results.filter((result) => !result.ok).length
console.log(`suites: ${results.length - failed} passed, ${failed} failed, in ${formatSeconds(Date.now() - startedAll)}`)
process.exit(failed ? 1 : 0)

/**
 * One production build for e2e and faults, made when the files it is made from
 * (`BUILD_INPUTS`) changed since the last one: `build/.source-hash` names them.
 */
async function productionBuild(): Promise<boolean> {
  const hash = sourceHash(BUILD_INPUTS)
  const marker = 'build/.source-hash'
  if (existsSync('build/server/index.js') && existsSync(marker) && readFileSync(marker, 'utf8') === hash) {
    console.log(`${current.getStore()?.label ?? ''}the production build in build/ is of these sources (${hash}): reused`)
    return true
  }
  const ok = await run('npm', ['run', 'build'])
  if (ok) writeFileSync(marker, hash)
  return ok
}

/** The pgTAP suite on a fresh, migrated PostgreSQL database, as `supabase test db` would run it. */
async function runPgTap(): Promise<boolean> {
  const scratch = await createScratchDatabase('pgtap')
  try {
    const handle = await openDatabase({ databaseUrl: scratch.url })
    try {
      await migrate(handle.pool)
      await handle.pool.query('create extension if not exists pgtap')
    } finally {
      await handle.close()
    }
    const files = readdirSync('supabase/tests')
      .filter((file) => file.endsWith('.sql'))
      .sort()
      .map((file) => `supabase/tests/${file}`)
    const url = new URL(scratch.url)
    return await run('pg_prove', ['--ext', '.sql', '--failures', ...files], {
      onLine(line) {
        const counts = pgProveCountOf(line)
        if (counts) addToCounts(counts)
      },
      env: {
        ...process.env,
        PGHOST: url.hostname,
        PGPORT: url.port || '5432',
        PGUSER: decodeURIComponent(url.username),
        PGPASSWORD: decodeURIComponent(url.password),
        PGDATABASE: url.pathname.slice(1),
      },
    })
  } finally {
    await scratch.drop()
  }
}

/**
 * Playwright in `E2E_SHARDS` (default 2) concurrent processes, each with its own
 * production server, port and copy of the prepared data (scripts/e2e-data.ts), so
 * the shards share no state. Most of an e2e test is spent waiting on the browser and
 * the server, so two shards keep both cores busy; each output line names its shard.
 * The files of both projects are split by their last times (scripts/e2e-shards.ts),
 * and each shard runs its share of both projects in one Playwright process.
 */
async function runPlaywrightShards(data: E2eData): Promise<boolean> {
  const shards = data.shards.length
  const { durations, from } = readDurations()
  // Faults starts on the first shard's core when it ends: that shard is given less, so the two overlap.
  const faultsBeside = startsAfter.faults.includes('first e2e shard') && suites.includes('faults')
  const plans = planShards(projectFiles(specFiles()), durations, shards, { firstEndsEarlier: faultsBeside ? FAULTS_HEAD_START_MS : 0 })
  console.log(
    `the files split by their last times (${from === 'defaults' ? 'none recorded: defaults' : path.relative(process.cwd(), from) || from}), ` +
      `each expected to take about ${plans.map((plan) => formatSeconds(plan.ms)).join(' ∥ ')}` +
      (faultsBeside && shards > 1 ? ' (the first ends earlier: faults then starts beside the others)' : ''),
  )
  const before = fileTimes.length
  try {
    const runs = data.shards.map(async (dataDir, index) => {
      const label = shards > 1 ? `[e2e ${index + 1}/${shards}] ` : ''
      const plan = plans[index]!
      const projects = PROJECTS.filter((project) => plan.files[project].length > 0)
      if (!projects.length) {
        firstShardEnded()
        return true
      }
      // Artifacts per shard: Playwright empties its output folder when it starts.
      const name = `shard-${index + 1}`
      const report = path.join(reportDir, `playwright-${name}.json`)
      const env = {
        ...process.env,
        ...shardEnv(plan),
        E2E_PORT: String(basePort + index),
        E2E_DATA_DIR: dataDir,
        E2E_OUTPUT_DIR: `test-results/${name}`,
        PLAYWRIGHT_HTML_OUTPUT_DIR: `playwright-report/${name}`,
        E2E_JSON_REPORT: report,
      }
      const ok = await run('npx', ['playwright', 'test', ...projects.map((project) => `--project=${project}`)], { env, label })
      // The suites waiting on the first shard's end (faults) start now, beside the others.
      firstShardEnded()
      const { counts, files, distinct } = readPlaywrightReport(report, 'e2e')
      addToCounts(counts)
      const suite = current.getStore()
      if (suite) suite.distinct = new Set([...(suite.distinct ?? []), ...distinct])
      fileTimes.push(...files)
      return ok
    })
    const ok = (await Promise.all(runs)).every(Boolean)
    // The next run's split: only from a complete run (a failed one may have stopped early).
    if (ok) writeDurations(blendDurations(durations, durationsOf(fileTimes.slice(before))))
    return ok
  } finally {
    await data.remove()
  }
}
