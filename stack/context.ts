import type pg from 'pg'
import type { StackConfig } from './config'
import type { StackKeys } from './keys'
import type { MailTransport } from './mail'
import type { Mailbox } from './mailbox'

/**
 * How the stand-in runs: `embedded` (PGlite, one machine, the developer
 * mailbox at /mailbox) or `server` (DATABASE_URL set: mail goes out by SMTP,
 * no mailbox is mounted).
 */
export type StackMode = 'embedded' | 'server'

/** What every part of the stand-in shares. */
export interface StackContext {
  pool: pg.Pool
  mode: StackMode
  /** The data directory: keys, mailbox, storage files, TUS uploads in progress. */
  dataDir: string
  /** The URL clients use, e.g. http://localhost:3000 — `SUPABASE_URL`. */
  publicUrl: string
  keys: StackKeys
  /** The developer mailbox's store (embedded mode reads and sends through it). */
  mailbox: Mailbox
  /** The secret that opens /mailbox (embedded mode only). */
  mailboxSecret?: string
  /** Where emails go: the mailbox in embedded mode, SMTP in server mode. */
  mail: MailTransport
  /** `[auth] site_url` is SITE_URL, else PUBLIC_URL: email links and redirects are built from it. */
  config: StackConfig
  /** TRUSTED_PROXY: whose X-Forwarded-For names the client (`loopback`, `none`, or IPs). */
  trustedProxy: string
}
