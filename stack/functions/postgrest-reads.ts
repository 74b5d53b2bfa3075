import express from 'express'
import type { DatabaseError } from 'pg'
import type { StackContext } from '../context'
import { bearerToken, verifyToken } from '../jwt'
import { withRole, type DatabaseRole } from '../../db/as-role'

/**
 * `GET /rest/v1/<table>?select=a,b&col=eq.value` — the one slice of PostgREST
 * that edge functions need to read the database as their caller, which is
 * how a function reads it on Supabase. The app itself never comes here: it
 * queries Postgres directly (ADR 0002). In embedded mode the
 * database is PGlite inside the Node process, which a Deno process cannot
 * reach any other way.
 *
 * Faithful where it answers: the caller's JWT picks the role and claims
 * (none: anon), row-level security decides, `select` lists plain columns or
 * `*`, filters are `eq` only, `Accept: application/vnd.pgrst.object+json`
 * asks for exactly one row (406 PGRST116 otherwise), and errors have
 * PostgREST's shape and statuses. Another filter operator is refused as a
 * filter PostgREST cannot parse (400 PGRST100, with a hint); anything else —
 * order, limit, embedding, writes — answers 501, loudly, never wrongly.
 */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'on_conflict', 'columns', 'and', 'or', 'not'])
const SINGLE_OBJECT = 'application/vnd.pgrst.object+json'

interface PostgrestError {
  code: string
  details: string | null
  hint: string | null
  message: string
}

const failure = (code: string, message: string, details: string | null = null, hint: string | null = null): PostgrestError => ({
  code,
  details,
  hint,
  message,
})

export function createPostgrestReadsRouter(ctx: StackContext): express.Router {
  const router = express.Router()

  // What Supabase's gateway does in front of PostgREST: no project API key, no answer (ADR 0012, finding 8).
  router.use((req, res, next) => {
    const key = req.get('apikey') ?? (typeof req.query.apikey === 'string' ? req.query.apikey : undefined)
    if (!key) {
      res.status(401).json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' })
    } else if (key !== ctx.keys.anonKey && key !== ctx.keys.serviceRoleKey) {
      res.status(401).json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' })
    } else {
      // The gateway consumes ?apikey=: it is no filter.
      delete (req.query as Record<string, unknown>).apikey
      next()
    }
  })

  router.get('/:table', async (req, res, next) => {
    try {
      const caller = await callerOf(ctx, req.headers.authorization)
      if ('error' in caller) {
        res.status(401).json(caller.error)
        return
      }
      const query = parseQuery(req.params.table, req.query)
      if ('error' in query) {
        res.status(query.status).json(query.error)
        return
      }

      let rows: unknown[]
      try {
        rows = await withRole(ctx.pool, caller.role, caller.claims, async (client) => {
          const result = await client.query<{ rows: unknown[] }>(query.sql, query.values)
          return result.rows[0]?.rows ?? []
        })
      } catch (error) {
        const mapped = databaseFailure(error as DatabaseError, caller.role, req.params.table)
        if (!mapped) throw error
        res.status(mapped.status).json(mapped.error)
        return
      }

      if (req.headers.accept?.includes(SINGLE_OBJECT)) {
        if (rows.length !== 1) {
          res
            .status(406)
            .json(failure('PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows.length} rows`))
          return
        }
        res.set('Content-Range', '0-0/*').type(`${SINGLE_OBJECT}; charset=utf-8`).send(JSON.stringify(rows[0]))
        return
      }
      res.set('Content-Range', rows.length ? `0-${rows.length - 1}/*` : '*/*').json(rows)
    } catch (error) {
      next(error)
    }
  })

  router.all('*', (_req, res) => {
    res
      .status(501)
      .json(failure('PGRST501', 'The stand-in serves only GET reads of tables at /rest/v1, for edge functions'))
  })

  return router
}

type Caller = { role: DatabaseRole; claims: Record<string, unknown> } | { error: PostgrestError }

async function callerOf(ctx: StackContext, header: string | undefined): Promise<Caller> {
  const token = bearerToken(header)
  if (!token) return { role: 'anon', claims: {} }
  const verified = await verifyToken(ctx.keys, token)
  if (!verified.ok) {
    return { error: verified.reason === 'expired' ? failure('PGRST303', 'JWT expired') : failure('PGRST301', 'JWSError JWSInvalidSignature') }
  }
  const role = verified.claims.role ?? 'anon'
  if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role') {
    return { error: failure('PGRST301', `JWT role "${role}" is not one the stand-in serves`) }
  }
  return { role, claims: verified.claims }
}

type Query = { sql: string; values: string[] } | { status: number; error: PostgrestError }

function parseQuery(table: string, params: express.Request['query']): Query {
  if (!IDENTIFIER.test(table)) {
    return { status: 404, error: failure('PGRST205', `Could not find the table 'public.${table}' in the schema cache`) }
  }
  const select = typeof params.select === 'string' ? params.select : '*'
  const columns = select.split(',').map((column) => column.trim())
  if (select !== '*' && !columns.every((column) => IDENTIFIER.test(column))) {
    return { status: 501, error: failure('PGRST501', `The stand-in's select takes plain column names only, not "${select}"`) }
  }

  const conditions: string[] = []
  const values: string[] = []
  for (const [column, raw] of Object.entries(params)) {
    if (column === 'select') continue
    if (RESERVED.has(column) || !IDENTIFIER.test(column)) {
      return { status: 501, error: failure('PGRST501', `The stand-in does not support the "${column}" parameter`) }
    }
    if (typeof raw !== 'string' || !raw.startsWith('eq.')) {
      return {
        status: 400,
        error: failure('PGRST100', `"failed to parse filter (${String(raw)})" (line 1, column 1)`, null, 'The stand-in filters with eq only'),
      }
    }
    values.push(raw.slice('eq.'.length))
    conditions.push(`${quote(column)} = $${values.length}`)
  }

  const list = select === '*' ? '*' : columns.map(quote).join(', ')
  const where = conditions.length ? ` where ${conditions.join(' and ')}` : ''
  return {
    sql: `select coalesce(json_agg(t), '[]'::json) as rows from (select ${list} from public.${quote(table)}${where}) t`,
    values,
  }
}

/** PostgREST's statuses for the database errors a read can meet; undefined for the rest (a 500). */
function databaseFailure(error: DatabaseError, role: DatabaseRole, table: string): { status: number; error: PostgrestError } | undefined {
  const shaped = failure(error.code ?? 'XX000', error.message, error.detail ?? null, error.hint ?? null)
  if (error.code === '42501') return { status: role === 'anon' ? 401 : 403, error: shaped }
  if (error.code === '42P01') {
    return { status: 404, error: failure('PGRST205', `Could not find the table 'public.${table}' in the schema cache`) }
  }
  if (error.code?.startsWith('22') || error.code?.startsWith('42')) return { status: 400, error: shaped }
  return undefined
}

/** Identifiers are checked against IDENTIFIER first; quoting keeps case and keywords intact. */
function quote(identifier: string): string {
  return `"${identifier}"`
}
