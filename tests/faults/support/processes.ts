import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import path from 'node:path'
import { scratchRoot } from '../../support/scratch-dir'

/**
 * Real Lumen processes for the fault suite: the bundled server of the
 * production build, as `npm start` runs it (`node scripts/start.mjs`), and
 * `tsx scripts/worker.ts`, each with its JSON log lines collected, killed by
 * PID only (never by name).
 */
export const ROOT = path.resolve(import.meta.dirname, '../../..')
/** Node itself with tsx's loader, for the worker: the PID is the worker's own (the tsx CLI would put a parent in between). */
const NODE_TSX = [process.execPath, '--import', 'tsx'] as const
/** The production build the e2e suite makes; `npm test -- faults` builds it first when absent. */
export const BUILD_DIR = process.env.LUMEN_BUILD_DIR ?? path.join(ROOT, 'build')

export function haveBuild(): boolean {
  return existsSync(path.join(BUILD_DIR, 'server/index.js')) && existsSync(path.join(BUILD_DIR, 'lumen/server.mjs'))
}

/** A free loopback port, from FAULT_PORT_BASE (default: any the system gives). */
let nextPort = Number(process.env.FAULT_PORT_BASE ?? 0)
export async function freePort(): Promise<number> {
  for (;;) {
    const wanted = nextPort ? nextPort++ : 0
    const port = await new Promise<number | null>((resolve) => {
      const probe = createServer()
      probe.once('error', () => resolve(null))
      probe.listen(wanted, '127.0.0.1', () => {
        const address = probe.address()
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : null))
      })
    })
    if (port) return port
    if (!wanted) throw new Error('no free port')
  }
}

export interface LogLine {
  level: string
  msg: string
  requestId?: string
  jobId?: number
  component?: string
  [field: string]: unknown
}

export interface LumenProcess {
  child: ChildProcess
  /** Every line written to stdout and stderr so far. */
  output: string[]
  /** stdout lines that parsed as JSON log entries. */
  logs(): LogLine[]
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  waitForLog(test: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

function track(child: ChildProcess): LumenProcess {
  const output: string[] = []
  const listeners = new Set<() => void>()
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop()!
      output.push(...lines)
      for (const listener of [...listeners]) listener()
    })
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const logs = () =>
    output.flatMap((line) => {
      if (!line.startsWith('{')) return []
      try {
        return [JSON.parse(line) as LogLine]
      } catch {
        return []
      }
    })
  return {
    child,
    output,
    logs,
    exited,
    waitForLog(test, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = logs().find(test)
          if (found) {
            done()
            resolve(found)
          }
        }
        const timer = setTimeout(() => {
          done()
          reject(new Error(`log line not seen in ${timeoutMs} ms; output:\n${output.slice(-40).join('\n')}`))
        }, timeoutMs)
        const ended = () => {
          done()
          reject(new Error(`process exited before the log line; output:\n${output.slice(-40).join('\n')}`))
        }
        const done = () => {
          clearTimeout(timer)
          listeners.delete(check)
          child.off('exit', ended)
        }
        listeners.add(check)
        child.once('exit', ended)
        check()
      })
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

export interface ServerOptions {
  dataDir: string
  port: number
  /** PostgreSQL server mode; unset: embedded PGlite under dataDir. */
  databaseUrl?: string
  env?: Record<string, string>
}

export interface RunningServer extends LumenProcess {
  url: string
  port: number
  dataDir: string
}

/** `npm start` without the build step (`node scripts/start.mjs`, production mode); resolves once it logs that it is ready. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const url = `http://127.0.0.1:${options.port}`
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: options.dataDir,
    LUMEN_BUILD_DIR: BUILD_DIR,
    SEED_DEMO_DATA: 'false',
    ...options.env,
  }
  delete env.VITEST
  delete env.SUPABASE_URL
  delete env.SUPABASE_ANON_KEY
  delete env.SUPABASE_SERVICE_ROLE_KEY
  delete env.SUPABASE_JWT_SECRET
  delete env.SESSION_SECRET
  if (options.databaseUrl) {
    env.DATABASE_URL = options.databaseUrl
    env.SMTP_URL ??= 'smtp://127.0.0.1:9'
  } else delete env.DATABASE_URL
  // The launcher imports the bundle in its own process: the PID is the server's.
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const tracked = track(child)
  await tracked.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('ready:'), 180_000)
  return { ...tracked, url, port: options.port, dataDir: options.dataDir }
}

export interface WorkerOptions {
  databaseUrl: string
  dataDir: string
  /** The stand-in the worker reaches Storage through. */
  publicUrl: string
  env?: Record<string, string>
}

/** `npm run worker` as its own process. */
export function startWorker(options: WorkerOptions): LumenProcess {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    LOG_LEVEL: 'info',
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: options.dataDir,
    PUBLIC_URL: options.publicUrl,
    ...options.env,
  }
  delete env.VITEST
  delete env.SUPABASE_URL
  delete env.SUPABASE_SERVICE_ROLE_KEY
  const child = spawn(NODE_TSX[0], [...NODE_TSX.slice(1), 'scripts/worker.ts'], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return track(child)
}

/** A fresh data directory, removed by `remove()`. */
export async function tempDataDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(scratchRoot(), `lumen-${label}-`))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

export async function readKeys(dataDir: string): Promise<{ anonKey: string; serviceRoleKey: string; jwtSecret: string }> {
  return JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as {
    anonKey: string
    serviceRoleKey: string
    jwtSecret: string
  }
}

/** The PIDs of a process's children and their children (Linux /proc). */
export async function descendants(pid: number): Promise<number[]> {
  const found: number[] = []
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[])
  for (const task of tasks) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')
    for (const child of text.split(/\s+/).filter(Boolean).map(Number)) found.push(child, ...(await descendants(child)))
  }
  return found
}

/**
 * The first descendant of `pid` whose command name is `name` (e.g. `ffmpeg`), polled
 * until `timeoutMs`; with `argsInclude`, only one whose command line contains it (a
 * worker runs an ffmpeg for each job: the one of a given job works in a folder named
 * after it).
 */
export async function waitForDescendant(
  pid: number,
  name: string,
  { timeoutMs = 120_000, argsInclude }: { timeoutMs?: number; argsInclude?: string } = {},
): Promise<number> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    for (const child of await descendants(pid)) {
      const comm = (await readFile(`/proc/${child}/comm`, 'utf8').catch(() => '')).trim()
      if (comm !== name) continue
      if (argsInclude === undefined) return child
      const args = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '')
      if (args.includes(argsInclude)) return child
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`no ${name}${argsInclude ? ` with ${argsInclude}` : ''} under process ${pid} within ${timeoutMs} ms`)
}

/** SIGKILL by PID, ignoring a process that has gone already. */
export function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // already gone
  }
}
