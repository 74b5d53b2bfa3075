import path from 'node:path'
import express from 'express'
import type pg from 'pg'
import { createAuthRouter } from './auth/router'
import { loadStackConfig, type StackConfig } from './config'
import type { StackContext } from './context'
import { createPostgrestReadsRouter } from './functions/postgrest-reads'
import { createFunctionsRouter } from './functions/router'
import { loadOrCreateKeys } from './keys'
import { Mailbox } from './mailbox'
import { createMailboxRouter } from './mailbox-page'
import { createStorageRouter } from './storage/router'

/**
 * The Docker-free Supabase stand-in: GoTrue's `/auth/v1`, Storage's
 * `/storage/v1` (with TUS), `/functions/v1` on the real Deno runtime, and a
 * developer mailbox at `/mailbox`, all on one Express router that `server.ts`
 * mounts on the app's own origin (see docs/decisions and
 * ../shared/design/supabase-contract.md).
 */
export interface StackOptions {
  pool: pg.Pool
  dataDir: string
  publicUrl: string
  config?: StackConfig
}

export interface Stack {
  router: express.Router
  context: StackContext
  close(): Promise<void>
}

export async function createStack(options: StackOptions): Promise<Stack> {
  const dataDir = path.resolve(options.dataDir)
  const context: StackContext = {
    pool: options.pool,
    dataDir,
    publicUrl: options.publicUrl.replace(/\/$/, ''),
    keys: await loadOrCreateKeys(dataDir),
    mailbox: new Mailbox(path.join(dataDir, 'mailbox')),
    config: options.config ?? (await loadStackConfig()),
  }
  const storage = await createStorageRouter(context)
  const functions = await createFunctionsRouter(context)
  const router = express.Router()
  router.use('/auth/v1', createAuthRouter(context))
  router.use('/storage/v1', storage.router)
  router.use('/functions/v1', functions.router)
  router.use('/rest/v1', createPostgrestReadsRouter(context))
  router.use('/mailbox', createMailboxRouter(context))
  return {
    router,
    context,
    async close() {
      await Promise.allSettled([storage.close(), functions.close()])
    },
  }
}
