import { watch, type FSWatcher } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import express from 'express'
import { projectRoot } from '../../ops/paths'
import type { StackContext } from '../context'
import { bearerToken, verifyToken } from '../jwt'
import { BootError, FunctionProcess } from './deno-process'
import { functionEnvironment } from './environment'
import { proxyToFunction } from './proxy'

/**
 * `/functions/v1/<name>/…` — Supabase edge functions on the real Deno runtime,
 * with the gateway behaviour of `supabase functions serve` (its main worker
 * is the reference): unknown names answer 404, `verify_jwt` (on unless
 * `[functions.<name>] verify_jwt = false`) checks the bearer — except on
 * OPTIONS, which goes to the function for its CORS answer — and a function
 * that fails to boot or dies mid-request gets edge-runtime's JSON errors.
 * Each function runs in its own Deno process (deno-process.ts), stopped when
 * its files change, like `functions serve --watch`, and started again by the
 * next request. See docs/decisions/0007-edge-functions-stand-in.md.
 */
export interface FunctionsRouterOptions {
  /** Where the functions live; tests point this at their own. Default `supabase/functions`. */
  functionsDir?: string
  /** How long a function may take to start listening. */
  bootTimeoutMs?: number
}

/** Supabase CLI's rule for function names; it also keeps `_shared` and `..` out. */
const FUNCTION_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/

const BOOT_ERROR = { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' }
const WORKER_ERROR = { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' }

export async function createFunctionsRouter(
  ctx: StackContext,
  options: FunctionsRouterOptions = {},
): Promise<{ router: express.Router; close(): Promise<void> }> {
  const functionsDir = path.resolve(options.functionsDir ?? path.join(projectRoot, 'supabase/functions'))
  const bootTimeoutMs = options.bootTimeoutMs ?? 30_000
  const denoDir = path.join(ctx.dataDir, 'deno')
  const processes = new Map<string, FunctionProcess>()
  let closed = false
  const watcher = await watchForChanges(functionsDir, (changed) => {
    // _shared and .env belong to every function; anything else to one.
    const affected = changed === '_shared' || changed === '.env' ? [...processes.values()] : [processes.get(changed)]
    for (const running of affected) void running?.stop()
  })

  const processFor = (name: string): FunctionProcess => {
    let running = processes.get(name)
    if (!running) {
      const dir = path.join(functionsDir, name)
      const shared = path.join(functionsDir, '_shared')
      running = new FunctionProcess({
        name,
        entrypoint: path.join(dir, 'index.ts'),
        denoDir,
        bootTimeoutMs,
        launch: async () => ({
          env: await functionEnvironment(ctx, functionsDir),
          readable: (await isDirectory(shared)) ? [dir, shared] : [dir],
          denoConfig: await findFile(dir, ['deno.json', 'deno.jsonc']),
        }),
      })
      processes.set(name, running)
    }
    return running
  }

  const router = express.Router()
  router.use(async (req, res, next) => {
    try {
      const name = req.path.split('/')[1] ?? ''
      if (closed || !FUNCTION_NAME.test(name) || !(await isFile(path.join(functionsDir, name, 'index.ts')))) {
        res.status(404).type('text/plain').send('Function not found')
        return
      }
      if (req.method !== 'OPTIONS' && (ctx.config.functions[name]?.verify_jwt ?? true)) {
        const refusal = await checkJwt(ctx, req.headers.authorization)
        if (refusal) {
          res.status(401).json({ msg: refusal })
          return
        }
      }

      const running = processFor(name)
      let port: number
      try {
        port = await running.ready()
      } catch (error) {
        if (!(error instanceof BootError)) throw error
        console.warn(`[functions] ${error.message}`)
        res.status(503).json(BOOT_ERROR)
        return
      }
      if (!(await proxyToFunction(port, req, res))) {
        await running.discard(port)
        res.status(500).json(WORKER_ERROR)
      }
    } catch (error) {
      next(error)
    }
  })

  return {
    router,
    async close() {
      closed = true
      watcher?.close()
      await Promise.all([...processes.values()].map((running) => running.stop()))
      processes.clear()
    },
  }
}

/**
 * The main worker's check, message for message: no header, a header that is
 * not `Bearer <token>`, then a token that does not verify. API keys are JWTs
 * and pass, as they do on Supabase.
 */
async function checkJwt(ctx: StackContext, header: string | undefined): Promise<string | undefined> {
  if (!header) return 'Error: Missing authorization header'
  const token = bearerToken(header)
  if (!token || !header.startsWith('Bearer ')) return "Error: Auth header is not 'Bearer {token}'"
  return (await verifyToken(ctx.keys, token)).ok ? undefined : 'Invalid JWT'
}

/** Calls `onChange` with the first path segment (a function's folder, `_shared`, `.env`) of each change. */
async function watchForChanges(dir: string, onChange: (entry: string) => void): Promise<FSWatcher | undefined> {
  if (!(await isDirectory(dir))) return undefined
  const watcher = watch(dir, { recursive: true }, (_event, file) => {
    if (file) onChange(file.split(path.sep)[0]!)
  })
  // Losing the watcher only costs automatic restarts; requests keep working.
  watcher.on('error', (error) => console.warn(`[functions] no longer watching ${dir}: ${error.message}`))
  return watcher
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then((found) => found.isFile(), () => false)
}

async function isDirectory(dir: string): Promise<boolean> {
  return stat(dir).then((found) => found.isDirectory(), () => false)
}

async function findFile(dir: string, names: string[]): Promise<string | undefined> {
  for (const name of names) {
    if (await isFile(path.join(dir, name))) return path.join(dir, name)
  }
  return undefined
}
