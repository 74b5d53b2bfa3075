import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseEnv } from 'node:util'
import type { StackContext } from '../context'

/**
 * The environment of a function's process — the whole of it, nothing from the
 * Node process leaks in. Supabase's four variables, the stand-in's mail
 * settings (so functions "send" into the developer mailbox), then
 * `supabase/functions/.env`, read at each start so edits apply on the next
 * one. As with `supabase functions serve`, `.env` cannot set SUPABASE_* names.
 */
export async function functionEnvironment(ctx: StackContext, functionsDir: string): Promise<Record<string, string>> {
  const env: Record<string, string> = { SITE_URL: ctx.config.auth.site_url }
  if (ctx.mode === 'embedded') {
    // Where a real deployment would name an email provider's send endpoint
    // (Resend's request shape): here, the mailbox's, behind the service-role key.
    // Server mode has no mailbox: set MAIL_API_URL/MAIL_API_KEY in supabase/functions/.env.
    env.MAIL_API_URL = `${ctx.publicUrl}/mailbox/api/send`
    env.MAIL_API_KEY = ctx.keys.serviceRoleKey
  }
  for (const [name, value] of Object.entries(await readDotEnv(path.join(functionsDir, '.env')))) {
    if (name.startsWith('SUPABASE_')) {
      console.warn(`[functions] ${name} in supabase/functions/.env is ignored: names cannot start with SUPABASE_`)
      continue
    }
    env[name] = value
  }
  env.SUPABASE_URL = ctx.publicUrl
  env.SUPABASE_ANON_KEY = ctx.keys.anonKey
  env.SUPABASE_SERVICE_ROLE_KEY = ctx.keys.serviceRoleKey
  // Only a server has a URL; embedded PGlite lives inside the Node process,
  // out of Deno's reach (see docs/decisions/0007-edge-functions-stand-in.md).
  const databaseUrl = ctx.pool.options.connectionString
  if (databaseUrl) env.SUPABASE_DB_URL = databaseUrl
  return env
}

async function readDotEnv(file: string): Promise<Record<string, string>> {
  try {
    return parseEnv(await readFile(file, 'utf8')) as Record<string, string>
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw error
  }
}
