import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import path from 'node:path'
import express from 'express'
import { openDatabase, type DatabaseHandle } from '../../db/connect'
import { createStack, type Stack } from '../../stack/index'
import { migratedScratchDatabase } from './databases'
import { copyMigratedPglite } from './pglite-template'
import { scratchRoot } from './scratch-dir'
import { type ScratchDatabase } from './postgres'

/**
 * A running stand-in for contract tests: its own database (a copy of the
 * migrated PGlite template by default, or a scratch database on the PostgreSQL test server), its own
 * data directory, on a free loopback port. `restart()` stops the HTTP server
 * and the stack and starts them again on the same port, database and files,
 * as a crashed-and-restarted server would be.
 */
export interface RunningStack {
  url: string
  anonKey: string
  serviceRoleKey: string
  jwtSecret: string
  dataDir: string
  stack: Stack
  database: DatabaseHandle
  restart(): Promise<void>
  close(): Promise<void>
}

export async function startStack(options: { database?: 'pglite' | 'postgres' } = {}): Promise<RunningStack> {
  const dataDir = await mkdtemp(path.join(scratchRoot(), 'lumen-stack-'))
  let scratch: ScratchDatabase | undefined
  let database: DatabaseHandle
  if (options.database === 'postgres') {
    scratch = await migratedScratchDatabase('stack')
    database = await openDatabase({ databaseUrl: scratch.url })
  } else {
    const pgliteDir = path.join(dataDir, 'pglite')
    await copyMigratedPglite(pgliteDir)
    database = await openDatabase({ dataDir: pgliteDir })
  }

  let server: Server
  let stack: Stack
  let port = 0
  const boot = async () => {
    const app = express()
    // Requests that arrive while the stack is still starting wait for it (as in a listen backlog) instead of a 404.
    let mounted = () => {}
    const ready = new Promise<void>((resolve) => (mounted = resolve))
    app.use((_req, _res, next) => void ready.then(() => next()))
    server = createServer(app)
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    stack = await createStack({ pool: database.pool, dataDir, publicUrl: `http://127.0.0.1:${port}` })
    app.use(stack.router)
    mounted()
  }
  const halt = async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await stack.close()
  }
  await boot()

  const running: RunningStack = {
    get url() {
      return `http://127.0.0.1:${port}`
    },
    get anonKey() {
      return stack.context.keys.anonKey
    },
    get serviceRoleKey() {
      return stack.context.keys.serviceRoleKey
    },
    get jwtSecret() {
      return stack.context.keys.jwtSecret
    },
    get stack() {
      return stack
    },
    dataDir,
    database,
    async restart() {
      await halt()
      await boot()
    },
    async close() {
      await halt()
      await database.close()
      await scratch?.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
  return running
}
