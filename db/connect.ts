import { mkdirSync } from 'node:fs'
import { PGlite, type Extensions } from '@electric-sql/pglite'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import pg from 'pg'
import { componentLogger } from '../ops/log'

/**
 * One way to reach Postgres for every part of Lumen: a node-postgres pool.
 * On a server it is an ordinary pool; in embedded mode it is a one-connection
 * pool over PGlite, so Kysely, the migration runner and the stand-in run the
 * same code either way. The single connection also serialises transactions,
 * which PGlite needs.
 */
export interface DatabaseHandle {
  kind: 'pglite' | 'postgres'
  pool: pg.Pool
  /** Where the data lives: the server URL without its password, or the PGlite directory. */
  location: string
  /** Embedded mode: the PGlite instance itself (backups dump it). */
  lite?: PGlite
  close(): Promise<void>
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL 15+ server. When absent, PGlite is used. */
  databaseUrl?: string
  /** PGlite data directory, or `memory://` for a throwaway database. */
  dataDir?: string
  /** Extra PGlite extensions (tests load pgTAP this way). */
  extensions?: Extensions
  /** Largest number of server connections. */
  maxConnections?: number
}

/**
 * Values come back as supabase-js would give them (the generated `Database`
 * types describe those): timestamps and dates as ISO strings, bigint and
 * numeric as numbers.
 */
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case pg.types.builtins.TIMESTAMPTZ:
      case pg.types.builtins.TIMESTAMP:
        return toIsoTimestamp
      case pg.types.builtins.DATE:
        return (value: string) => value
      case pg.types.builtins.INT8:
      case pg.types.builtins.NUMERIC:
        return (value: string) => Number(value)
      default:
        return pg.types.getTypeParser(oid, format)
    }
  },
} as pg.CustomTypesConfig

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      types: typeParsers,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
    })
    // An idle client that loses its server (restart, failover) must not crash the process.
    pool.on('error', (error) => componentLogger('db').warn({ error: error.message }, 'idle connection lost'))
    return {
      kind: 'postgres',
      pool,
      location: redactUrl(options.databaseUrl),
      close: once(() => pool.end()),
    }
  }

  const dataDir = options.dataDir ?? '.data/pglite'
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true })
  const lite = await PGlite.create(dataDir, {
    extensions: { pgcrypto, uuid_ossp, ...options.extensions },
  })
  const pool = new pg.Pool({ ...(createPgConfig(lite) as pg.PoolConfig), types: typeParsers })
  return {
    kind: 'pglite',
    pool,
    location: dataDir,
    lite,
    close: once(async () => {
      await pool.end()
      await lite.close()
    }),
  }
}

/** Closing twice (a test's cleanup after the app's) is harmless. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined
  return () => (closing ??= close())
}

/** `2026-11-21 05:36:09.38+00` → `2026-11-21T05:36:09.38+00:00`, which every Date parser reads. */
export function toIsoTimestamp(value: string): string {
  return value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (!/^postgres(ql)?:$/.test(parsed.protocol)) return 'postgres://(unparseable URL)'
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'postgres://(unparseable URL)'
  }
}
