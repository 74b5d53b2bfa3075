import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { createRequire } from 'node:module'
import { setPriority } from 'node:os'
import path from 'node:path'
import { getEnv } from '../ops/env'

/**
 * Where ffmpeg and ffprobe come from, and how they run. In order:
 * FFMPEG_PATH / FFPROBE_PATH, then the binaries on PATH (a system ffmpeg is
 * usually the newest and fastest), then the static builds the
 * @ffmpeg-installer / @ffprobe-installer npm packages ship, so a fresh
 * checkout transcodes without installing anything.
 */
export type MediaToolSource = 'env' | 'path' | 'npm'

export interface MediaTool {
  path: string
  source: MediaToolSource
}

export interface MediaTools {
  ffmpeg: MediaTool
  ffprobe: MediaTool
}

const npmPackages = { ffmpeg: '@ffmpeg-installer/ffmpeg', ffprobe: '@ffprobe-installer/ffprobe' } as const
const envNames = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' } as const

let cached: MediaTools | undefined

/** The tools to use, found once per process (pass `env` to look again, as tests do). */
export function resolveMediaTools(env?: Record<string, string | undefined>): MediaTools {
  if (!env && cached) return cached
  const source = env ?? { PATH: process.env.PATH, FFMPEG_PATH: getEnv().FFMPEG_PATH, FFPROBE_PATH: getEnv().FFPROBE_PATH }
  const tools = { ffmpeg: resolveTool('ffmpeg', source), ffprobe: resolveTool('ffprobe', source) }
  if (!env) cached = tools
  return tools
}

/** "ffmpeg /usr/bin/ffmpeg (PATH), ffprobe … (npm package)" for start-up logs. */
export function describeMediaTools(tools: MediaTools): string {
  const label = { env: 'from env', path: 'PATH', npm: 'npm package' } as const
  return (['ffmpeg', 'ffprobe'] as const).map((name) => `${name} ${tools[name].path} (${label[tools[name].source]})`).join(', ')
}

function resolveTool(name: 'ffmpeg' | 'ffprobe', env: Record<string, string | undefined>): MediaTool {
  const configured = env[envNames[name]]?.trim()
  if (configured) {
    if (!isExecutable(configured)) throw new Error(`${envNames[name]}=${configured} is not an executable file`)
    return { path: configured, source: 'env' }
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, name)
    if (isExecutable(candidate)) return { path: candidate, source: 'path' }
  }
  try {
    const shipped = createRequire(import.meta.url)(npmPackages[name]) as { path: string }
    if (isExecutable(shipped.path)) return { path: shipped.path, source: 'npm' }
  } catch {
    // Not installed for this platform: fall through to the error below.
  }
  throw new Error(`${name} not found: set ${envNames[name]}, install it on PATH, or install ${npmPackages[name]} (npm install)`)
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

export interface RunOptions {
  /** Aborting kills the process (SIGKILL); the promise settles once it has exited. */
  signal?: AbortSignal
  /** Kill the process after this long. */
  timeoutMs?: number
  cwd?: string
  /** A lower CPU priority for the process (a nice value, 1–19), so that it only takes what others leave. */
  niceness?: number
}

export interface RunResult {
  stdout: string
  stderr: string
}

/** A tool that exited non-zero, timed out or was killed; `message` ends with its last stderr lines. */
export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly tool: string,
    readonly exitCode: number | null,
    readonly stderrTail: string,
    readonly aborted: boolean,
  ) {
    super(message)
    this.name = 'MediaToolError'
  }
}

const STDERR_KEEP = 64 * 1024
const STDOUT_LIMIT = 16 * 1024 * 1024

/**
 * Runs a media tool without a shell. Keeps all of stdout (ffprobe's JSON,
 * capped) and the tail of stderr (ffmpeg's errors come last). Never resolves
 * or rejects before the child has exited, so a caller that awaited this knows
 * no process is left behind.
 */
export function runMediaTool(tool: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const name = path.basename(tool)
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new MediaToolError(`${name} was not started: aborted`, name, null, '', true))
      return
    }
    const child = spawn(tool, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    if (options.niceness && child.pid !== undefined) {
      try {
        setPriority(child.pid, options.niceness)
      } catch {
        // Gone already, or not allowed here: it runs at the normal priority.
      }
    }
    const stdout: Buffer[] = []
    let stdoutBytes = 0
    let stderr = ''
    let killedBecause: string | undefined

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length
      if (stdoutBytes <= STDOUT_LIMIT) stdout.push(chunk)
      else kill('its output was too large')
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP)
    })

    const kill = (reason: string) => {
      if (killedBecause || child.exitCode !== null || child.signalCode !== null) return
      killedBecause = reason
      child.kill('SIGKILL')
    }
    const onAbort = () => kill('aborted')
    options.signal?.addEventListener('abort', onAbort, { once: true })
    const timer = options.timeoutMs
      ? setTimeout(() => kill(`timed out after ${options.timeoutMs} ms`), options.timeoutMs)
      : undefined

    child.on('error', (error) => {
      // Spawn failed (ENOENT, EACCES): no process exists, 'close' may not follow.
      cleanup()
      reject(new MediaToolError(`${name} could not start: ${error.message}`, name, null, '', false))
    })
    child.on('close', (code, signal) => {
      cleanup()
      const tail = lastLines(stderr)
      if (code === 0 && !killedBecause) {
        resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr })
        return
      }
      const why = killedBecause ?? (signal ? `was killed by ${signal}` : `exited with code ${code}`)
      const message = `${name} ${killedBecause ? `stopped: ${why}` : why}${tail ? `: ${tail}` : ''}`
      reject(new MediaToolError(message, name, code, tail, killedBecause === 'aborted'))
    })

    function cleanup() {
      if (timer) clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
    }
  })
}

/** The last few non-empty lines of a tool's stderr: where ffmpeg says what went wrong. */
export function lastLines(text: string, count = 8, maxChars = 1500): string {
  const lines = text
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean)
  return lines.slice(-count).join(' | ').slice(-maxChars)
}
