import path from 'node:path'
import express from 'express'
import type pg from 'pg'
import { createAuthRouter } from './auth/router'
import { loadStackConfig, type StackConfig } from './config'
import type { StackContext, StackMode } from './context'
import { createPostgrestReadsRouter } from './functions/postgrest-reads'
import { createFunctionsRouter } from './functions/router'
import { loadOrCreateKeys, loadOrCreateMailboxSecret } from './keys'
import type { MailTransport } from './mail'
import { Mailbox } from './mailbox'
import { createMailboxRouter } from './mailbox-page'
import { createStorageRouter } from './storage/router'

/**
 * The Docker-free Supabase stand-in: GoTrue's `/auth/v1`, Storage's
 * `/storage/v1` (with TUS), `/functions/v1` on the real Deno runtime, and a
 * developer mailbox at `/mailbox` (embedded mode only: loopback and a secret),
 * all on one Express router that `server.ts` mounts on the app's own origin
 * (see docs/decisions/0004-supabase-stand-in.md and the records it links).
 */
export interface StackOptions {
  pool: pg.Pool
  dataDir: string
  publicUrl: string
  config?: StackConfig
  /** Default `embedded` (the mailbox is mounted and receives mail); `server` needs `mail`. */
  mode?: StackMode
  /** Where emails go in server mode (SMTP); embedded mode always uses the mailbox. */
  mail?: MailTransport
  /** Base of email links and the fallback redirect (SITE_URL); default publicUrl. */
  siteUrl?: string
  /** Peers whose X-Forwarded-For is believed for rate limits: `loopback` (default), `none`, or IPs, comma-separated. */
  trustedProxy?: string
}

export interface Stack {
  router: express.Router
  context: StackContext
  close(): Promise<void>
}

export async function createStack(options: StackOptions): Promise<Stack> {
  const dataDir = path.resolve(options.dataDir)
  const mode = options.mode ?? 'embedded'
  if (mode === 'server' && !options.mail) throw new Error('The stand-in in server mode needs a mail transport (SMTP_URL)')
  const mailbox = new Mailbox(path.join(dataDir, 'mailbox'))
  const publicUrl = options.publicUrl.replace(/\/$/, '')
  const config = structuredClone(options.config ?? (await loadStackConfig()))
  // Links in emails never come from a request's Host header (reset-link poisoning): the configured URL only.
  config.auth.site_url = (options.siteUrl ?? publicUrl).replace(/\/$/, '')
  const context: StackContext = {
    pool: options.pool,
    mode,
    dataDir,
    publicUrl,
    keys: await loadOrCreateKeys(dataDir),
    mailbox,
    mailboxSecret: mode === 'embedded' ? await loadOrCreateMailboxSecret(dataDir) : undefined,
    mail: mode === 'embedded' ? mailbox : options.mail!,
    config,
    trustedProxy: options.trustedProxy ?? 'loopback',
  }
  const storage = await createStorageRouter(context)
  const functions = await createFunctionsRouter(context)
  const router = express.Router()
  router.use('/auth/v1', createAuthRouter(context))
  router.use('/storage/v1', storage.router)
  router.use('/functions/v1', functions.router)
  router.use('/rest/v1', createPostgrestReadsRouter(context))
  // The mailbox holds every reset link: it exists only on the operator's own machine (embedded mode).
  if (mode === 'embedded') router.use('/mailbox', createMailboxRouter(context))
  return {
    router,
    context,
    async close() {
      await Promise.allSettled([storage.close(), functions.close()])
    },
  }
}
