import cluster, { type Worker } from 'node:cluster'
import { availableParallelism } from 'node:os'
import { componentLogger } from './log'
import { getEnv } from './env'

/**
 * Server mode (`DATABASE_URL` set) serves from one process per core, with
 * node:cluster: the primary process prepares what must exist once (the
 * migrations, the stand-in's keys) and then only supervises; the workers
 * share the port and each runs the whole of server.ts. They keep no state
 * between requests (sessions are cookies, files are in storage, jobs are
 * rows), so any of them may answer any request. `WEB_CONCURRENCY` sets the
 * number (1: no cluster). Embedded mode stays one process: PGlite opens its
 * directory in one process only.
 */
/** What the primary sends its workers instead of a signal (Ctrl-C reaches every process of the terminal at once). */
export const SHUTDOWN = { lumen: 'shutdown' } as const

export function isShutdownMessage(message: unknown): boolean {
  return (message as { lumen?: unknown } | null)?.lumen === SHUTDOWN.lumen
}

export function clusterSize(options: { embedded: boolean }): number {
  if (options.embedded || !cluster.isPrimary) return 1
  const wanted = getEnv().WEB_CONCURRENCY ?? availableParallelism()
  return Number.isInteger(wanted) && wanted > 1 ? Math.min(wanted, 64) : 1
}

/**
 * Runs the primary: `prepare`, then `size` workers, each started again when
 * it dies after it had started listening (a worker that dies before — bad
 * settings, an unreachable database — stops the whole server with its exit
 * code, rather than restarting for ever). On SIGTERM or SIGINT every worker
 * is told to drain its requests (server.ts); the primary exits 0 once they
 * have all gone. Never returns.
 */
export async function runClusterPrimary(size: number, prepare: () => Promise<void>): Promise<never> {
  const logger = componentLogger('cluster')
  await prepare()
  let stopping = false
  const listening = new WeakSet<Worker>()
  const fork = () => {
    const worker = cluster.fork()
    worker.once('listening', () => listening.add(worker))
  }
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
      return
    }
    if (!listening.has(worker)) {
      logger.error({ pid: worker.process.pid, code, signal }, 'a worker failed to start: stopping')
      stopping = true
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM')
      process.exitCode = code || 1
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit()
      return
    }
    logger.warn({ pid: worker.process.pid, code, signal }, 'a worker died: starting another')
    fork()
  })
  const stop = (signal: NodeJS.Signals) => {
    if (!stopping) logger.info({ signal }, 'shutting down the workers')
    stopping = true
    // Workers drain on the first message and cut their grace short on a second (server.ts), as on signals.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.send(SHUTDOWN)
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  for (let index = 0; index < size; index++) fork()
  logger.info({ workers: size }, `serving from ${size} worker processes`)
  return new Promise<never>(() => {})
}
