/**
 * `npm run stack:status`: the stand-in's settings as KEY=value lines, like
 * `supabase status -o env`, for pasting into another tool's environment.
 * Keys are made on first use and kept in DATA_DIR/keys.json.
 */
import path from 'node:path'
import { getEnv, publicUrl, usesStandIn } from '../ops/env'
import { redactUrl } from '../db/connect'
import { loadOrCreateKeys, loadOrCreateMailboxSecret } from '../stack/keys'

const env = getEnv()
if (!usesStandIn(env)) {
  console.log(`# SUPABASE_URL is set: Lumen uses that Supabase project, not its stand-in.`)
  console.log(`API_URL=${env.SUPABASE_URL}`)
  process.exit(0)
}

const keys = await loadOrCreateKeys(path.resolve(env.DATA_DIR))
const url = publicUrl(env)
const lines: [string, string][] = [
  ['API_URL', url],
  ['ANON_KEY', keys.anonKey],
  ['SERVICE_ROLE_KEY', keys.serviceRoleKey],
  ['JWT_SECRET', keys.jwtSecret],
  ['DB_URL', env.DATABASE_URL ?? ''],
  ['STORAGE_DIR', path.resolve(env.DATA_DIR, 'storage')],
]
// The mailbox exists in embedded mode only, for this machine's operator: its URL carries the key.
if (!env.DATABASE_URL) {
  lines.push(['MAILBOX_URL', `${url}/mailbox?key=${await loadOrCreateMailboxSecret(path.resolve(env.DATA_DIR))}`])
}
if (!env.DATABASE_URL) {
  console.log(
    `# Embedded database: PGlite in ${path.resolve(env.DATA_DIR, 'pglite')}, opened by one process at a time` +
      ` (npm start, or npm run db:migrate / db:seed while it is stopped). Set DATABASE_URL to use a server.`,
  )
} else {
  console.log(`# Database server: ${redactUrl(env.DATABASE_URL)}`)
}
for (const [key, value] of lines) console.log(`${key}=${value}`)
