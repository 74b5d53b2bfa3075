import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { startStack, type RunningStack } from './stack'

/**
 * Contract tests run against the stand-in always, and against a real
 * Supabase too when CONTRACT_SUPABASE_URL, CONTRACT_SUPABASE_ANON_KEY and
 * CONTRACT_SUPABASE_SERVICE_ROLE_KEY are set (e.g. from `npx supabase status -o env`
 * on a machine with Docker, after `supabase db reset` applied our migrations).
 */
export interface ContractTarget {
  name: 'stand-in' | 'supabase'
  url: string
  anonKey: string
  serviceRoleKey: string
  /** Only the stand-in can be restarted by a test. */
  running?: RunningStack
  close(): Promise<void>
}

const real = {
  url: process.env.CONTRACT_SUPABASE_URL,
  anonKey: process.env.CONTRACT_SUPABASE_ANON_KEY,
  serviceRoleKey: process.env.CONTRACT_SUPABASE_SERVICE_ROLE_KEY,
}

export const realSupabaseConfigured = Boolean(real.url && real.anonKey && real.serviceRoleKey)

export const targetNames: ContractTarget['name'][] = realSupabaseConfigured ? ['stand-in', 'supabase'] : ['stand-in']

let announced = false
/** Says once, clearly, that the real-Supabase half of the contract suite did not run. */
export function announceSkippedRealSupabase() {
  if (announced || realSupabaseConfigured) return
  announced = true
  console.warn(
    '[contract] real Supabase: SKIPPED — set CONTRACT_SUPABASE_URL, CONTRACT_SUPABASE_ANON_KEY and CONTRACT_SUPABASE_SERVICE_ROLE_KEY to run these tests against one',
  )
}

export async function openTarget(
  name: ContractTarget['name'],
  options: { database?: 'pglite' | 'postgres' } = {},
): Promise<ContractTarget> {
  if (name === 'supabase') {
    return {
      name,
      url: real.url!,
      anonKey: real.anonKey!,
      serviceRoleKey: real.serviceRoleKey!,
      close: async () => {},
    }
  }
  const running = await startStack(options)
  return {
    name,
    get url() {
      return running.url
    },
    get anonKey() {
      return running.anonKey
    },
    get serviceRoleKey() {
      return running.serviceRoleKey
    },
    running,
    close: () => running.close(),
  }
}

/** A supabase-js client that keeps its session in memory, like a fresh browser tab. */
export function clientFor(target: ContractTarget, key: 'anon' | 'service' = 'anon'): SupabaseClient {
  return createClient(target.url, key === 'anon' ? target.anonKey : target.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}
