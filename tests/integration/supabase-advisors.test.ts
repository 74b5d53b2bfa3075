/**
 * Supabase's own database advisor (splinter, through `supabase db advisors`) on a
 * freshly migrated PostgreSQL 15 database: the same checks a hosted project's
 * dashboard runs. Any security finding at WARN or above fails, and so does any
 * performance finding that concerns our own `public`/`storage` objects (policies
 * re-evaluating auth.uid() per row, overlapping permissive policies, foreign keys
 * without a covering index). The advisor works without Docker: it only needs a
 * database URL.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/connect'
import { migrate } from '../../db/migrate'
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres'

const root = path.resolve(import.meta.dirname, '../..')
const run = promisify(execFile)

interface Finding {
  name: string
  title: string
  level: 'INFO' | 'WARN' | 'ERROR'
  categories: ('SECURITY' | 'PERFORMANCE')[]
  detail: string
  metadata?: { schema?: string; name?: string; type?: string } & Record<string, unknown>
  cacheKey: string
}

/** Schemas whose objects are ours (the migrations'); findings elsewhere are about the platform. */
const ourSchemas = new Set(['public', 'storage'])

/** Performance lints we hold to even at INFO level, because the brief names them. */
const alwaysEnforced = new Set(['unindexed_foreign_keys'])

/**
 * Findings that a real Supabase database would not show: they are about the
 * stand-in bootstrap's copy of Supabase's own schemas, not about our migrations.
 * Each entry matches a finding by lint name and object, and says why it is fine.
 * Keep this list short; an entry here is a claim someone must be able to defend.
 */
const allowList: { name: string; schema: string; object?: string; reason: string }[] = []

function isAllowed(finding: Finding): boolean {
  return allowList.some(
    (entry) =>
      entry.name === finding.name &&
      entry.schema === finding.metadata?.schema &&
      (entry.object === undefined || entry.object === finding.metadata?.name),
  )
}

function isBlocking(finding: Finding): boolean {
  if (isAllowed(finding)) return false
  const atLeastWarn = finding.level === 'WARN' || finding.level === 'ERROR'
  if (finding.categories.includes('SECURITY') && atLeastWarn) return true
  if (finding.categories.includes('PERFORMANCE') && ourSchemas.has(finding.metadata?.schema ?? '')) {
    return atLeastWarn || alwaysEnforced.has(finding.name)
  }
  return false
}

function describeFinding(finding: Finding): string {
  return `${finding.level} ${finding.name} (${finding.categories.join(', ')}): ${finding.detail}`
}

let scratch: ScratchDatabase
let findings: Finding[]

beforeAll(async () => {
  scratch = await createScratchDatabase('advisors')
  const handle = await openDatabase({ databaseUrl: scratch.url })
  try {
    await migrate(handle.pool)
    // A deliberate flaw outside our schemas: if the advisor does not report it, it
    // did not look at this database, and an empty report would prove nothing.
    await handle.pool.query(`
      create schema advisor_canary;
      create table advisor_canary.parent (id int primary key);
      create table advisor_canary.child (id int primary key, parent_id int references advisor_canary.parent (id));`)
  } finally {
    await handle.close()
  }
  const { stdout } = await run(
    'npx',
    [
      '--no-install',
      'supabase',
      'db',
      'advisors',
      `--remote=${scratch.url}`,
      '--type',
      'all',
      '--level',
      'info',
      // Judge the findings here, with the reasons above; the exit code would hide the JSON.
      '--fail-on',
      'none',
      '--output-format',
      'json',
    ],
    // The scratch database is on loopback: no TLS to negotiate.
    { cwd: root, env: { ...process.env, PGSSLMODE: 'disable' }, maxBuffer: 32 * 1024 * 1024 },
  )
  findings = (JSON.parse(stdout) as { results: Finding[] }).results
})

afterAll(async () => {
  await scratch?.drop()
})

describe('supabase db advisors on the migrated schema', () => {
  it('inspects the scratch database (it reports the canary flaw)', () => {
    const canary = findings.filter(
      (finding) => finding.name === 'unindexed_foreign_keys' && finding.metadata?.schema === 'advisor_canary',
    )
    expect(canary.map(describeFinding)).toHaveLength(1)
  })

  it('reports no security finding at WARN or above', () => {
    const blocking = findings.filter((finding) => finding.categories.includes('SECURITY') && isBlocking(finding))
    expect(blocking.map(describeFinding), 'security findings').toEqual([])
  })

  it('reports no performance finding about our public and storage objects', () => {
    const blocking = findings.filter(
      (finding) => !finding.categories.includes('SECURITY') && isBlocking(finding),
    )
    expect(blocking.map(describeFinding), 'performance findings').toEqual([])
  })

  it('keeps no stale allow-list entry', () => {
    const stale = allowList.filter(
      (entry) =>
        !findings.some(
          (finding) =>
            finding.name === entry.name &&
            finding.metadata?.schema === entry.schema &&
            (entry.object === undefined || entry.object === finding.metadata?.name),
        ),
    )
    expect(stale, 'allow-list entries that match no finding any more').toEqual([])
  })
})
