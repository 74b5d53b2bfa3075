/**
 * The pgTAP row-level-security suite (supabase/tests/*.sql) on embedded PGlite —
 * the database `npm start` runs on — as pg_prove runs it on PostgreSQL 15: the
 * same files, in name order, on a freshly migrated database (a copy of the migrated
 * PGlite template, tests/support/pglite-template.ts), one Vitest test per
 * file. Like psql, the runner sends a file one statement at a time (PGlite's
 * node-postgres bridge loses the connection when an error interrupts a
 * multi-statement query) and stops at the first error, as `ON_ERROR_STOP` does.
 * The TAP lines come back as rows. A file fails on any `not ok`, on a missing or
 * unmet plan, on a TODO/SKIP directive (the suite keeps none), or on an SQL error,
 * reported with the line of the statement that raised it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { pgtap } from '@electric-sql/pglite-pgtap'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../db/connect'
import { copyMigratedPglite } from '../support/pglite-template'
import { scratchRoot } from '../support/scratch-dir'

const testsDir = path.resolve(import.meta.dirname, '../../supabase/tests')
const files = readdirSync(testsDir)
  .filter((file) => file.endsWith('.sql'))
  .sort()

let db: DatabaseHandle
const scratch = mkdtempSync(path.join(scratchRoot(), 'lumen-pgtap-'))

beforeAll(async () => {
  const dataDir = path.join(scratch, 'pglite')
  await copyMigratedPglite(dataDir)
  db = await openDatabase({ dataDir, extensions: { pgtap } })
  await db.pool.query('create extension if not exists pgtap')
})

afterAll(async () => {
  await db?.close()
  rmSync(scratch, { recursive: true, force: true })
})

interface TapReport {
  planned: number | null
  ran: number
  problems: string[]
}

/** Every text a statement returned, one TAP line per element. */
function outputLines(result: pg.QueryResult): string[] {
  const lines: string[] = []
  for (const row of result.rows ?? []) {
    for (const value of Object.values(row as Record<string, unknown>)) {
      if (typeof value === 'string') lines.push(...value.split('\n'))
    }
  }
  return lines
}

/** Reads TAP the way pg_prove's harness does, a little stricter (no TODO, no SKIP). */
function readTap(lines: string[]): TapReport {
  const problems: string[] = []
  let planned: number | null = null
  let ran = 0
  let lastFailure: string[] | null = null
  for (const line of lines) {
    const plan = /^1\.\.(\d+)/.exec(line)
    const test = /^(not )?ok (\d+)\b(.*)$/.exec(line)
    if (plan) {
      planned = Number(plan[1])
      lastFailure = null
    } else if (test) {
      ran += 1
      const [, not, number, rest = ''] = test
      if (Number(number) !== ran) problems.push(`test ${ran} is numbered ${number}`)
      lastFailure = null
      if (/#\s*(TODO|SKIP)/i.test(rest)) {
        problems.push(`${line}  ← the suite keeps no TODO or SKIP`)
      } else if (not) {
        lastFailure = [line]
        problems.push(line)
      }
    } else if (line.startsWith('#') && lastFailure) {
      // Diagnostics that follow a failure explain it: keep them with it.
      problems[problems.length - 1] += `\n${line}`
    }
  }
  if (planned === null) problems.push('no plan (select plan(N)) was printed')
  else if (planned !== ran) problems.push(`planned ${planned} tests but ran ${ran}`)
  return { planned, ran, problems }
}

interface Statement {
  text: string
  line: number
}

/**
 * Splits a file into statements at top-level semicolons, skipping comments,
 * quoted strings and identifiers, and dollar-quoted bodies (`$$ ... $$`,
 * `$tag$ ... $tag$`), which is all our test files use.
 */
function splitStatements(sql: string): Statement[] {
  const statements: Statement[] = []
  let start = 0
  let i = 0
  const push = (end: number) => {
    const text = sql.slice(start, end)
    const code = text.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '').trim()
    if (code) {
      const offset = start + text.search(/\S/)
      statements.push({ text, line: sql.slice(0, offset).split('\n').length })
    }
    start = end
  }
  while (i < sql.length) {
    const char = sql[i]
    if (char === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      i = end < 0 ? sql.length : end + 1
    } else if (char === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      i = end < 0 ? sql.length : end + 2
    } else if (char === "'" || char === '"') {
      const escapes = char === "'" && /[eE]/.test(sql[i - 1] ?? '') && !/\w/.test(sql[i - 2] ?? '')
      i += 1
      while (i < sql.length) {
        if (escapes && sql[i] === '\\') i += 2
        else if (sql[i] === char && sql[i + 1] === char) i += 2
        else if (sql[i] === char) break
        else i += 1
      }
      i += 1
    } else if (char === '$' && !/[\w$]/.test(sql[i - 1] ?? '')) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0]
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length)
        i = end < 0 ? sql.length : end + tag.length
      } else {
        i += 1
      }
    } else if (char === ';') {
      i += 1
      push(i)
    } else {
      i += 1
    }
  }
  push(sql.length)
  return statements
}

async function runFile(file: string): Promise<TapReport> {
  const statements = splitStatements(readFileSync(path.join(testsDir, file), 'utf8'))
  const client = await db.pool.connect()
  const lines: string[] = []
  try {
    // pg_prove gives every file a new session; here one connection serves them all,
    // so start each file from a clean session state (role, settings, temp tables).
    await client.query('discard all')
    for (const statement of statements) {
      try {
        lines.push(...outputLines(await client.query(statement.text)))
      } catch (error) {
        await client.query('rollback')
        const { message, detail, hint, where } = error as pg.DatabaseError
        const report = readTap(lines)
        const failure = [`SQL error at line ${statement.line}: ${message}`, detail, hint, where].filter(Boolean).join('\n  ')
        return { ...report, problems: [...report.problems, failure] }
      }
    }
    return readTap(lines)
  } finally {
    client.release()
  }
}

describe('pgTAP suite on PGlite', () => {
  it('finds the suite', () => {
    expect(files.length).toBeGreaterThan(1)
    expect(files[0]).toBe('000-setup-tests-hooks.sql')
  })

  for (const file of files) {
    it(file, async () => {
      const report = await runFile(file)
      expect(report.problems, `${file}: ${report.ran} of ${report.planned ?? '?'} planned tests ran`).toEqual([])
      expect(report.ran).toBeGreaterThan(0)
    })
  }
})
