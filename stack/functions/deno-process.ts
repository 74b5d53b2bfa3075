import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { projectRoot } from '../../ops/paths'

/**
 * One edge function's Deno process: started on the first request, kept warm,
 * started again after it dies. It runs `deno-boot.ts`, which imports the
 * function and reports the loopback port it listens on. Deno's output goes to
 * this process's stdout/stderr, one prefixed line at a time.
 */
export interface FunctionProcessOptions {
  name: string
  /** Absolute path of the function's `index.ts`. */
  entrypoint: string
  /** DENO_DIR: module and npm caches, kept out of $HOME. */
  denoDir: string
  bootTimeoutMs: number
  /** Asked at every start, so changes to `.env` or `deno.json` apply on the next one. */
  launch(): Promise<LaunchSettings>
}

export interface LaunchSettings {
  /** The only environment the function sees (plus Deno's own settings: DENO_DIR, NO_COLOR, …). */
  env: Record<string, string>
  /** Directories the function may read: its own, and `_shared` when present. */
  readable: string[]
  /** A `deno.json` next to the function, honoured as edge-runtime does. */
  denoConfig?: string
}

/** Raised when the function did not come up: it threw, exited or was too slow. */
export class BootError extends Error {}

const LISTENING = /^lumen-function-listening (\d+)$/
const bootModule = path.join(projectRoot, 'stack/functions/deno-boot.ts')

/** Every Deno process alive, so that none outlives Node (see the exit hook below). */
const alive = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL')
})

export class FunctionProcess {
  private child?: ChildProcess
  private booting?: Promise<number>
  private port?: number
  /** Bumped by stop(), so that a start already under way when it was called gives up. */
  private stops = 0

  constructor(private readonly options: FunctionProcessOptions) {}

  /** The port the function listens on, starting its process if needed. */
  async ready(): Promise<number> {
    if (this.port !== undefined) return this.port
    this.booting ??= this.boot().finally(() => {
      this.booting = undefined
    })
    return this.booting
  }

  /** After a request to `port` failed: stops that process, unless another one already replaced it. */
  async discard(port: number): Promise<void> {
    if (this.port === port) await this.stop()
  }

  /** Kills the process (if any) so that the next request starts a fresh one. */
  async stop(): Promise<void> {
    this.stops += 1
    const child = this.child
    this.child = undefined
    this.port = undefined
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGTERM')
    const forced = setTimeout(() => child.kill('SIGKILL'), 2000)
    await exited
    clearTimeout(forced)
  }

  private async boot(): Promise<number> {
    const { name, entrypoint, denoDir, bootTimeoutMs } = this.options
    const stops = this.stops
    const { env, readable, denoConfig } = await this.options.launch()
    if (stops !== this.stops) throw new BootError(`function ${name}: stopped while starting`)
    const args = [
      'run',
      '--no-prompt',
      denoConfig ? `--config=${denoConfig}` : '--no-config',
      '--allow-net',
      // The environment below is all there is, so reading any of it is safe,
      // and an unset variable reads as undefined, as on edge-runtime, instead
      // of throwing as it would under an --allow-env list.
      '--allow-env',
      `--allow-read=${readable.join(',')}`,
      bootModule,
      pathToFileURL(entrypoint).href,
    ]
    const childEnv: Record<string, string> = { ...env, DENO_DIR: denoDir, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }
    // Where Deno downloads `npm:` imports from, when this machine uses a mirror.
    if (process.env.NPM_CONFIG_REGISTRY) childEnv.NPM_CONFIG_REGISTRY = process.env.NPM_CONFIG_REGISTRY
    const child = spawn(denoBinary(), args, {
      cwd: path.dirname(entrypoint),
      // Cast: Remix's globals make NODE_ENV a required variable of every ProcessEnv.
      env: childEnv as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    this.child = child
    alive.add(child)

    return new Promise<number>((resolve, reject) => {
      let settled = false
      const fail = (reason: string) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        child.kill('SIGKILL')
        reject(new BootError(`function ${name}: ${reason}`))
      }
      const timer = setTimeout(() => fail(`no answer within ${bootTimeoutMs} ms`), bootTimeoutMs)
      forwardLines(child.stdout!, process.stdout, name, (line) => {
        const match = LISTENING.exec(line)
        if (!match || settled) return false
        settled = true
        clearTimeout(timer)
        this.port = Number(match[1])
        resolve(this.port)
        return true
      })
      forwardLines(child.stderr!, process.stderr, name)
      child.once('error', (error) => fail(error.message))
      child.once('exit', (code, signal) => {
        alive.delete(child)
        // A process that dies after booting is simply started again by the next request.
        if (this.child === child) {
          this.child = undefined
          this.port = undefined
        }
        fail(`exited (${signal ?? `code ${code}`}) before listening`)
      })
    })
  }
}

/**
 * The Deno binary of the `deno` npm package: its installer copies the
 * platform package's binary next to bin.cjs, or leaves it in @deno/<target>.
 */
function denoBinary(): string {
  const require = createRequire(import.meta.url)
  return (require('deno/install_api.cjs') as { runInstall(): string }).runInstall()
}

/** Copies a stream line by line with a `[functions/<name>]` prefix; `intercept` may swallow a line. */
function forwardLines(
  from: NodeJS.ReadableStream,
  to: NodeJS.WritableStream,
  name: string,
  intercept?: (line: string) => boolean,
) {
  let pending = ''
  from.setEncoding('utf8')
  from.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      if (intercept?.(line)) continue
      to.write(`[functions/${name}] ${line}\n`)
    }
  })
  from.on('end', () => {
    if (pending) to.write(`[functions/${name}] ${pending}\n`)
  })
}
