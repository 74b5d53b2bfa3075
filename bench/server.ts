import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createChunks, stringToBase64URL } from '@supabase/ssr'
import { createClient } from '@supabase/supabase-js'
import autocannon from 'autocannon'
import type pg from 'pg'
import { openDatabase } from '../db/connect'
import { migrate } from '../db/migrate'
import { seedDemoData } from '../db/seed'
import { nodeRealtimeOptions } from '../db/supabase-node'
import { createScratchDatabase } from '../tests/support/postgres'

/**
 * What the server benches share: a fresh database (PGlite or a scratch
 * database on TEST_DATABASE_URL) prepared by `seed`, the production server
 * (`server.ts` on the built app) on a free loopback port, demo accounts'
 * cookies, and autocannon runs.
 */
export type Target = 'pglite' | 'postgres'

const DEMO_PASSWORD = 'Lumen-demo-2026'

export interface BenchServer {
  base: string
  dataDir: string
  target: Target
  /** The server's process id (its process group is ended by `stop`). */
  pid: number
  /** The scratch database's URL when the target is PostgreSQL (for reading its backends' CPU). */
  databaseUrl?: string
  stop(): Promise<void>
}

export interface StartOptions {
  target: Target
  /** Fills the migrated database (demo accounts are loaded before). */
  seed?: (pool: pg.Pool) => Promise<void>
  /** Extra `node` flags for the server process (e.g. `--inspect=…`). */
  nodeArgs?: string[]
  /** Extra environment for the server. */
  env?: Record<string, string>
}

export async function startBenchServer(options: StartOptions): Promise<BenchServer> {
  const buildDir = ensureBuild()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lumen-bench-'))
  const scratch = options.target === 'postgres' ? await createScratchDatabase('bench') : null
  let server: ChildProcess | undefined
  const cleanUp = async () => {
    if (server?.pid && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve))
      try {
        process.kill(-server.pid, 'SIGTERM')
      } catch {
        // Gone already.
      }
      await exited
    }
    await scratch?.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    // Seed first: PGlite's directory may be open in one process only, so the server opens it afterwards.
    const handle = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir: path.join(dataDir, 'pglite') })
    try {
      await migrate(handle.pool)
      await seedDemoData(handle.pool)
      await options.seed?.(handle.pool)
    } finally {
      await handle.close()
    }
    const port = await freePort()
    const base = `http://localhost:${port}`
    server = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'server.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        DATA_DIR: dataDir,
        LUMEN_BUILD_DIR: buildDir,
        MEDIA_WORKER: 'off',
        LOG_LEVEL: 'warn',
        // The figures are for one server process (server mode would otherwise use every core).
        WEB_CONCURRENCY: '1',
        // Server mode insists on an SMTP server for password-reset mail; the bench sends none.
        ...(scratch ? { DATABASE_URL: scratch.url, SMTP_URL: process.env.SMTP_URL ?? 'smtp://127.0.0.1:2525' } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    })
    const exited = new Promise<never>((_, reject) =>
      server!.once('exit', (code) => reject(new Error(`the bench server exited (code ${code}) before it was ready`))),
    )
    exited.catch(() => {})
    await Promise.race([waitForServer(base), exited])
    return { base, dataDir, target: options.target, pid: server.pid!, databaseUrl: scratch?.url, stop: cleanUp }
  } catch (error) {
    await cleanUp()
    throw error
  }
}

export interface LoadResult {
  rps: number
  p50: number
  p99: number
  /** Non-2xx answers and errors. */
  bad: number
  /** Requests answered. */
  requests: number
}

/** autocannon against one URL: a short warm-up, then `seconds` of load. */
export async function load(
  url: string,
  options: { headers?: Record<string, string>; connections: number; seconds: number; warmUp?: number },
): Promise<LoadResult> {
  if (options.warmUp !== 0) {
    await autocannon({ url, headers: options.headers, connections: options.connections, duration: options.warmUp ?? 2 })
  }
  const result = await autocannon({ url, headers: options.headers, connections: options.connections, duration: options.seconds })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  }
}

/**
 * CPU seconds a process has used (user + system, Linux `/proc/<pid>/stat`),
 * or null elsewhere. Unlike requests per second, CPU time per request
 * hardly changes when other work shares the machine.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return null
  }
}
const CLOCK_TICKS = 100

export function ensureBuild(): string {
  const buildDir = process.env.LUMEN_BUILD_DIR ?? 'build'
  if (!existsSync(path.join(buildDir, 'server/index.js'))) {
    const built = spawnSync('npx', ['remix', 'vite:build'], {
      stdio: 'inherit',
      env: { ...process.env, LUMEN_BUILD_DIR: buildDir },
    })
    if (built.status !== 0) throw new Error('the production build failed')
  }
  return buildDir
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export async function waitForServer(base: string): Promise<void> {
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    try {
      const response = await fetch(base)
      await response.arrayBuffer()
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the server at ${base} did not start`)
}

/** A demo account's session cookies (the learner's by default), as @supabase/ssr writes them. */
export async function learnerCookie(base: string, dataDir: string, email = 'learner@lumen.test'): Promise<string> {
  const keys = JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as { anonKey: string }
  const supabase = createClient(base, keys.anonKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error || !data.session) throw new Error(`could not sign ${email} in: ${error?.message ?? 'no session'}`)
  const name = `sb-${new URL(base).hostname.split('.')[0]}-auth-token`
  return createChunks(name, `base64-${stringToBase64URL(JSON.stringify(data.session))}`)
    .map((chunk) => `${chunk.name}=${chunk.value}`)
    .join('; ')
}

/**
 * The bare twin of `real`'s signed-in pages (bench/twin-server.ts): the same build rendering the
 * data `real` returned for `paths` once, with no session and no database. One process, as `real`.
 */
export async function startTwinServer(
  real: BenchServer,
  cookie: string,
  paths: string[],
  nodeArgs: string[] = [],
): Promise<BenchServer> {
  const port = await freePort()
  const base = `http://localhost:${port}`
  const twin = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'bench/twin-server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: real.dataDir,
      LUMEN_BUILD_DIR: ensureBuild(),
      LOG_LEVEL: 'warn',
      TWIN_SOURCE: real.base,
      TWIN_COOKIE: cookie,
      TWIN_PATHS: JSON.stringify(paths),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  })
  const stop = async () => {
    if (twin.pid && twin.exitCode === null && twin.signalCode === null) {
      const exited = new Promise((resolve) => twin.once('exit', resolve))
      try {
        process.kill(-twin.pid, 'SIGTERM')
      } catch {
        // Gone already.
      }
      await exited
    }
  }
  const exited = new Promise<never>((_, reject) =>
    twin.once('exit', (code) => reject(new Error(`the twin server exited (code ${code}) before it was ready`))),
  )
  exited.catch(() => {})
  try {
    await Promise.race([waitForServer(base + (paths[0] ?? '/')), exited])
  } catch (error) {
    await stop()
    throw error
  }
  return { base, dataDir: real.dataDir, target: real.target, pid: twin.pid!, stop }
}
