import { execFile } from 'node:child_process'
import { chown, mkdtemp, rm } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { scratchRoot } from '../../support/scratch-dir'

/**
 * A PostgreSQL 15 cluster of the fault suite's own, in a temp folder on its
 * own port: restarting it (`pg_ctl restart -m immediate`) disturbs nothing
 * else. The shared test server on 5432 is never touched. As root, the
 * server runs as the `postgres` user (initdb refuses root).
 */
const run = promisify(execFile)
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

export interface Cluster {
  url: string
  /** Crash-restart: no checkpoint, no goodbye to clients, as a power cut and reboot would. */
  restartImmediate(): Promise<void>
  stop(): Promise<void>
}

export async function startCluster(port: number): Promise<Cluster> {
  const dir = await mkdtemp(path.join(scratchRoot(), 'lumen-pg-'))
  const data = path.join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    await chown(dir, Number(stdout.trim()), Number(gid.trim()))
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(BIN, tool), ...args]) : run(path.join(BIN, tool), args)
  await pg('initdb', ['-D', data, '-U', 'lumen', '--auth=trust', '--no-sync'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`
  await pg('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start'])
  return {
    url: `postgres://lumen@127.0.0.1:${port}/postgres`,
    async restartImmediate() {
      await pg('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-m', 'immediate', '-w', 'restart'])
    },
    async stop() {
      await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {})
      await rm(dir, { recursive: true, force: true })
    },
  }
}
