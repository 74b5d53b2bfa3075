import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import type { StackKeys } from '../../../stack/keys'

/** The keys the server under test made in its data directory (see playwright.config.ts). */
export function standInKeys(): StackKeys {
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set; run the e2e suite through playwright.config.ts')
  return JSON.parse(readFileSync(path.join(dataDir, 'keys.json'), 'utf8')) as StackKeys
}

/** The developer mailbox's key (DATA_DIR/mailbox.key): reading the mailbox needs it, from loopback only. */
export function mailboxKey(): string {
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set; run the e2e suite through playwright.config.ts')
  return readFileSync(path.join(dataDir, 'mailbox.key'), 'utf8').trim()
}

/** A supabase-js client for the server under test, as a script or another service would make one. */
export function supabaseFor(baseURL: string, key: 'anon' | 'service'): SupabaseClient {
  const keys = standInKeys()
  return createClient(baseURL, key === 'anon' ? keys.anonKey : keys.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}
