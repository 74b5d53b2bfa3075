/**
 * A hash of the files that decide an output (the production build, the e2e
 * suite's prepared data), so `npm test` makes that output once and reuses it
 * while those files are unchanged: on the same commit, or after a change that
 * cannot affect it (a test, a document).
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

const SKIPPED = new Set(['node_modules', 'build', '.cache', 'test-results', 'playwright-report', '.data'])

/** Every file under `entries` (files or folders, relative to `root`), sorted, by path and content. */
export function sourceHash(entries: readonly string[], root = process.cwd()): string {
  const hash = createHash('sha256')
  const files: string[] = []
  const walk = (relative: string) => {
    const full = path.join(root, relative)
    if (!existsSync(full)) return
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) if (!SKIPPED.has(name)) walk(path.join(relative, name))
    } else {
      files.push(relative)
    }
  }
  for (const entry of [...entries].sort()) walk(entry)
  for (const file of files) {
    hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0')
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * What the production build (`npm run build`: vite + Remix, then the bundled
 * Node server) is made from: the app and everything its server bundle
 * imports, the Node server and everything it imports, the static files, the
 * build's configuration and the locked dependencies.
 */
export const BUILD_INPUTS = [
  'app',
  'public',
  'db',
  'mail',
  'media',
  'ops',
  'stack',
  'worker',
  'server.ts',
  'scripts/build-server.ts',
  'package-lock.json',
  'postcss.config.js',
  'remix.config.ts',
  'tailwind.config.ts',
  'tsconfig.json',
  'vite.config.ts',
] as const

/**
 * What the e2e suite's prepared data folder (scripts/e2e-data.ts) is made
 * from: the schema and seed, the stand-in that serves them (Auth, Storage,
 * the demo clips), the media worker and ffmpeg code that transcodes them,
 * the server that runs it all, and the locked dependencies. Not the pages:
 * a change to app/ alone keeps the prepared data.
 */
export const E2E_DATA_INPUTS = [
  'supabase/migrations',
  'supabase/seed.sql',
  'db',
  'stack',
  'media',
  'worker',
  'ops',
  'server.ts',
  'scripts/e2e-data.ts',
  'package-lock.json',
] as const
