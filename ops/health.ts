import { randomUUID } from 'node:crypto'
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import type pg from 'pg'
import { isDatabaseUnavailable } from '../db/unavailable'
import { componentLogger, errorFields, safePath, withLogContext } from './log'

/**
 * What load balancers and operators ask a Lumen process (ADR 0017):
 * - `GET /healthz`: the process answers (200), nothing else is checked.
 * - `GET /readyz`: 200 when the database answers `select 1` and a media
 *   worker's heartbeat (public.worker_heartbeats) is under a minute old; 503
 *   with the failing check otherwise, and from the moment shutdown begins.
 * - While the database is unreachable (a restart, a failover), every other
 *   request gets a clean 503 with `Retry-After` instead of an error page;
 *   the pool reconnects by itself and requests flow again once a probe
 *   succeeds.
 */
const WORKER_FRESH_SECONDS = 60
const PROBE_TIMEOUT_MS = 2_000
export const RETRY_AFTER_SECONDS = 5

export { isDatabaseUnavailable }

export class DatabaseHealth {
  /** Set when a connection was lost; cleared by the next probe that succeeds. */
  down = false
  private probing: Promise<boolean> | undefined
  private checkedAt = 0
  private readonly log = componentLogger('db')

  constructor(private readonly pool: pg.Pool) {
    // An idle client that loses its server, or a checked-out one whose connection breaks.
    pool.on('error', (error) => this.markDown(error))
    pool.on('connect', (client) => client.on('error', (error) => this.markDown(error)))
  }

  /**
   * A request failed with a database-unavailable error. "timeout exceeded when trying to
   * connect" also means every pooled connection was busy for the whole wait: that request
   * gets its 503, but an overloaded pool is not an outage, so the gate stays open for
   * the others (closing it turned a burst of load into 503s for everyone).
   */
  noteFailure(error: unknown) {
    if (this.saturated()) {
      this.log.warn({ ...errorFields(error) }, 'every database connection busy: this request answered 503')
      return
    }
    this.markDown(error)
  }

  private saturated(): boolean {
    const max = (this.pool.options as { max?: number } | undefined)?.max ?? 10
    return this.pool.totalCount >= max && this.pool.idleCount === 0
  }

  markDown(error: unknown) {
    if (!this.down) this.log.warn({ ...errorFields(error) }, 'database connection lost: answering 503 until it is back')
    this.down = true
    this.checkedAt = 0
  }

  /** `select 1` within 2 s; concurrent callers share one probe, and a result is reused for 1 s. */
  probe(): Promise<boolean> {
    if (this.probing) return this.probing
    if (!this.down && Date.now() - this.checkedAt < 1_000) return Promise.resolve(true)
    this.probing = (async () => {
      let timer: NodeJS.Timeout | undefined
      try {
        await Promise.race([
          this.pool.query('select 1'),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('connection timeout')), PROBE_TIMEOUT_MS))),
        ])
        if (this.down) this.log.info('database reachable again')
        this.down = false
        this.checkedAt = Date.now()
        return true
      } catch (error) {
        if (!this.down) this.markDown(error)
        return false
      } finally {
        clearTimeout(timer)
        this.probing = undefined
      }
    })()
    return this.probing
  }

  /** Whether a media worker was seen within the last minute. */
  async workerFresh(): Promise<boolean> {
    const { rows } = await this.pool.query<{ fresh: boolean }>(
      `select exists (select 1 from public.worker_heartbeats
                       where seen_at > now() - make_interval(secs => $1)) as fresh`,
      [WORKER_FRESH_SECONDS],
    )
    return Boolean(rows[0]?.fresh)
  }
}

const REQUEST_ID = /^[\w.:-]{1,64}$/

/**
 * First middleware: a request id (the caller's valid `X-Request-Id`, else a
 * new UUID) on the response and on every log line written while the request
 * is handled, and one access-log line when it ends (no query secrets).
 */
export function requestContext(): RequestHandler {
  const log = componentLogger('http')
  return (req, res, next) => {
    const incoming = req.headers['x-request-id']
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    res.setHeader('X-Request-Id', requestId)
    const started = process.hrtime.bigint()
    withLogContext({ requestId }, () => {
      res.on('close', () => {
        const fields = {
          method: req.method,
          path: safePath(req.originalUrl),
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          ...(res.writableFinished ? {} : { aborted: true }),
        }
        if (res.statusCode >= 500) log.warn(fields, 'request failed')
        else if (req.path !== '/healthz' && req.path !== '/readyz') log.info(fields, 'request')
      })
      next()
    })
  }
}

export interface HealthRoutesOptions {
  health: DatabaseHealth
  /** True from the moment shutdown begins. */
  stopping: () => boolean
}

/** `/healthz` and `/readyz`, then the 503 gate while the database is unreachable. */
export function healthRoutes({ health, stopping }: HealthRoutesOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.setHeader('Cache-Control', 'no-store')
      res.json({ status: 'ok' })
      return
    }
    if (req.path === '/readyz' && (req.method === 'GET' || req.method === 'HEAD')) {
      void readiness(health, stopping()).then(({ ready, checks }) => {
        res.setHeader('Cache-Control', 'no-store')
        if (!ready) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
        res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks })
      })
      return
    }
    if (!health.down) return next()
    void health.probe().then((up) => (up ? next() : unavailable(req, res)))
  }
}

async function readiness(health: DatabaseHealth, stopping: boolean) {
  const checks: Record<string, 'ok' | 'failed' | 'stale' | 'stopping'> = {}
  if (stopping) checks.process = 'stopping'
  const database = await health.probe()
  checks.database = database ? 'ok' : 'failed'
  if (database) checks.worker = (await health.workerFresh().catch(() => false)) ? 'ok' : 'stale'
  const ready = !stopping && database && checks.worker === 'ok'
  return { ready, checks }
}

/** A 503 the client can act on: JSON for the APIs, a short page for browsers. */
export function unavailable(req: Request, res: Response) {
  if (res.headersSent) return
  res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
  res.setHeader('Cache-Control', 'no-store')
  const message = 'Lumen is briefly unavailable. Please try again in a few seconds.'
  const wantsJson = /^\/(auth|storage|functions|rest)\/v1\b/.test(req.path) || /application\/json/.test(req.headers.accept ?? '')
  if (wantsJson) {
    res.status(503).json({ statusCode: '503', code: 'unavailable', error: 'Service Unavailable', message })
    return
  }
  res.status(503).type('html').send(outagePage())
}

/** The page a browser gets while the database is unreachable (no stack, no details). */
export function outagePage(): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Lumen · briefly unavailable</title></head><body><main><h1>Briefly unavailable</h1>` +
    `<p>Lumen is briefly unavailable. Please try again in a few seconds.</p></main></body></html>`
  )
}

/**
 * Last error handler: a failure because the database went away becomes the
 * same 503 (and flags the gate for the requests after it); anything else a
 * plain 500 without details. A request whose client went away (a tab closed,
 * a fetch aborted) ends quietly: Remix aborts its work when the connection
 * closes, and that abort arrives here; nothing can be answered, and nothing
 * failed on the server (Express's own handler printed its stack as an error).
 */
export function databaseErrors(health: DatabaseHealth) {
  const log = componentLogger('http')
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if ((error as { name?: unknown } | null)?.name === 'AbortError' && (req.destroyed || res.destroyed)) {
      res.destroy()
      return
    }
    if (res.headersSent) return next(error)
    if (isDatabaseUnavailable(error)) {
      health.noteFailure(error)
      unavailable(req, res)
      return
    }
    log.error({ ...errorFields(error, true) }, 'unhandled request error')
    res.status(500).type('text').send('Internal Server Error')
  }
}
