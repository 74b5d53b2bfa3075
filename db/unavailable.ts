/**
 * Whether an error means "the database is not there (or not reachable now)" rather than
 * "this query is wrong": a restart, a failover, a dropped connection, or a pool so busy that
 * no connection came within its wait. Such a request is answered 503 with `Retry-After`
 * (ops/health.ts for pages, the /api frame for JSON), never 500.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections: the server's connection slots are all taken
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
])

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as NodeJS.ErrnoException).code
  if (code && UNAVAILABLE_CODES.has(code)) return true
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    error.message,
  )
}
