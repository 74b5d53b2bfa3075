import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'kysely'
import type pg from 'pg'
import type { BackgroundTask, WorkerLog } from './job-loop'
import type { MediaQueue } from './queue'
import { reconcile } from './reconcile'

/**
 * What a worker does besides jobs: its job folders in the temp folder, its
 * row in public.worker_heartbeats (read by /readyz), and the periodic
 * reconciliation sweep (worker/reconcile.ts).
 */

/** Job folders are `lumen-media-<pid>-job<id>-<random>` in the temp folder. */
const WORK_DIR_PREFIX = 'lumen-media-'

/** The `mkdtemp` prefix of a job's folder in `tempRoot`, named so that sweepAbandonedWorkDirs finds it. */
export function workDirPrefix(tempRoot: string, jobId: number | string): string {
  return path.join(tempRoot, `${WORK_DIR_PREFIX}${process.pid}-job${jobId}-`)
}

/**
 * Removes the job folders of worker processes that no longer exist (killed
 * mid-job, their `finally` never ran). A live process's folders are left
 * alone, whoever it is.
 */
export async function sweepAbandonedWorkDirs(tempRoot: string): Promise<string[]> {
  const removed: string[] = []
  for (const name of await readdir(tempRoot).catch(() => [] as string[])) {
    const pid = Number(new RegExp(`^${WORK_DIR_PREFIX}(\\d+)-job\\d+-`).exec(name)?.[1])
    if (!pid || pid === process.pid || isAlive(pid)) continue
    await rm(path.join(tempRoot, name), { recursive: true, force: true })
    removed.push(name)
  }
  return removed
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** How often a running worker refreshes its row in public.worker_heartbeats (read by /readyz). */
export const HEARTBEAT_MS = 10_000

/** This worker's row in public.worker_heartbeats, refreshed every HEARTBEAT_MS while it runs, removed on stop. */
export function heartbeatTask(queue: MediaQueue, id: string, log: WorkerLog): BackgroundTask {
  const beat = () =>
    queue.asService((tx) =>
      tx
        .insertInto('worker_heartbeats')
        .values({ worker_id: id })
        .onConflict((oc) => oc.column('worker_id').doUpdateSet({ seen_at: sql<string>`now()` }))
        .execute(),
    )
  return async ({ idle, stopping }) => {
    while (!stopping()) {
      await beat().catch((error: unknown) => log('warn', `heartbeat not recorded: ${String(error)}`))
      if (!stopping()) await idle(HEARTBEAT_MS)
    }
    await queue.asService((tx) => tx.deleteFrom('worker_heartbeats').where('worker_id', '=', id).execute()).catch(() => {})
  }
}

/**
 * The reconciliation sweep every `intervalMs` (default 1 h; the first within a minute), one
 * worker at a time on a server (an advisory lock). `storageDir` is the stand-in's storage
 * folder, when Storage is ours.
 */
export function sweepTask(
  pool: pg.Pool,
  sweep: { storageDir?: string; intervalMs?: number },
  log: WorkerLog,
): BackgroundTask {
  async function sweepOnce() {
    const shared = (pool.options.max ?? 10) > 1
    const client = shared ? await pool.connect() : undefined
    try {
      if (client) {
        const { rows } = await client.query<{ locked: boolean }>(
          "select pg_try_advisory_lock(hashtext('lumen reconcile')) as locked",
        )
        if (!rows[0]?.locked) return
      }
      try {
        const report = await reconcile({ pool, storageDir: sweep.storageDir })
        for (const finding of report.findings) {
          log('warn', `sweep ${finding.fixed ? 'fixed' : 'found'} [${finding.check}] ${finding.detail}`)
        }
        log('info', `sweep done: ${report.findings.length} found`)
      } finally {
        await client?.query("select pg_advisory_unlock(hashtext('lumen reconcile'))")
      }
    } finally {
      client?.release()
    }
  }
  return async ({ idle, stopping }) => {
    const interval = sweep.intervalMs ?? 60 * 60_000
    let next = Date.now() + Math.min(interval, 60_000)
    while (!stopping()) {
      if (Date.now() >= next) {
        await sweepOnce().catch((error: unknown) => log('warn', `sweep failed: ${String(error)}`))
        next = Date.now() + interval
      }
      if (!stopping()) await idle(Math.max(0, next - Date.now()))
    }
  }
}
