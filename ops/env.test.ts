import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { getEnv, isEmbedded, parseEnv, setting, SETTING_NAMES, siteUrlFor, supplySettings, usesPreparedStatements } from './env'

describe('environment', () => {
  it('runs embedded on port 3000 with data under .data when nothing is set', () => {
    const env = parseEnv({})
    expect(env.PORT).toBe(3000)
    expect(env.DATA_DIR).toBe('.data')
    expect(isEmbedded(env)).toBe(true)
  })

  it('uses the database server named by DATABASE_URL', () => {
    const env = parseEnv({ DATABASE_URL: 'postgres://u:p@db.example:5432/lumen', PORT: '8080' })
    expect(isEmbedded(env)).toBe(false)
    expect(env.PORT).toBe(8080)
  })

  it('prepares statements except behind Supabase’s transaction-mode pooler (port 6543), unless told (ADR 0063)', () => {
    const on = (source: Record<string, string>) => usesPreparedStatements(parseEnv(source))
    expect(on({})).toBe(true)
    expect(on({ DATABASE_URL: 'postgres://u:p@db.example:5432/lumen' })).toBe(true)
    expect(on({ DATABASE_URL: 'postgres://u:p@aws-0-eu.pooler.supabase.com:6543/postgres' })).toBe(false)
    expect(
      on({ DATABASE_URL: 'postgres://u:p@aws-0-eu.pooler.supabase.com:6543/postgres', DATABASE_PREPARED_STATEMENTS: 'on' }),
    ).toBe(true)
    expect(on({ DATABASE_URL: 'postgres://u:p@db.example:5432/lumen', DATABASE_PREPARED_STATEMENTS: 'off' })).toBe(false)
    expect(() => parseEnv({ DATABASE_PREPARED_STATEMENTS: 'yes' })).toThrowError(/DATABASE_PREPARED_STATEMENTS/)
  })

  it('names every invalid setting and points at .env.example', () => {
    expect(() => parseEnv({ PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrowError(
      /PORT[\s\S]*DATABASE_URL[\s\S]*\.env\.example/,
    )
  })

  it('reads SEED_DEMO_DATA as a boolean and leaves it undefined when unset', () => {
    expect(parseEnv({ SEED_DEMO_DATA: 'false' }).SEED_DEMO_DATA).toBe(false)
    expect(parseEnv({ SEED_DEMO_DATA: 'true' }).SEED_DEMO_DATA).toBe(true)
    expect(parseEnv({}).SEED_DEMO_DATA).toBeUndefined()
  })

  it('builds links a visitor copies from SITE_URL, else PUBLIC_URL, else the origin they used', () => {
    expect(siteUrlFor('http://10.0.0.5:3000/video/x', parseEnv({}))).toBe('http://10.0.0.5:3000')
    expect(siteUrlFor('http://10.0.0.5:3000/video/x', parseEnv({ PUBLIC_URL: 'https://lumen.example/' }))).toBe(
      'https://lumen.example',
    )
    expect(
      siteUrlFor(
        'http://10.0.0.5:3000/video/x',
        parseEnv({ PUBLIC_URL: 'https://app.example', SITE_URL: 'https://lumen.example' }),
      ),
    ).toBe('https://lumen.example')
  })

  it('parses the worker, process and logging settings with the rest', () => {
    const env = parseEnv({
      WORKER_CONCURRENCY: '3',
      WORKER_LEASE_MS: '3000',
      WEB_CONCURRENCY: '2',
      SHUTDOWN_GRACE_MS: '500',
      LOG_LEVEL: 'warn',
      AUTO_CAPTIONS: 'OFF',
    })
    expect(env).toMatchObject({
      WORKER_CONCURRENCY: 3,
      WORKER_LEASE_MS: 3000,
      WORKER_STOP_GRACE_MS: 20_000,
      WEB_CONCURRENCY: 2,
      SHUTDOWN_GRACE_MS: 500,
      LOG_LEVEL: 'warn',
      AUTO_CAPTIONS: 'off',
      LUMEN_BUILD_DIR: 'build',
    })
    expect(parseEnv({}).SHUTDOWN_GRACE_MS).toBe(10_000)
    expect(() => parseEnv({ WORKER_CONCURRENCY: '0', WEB_CONCURRENCY: 'many', LOG_LEVEL: 'loud' })).toThrowError(
      /WEB_CONCURRENCY[\s\S]*LOG_LEVEL[\s\S]*WORKER_CONCURRENCY/,
    )
  })

  it('reads one setting by its field of the schema (the logger, before boot)', () => {
    expect(setting('LOG_LEVEL', { LOG_LEVEL: 'debug' })).toBe('debug')
    expect(setting('LOG_LEVEL', { LOG_LEVEL: 'loud' })).toBeUndefined()
  })

  it("takes the stand-in's settings without writing them into process.env", () => {
    const before = process.env.SUPABASE_URL
    const env = supplySettings({ SUPABASE_URL: 'http://127.0.0.1:3999', SUPABASE_ANON_KEY: 'anon' })
    expect(env.SUPABASE_URL).toBe('http://127.0.0.1:3999')
    expect(getEnv().SUPABASE_ANON_KEY).toBe('anon')
    expect(process.env.SUPABASE_URL).toBe(before)
  })

  it('documents every setting in .env.example', () => {
    const example = readFileSync(path.resolve(import.meta.dirname, '../.env.example'), 'utf8')
    expect(SETTING_NAMES.filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(example))).toEqual([])
  })

  it('is the only reader of process.env outside the test tooling', () => {
    // Every setting goes through the schema above: no module reads a variable of its own.
    const root = path.resolve(import.meta.dirname, '..')
    const readers: string[] = []
    const allowed = new Set(['ops/env.ts', 'scripts/test.ts', 'scripts/e2e-data.ts', 'scripts/test-output.ts'])
    for (const dir of ['app', 'db', 'media', 'ops', 'scripts', 'stack', 'worker']) {
      for (const file of readdirSync(path.join(root, dir), { recursive: true }) as string[]) {
        const relative = path.join(dir, file)
        if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file) || allowed.has(relative)) continue
        const text = readFileSync(path.join(root, relative), 'utf8')
        if (/process\.env\.(?!PATH\b|VITEST\b|NPM_CONFIG_REGISTRY\b)[A-Z]/.test(text)) readers.push(relative)
      }
    }
    for (const file of ['server.ts']) {
      if (/process\.env\.(?!PATH\b)[A-Z]/.test(readFileSync(path.join(root, file), 'utf8'))) readers.push(file)
    }
    expect(readers).toEqual([])
  })
})
