import type pg from 'pg'
import type { StackConfig } from './config'
import type { StackKeys } from './keys'
import type { Mailbox } from './mailbox'

/** What every part of the stand-in shares. */
export interface StackContext {
  pool: pg.Pool
  /** The data directory: keys, mailbox, storage files, TUS uploads in progress. */
  dataDir: string
  /** The URL clients use, e.g. http://localhost:3000 — `SUPABASE_URL`. */
  publicUrl: string
  keys: StackKeys
  mailbox: Mailbox
  config: StackConfig
}
