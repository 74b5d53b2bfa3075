import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import express, { type Router } from 'express'
import { componentLogger, errorFields } from './log'

/**
 * How `npm run doctor` and `npm run db:backup` reach a running `npm start`.
 * In embedded mode only one process may open PGlite, so those commands ask
 * the server to do the work: it records `DATA_DIR/server.json` (pid, port)
 * while it runs and answers `POST /_ops/<action>` from loopback to a caller
 * holding the key in `DATA_DIR/ops.key` (readable only by whoever can read
 * the data folder anyway). With no server running, the commands open the
 * database themselves.
 */
export type OpsAction = (body: Record<string, unknown>) => Promise<unknown>

const STATE = 'server.json'
const KEY = 'ops.key'

export async function loadOrCreateOpsKey(dataDir: string): Promise<string> {
  const file = path.join(dataDir, KEY)
  const existing = await readFile(file, 'utf8').catch(() => '')
  if (existing.trim()) return existing.trim()
  const key = randomBytes(32).toString('hex')
  await writeFile(file, key, { mode: 0o600 })
  return key
}

export function opsRouter(key: string, actions: Record<string, OpsAction>): Router {
  const log = componentLogger('ops')
  const router = express.Router()
  router.post('/_ops/:action', express.json({ limit: '16kb' }), (req, res) => {
    const remote = req.socket.remoteAddress ?? ''
    const given = Buffer.from(String(req.headers['x-ops-key'] ?? ''))
    const loopback = remote === '127.0.0.1' || remote === '::1' || remote === '::ffff:127.0.0.1'
    const action = actions[req.params.action ?? '']
    if (!loopback || given.length !== key.length || !timingSafeEqual(given, Buffer.from(key)) || !action) {
      res.status(404).json({ error: 'not found' })
      return
    }
    log.info({ action: req.params.action }, 'operator action')
    action((req.body ?? {}) as Record<string, unknown>).then(
      (result) => res.json({ ok: true, result }),
      (error: unknown) => {
        log.error({ action: req.params.action, ...errorFields(error) }, 'operator action failed')
        res.status(500).json({ ok: false, error: error instanceof Error ? error.message : String(error) })
      },
    )
  })
  return router
}

export async function writeServerState(dataDir: string, port: number) {
  await writeFile(path.join(dataDir, STATE), JSON.stringify({ pid: process.pid, port }))
}

export async function removeServerState(dataDir: string) {
  const state = await readServerState(dataDir)
  if (state?.pid === process.pid) await rm(path.join(dataDir, STATE), { force: true })
}

async function readServerState(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, STATE), 'utf8')) as { pid: number; port: number }
  } catch {
    return undefined
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Runs `action` in the `npm start` that has `dataDir` open, if one runs;
 * undefined when none does (the caller may then open the database itself).
 */
export async function askRunningServer(dataDir: string, action: string, body: Record<string, unknown> = {}): Promise<unknown> {
  const state = await readServerState(dataDir)
  if (!state || !alive(state.pid)) return undefined
  const key = await loadOrCreateOpsKey(dataDir)
  const response = await fetch(`http://127.0.0.1:${state.port}/_ops/${action}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Ops-Key': key },
    body: JSON.stringify(body),
  })
  const answer = (await response.json().catch(() => ({}))) as { ok?: boolean; result?: unknown; error?: string }
  if (!response.ok || !answer.ok)
    throw new Error(`the running server (pid ${state.pid}) answered: ${answer.error ?? response.status}`)
  return answer.result
}
