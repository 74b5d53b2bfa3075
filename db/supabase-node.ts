import { WebSocket } from 'ws'

/**
 * supabase-js 2.119 builds its realtime client eagerly and throws on Node 20
 * ("native WebSocket not found"). Every Supabase client made in Node — the
 * app server's and the tests' — passes these options, so the fix lives here
 * once. Lumen does not use realtime; this only satisfies the constructor.
 */
export const nodeRealtimeOptions = {
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
} as const
