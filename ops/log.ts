import { AsyncLocalStorage } from 'node:async_hooks'
import { pino, type Logger } from 'pino'
import { setting } from './env'

/**
 * Lumen's structured logs: one JSON object a line on stdout (pino), for the
 * app, the stand-in, the media worker and the scripts alike. Every line
 * written while a request or a media job is being handled carries its
 * `requestId` (and `jobId`), read from an AsyncLocalStorage the HTTP entry
 * and the worker fill in; a media job keeps the id of the request that
 * queued it (`media_jobs.request_id`), so an upload can be followed from its
 * request to its transcode.
 *
 * Secrets never reach a line: headers that carry credentials are redacted
 * by pino, and URLs are logged through `safePath`, which drops the values of
 * query parameters that carry tokens or keys.
 *
 * LOG_LEVEL sets the level (default `info`; `silent` under Vitest unless set).
 */
export interface LogContext {
  requestId?: string
  jobId?: number
  workerId?: string
}

const context = new AsyncLocalStorage<LogContext>()

const defaultLevel = process.env.VITEST ? 'silent' : 'info'

export const logger: Logger = pino({
  level: setting('LOG_LEVEL') ?? defaultLevel,
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  mixin: () => ({ ...context.getStore() }),
  redact: {
    paths: [
      'headers.authorization',
      'headers.cookie',
      'headers.apikey',
      'headers["set-cookie"]',
      'headers["x-mailbox-key"]',
      '*.password',
      '*.token',
      '*.access_token',
      '*.refresh_token',
      'password',
      'token',
      'serviceRoleKey',
      'jwtSecret',
    ],
    censor: '[redacted]',
  },
})

/** A logger for one part of Lumen (`{component: name}` on each line). */
export function componentLogger(component: string): Logger {
  return logger.child({ component })
}

/** Runs `work` with `values` added to every log line written inside it (and in what it awaits). */
export function withLogContext<T>(values: LogContext, work: () => T): T {
  return context.run({ ...context.getStore(), ...values }, work)
}

/** The request id of the request being handled here, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId
}

/** Query parameters whose values are credentials: never logged. */
const SECRET_PARAMS = /^(token|key|code|apikey|access_token|refresh_token|token_hash|signature|x-signature|password)$/i

/** The path and query of a request URL with credential values replaced by `[redacted]`. */
export function safePath(url: string): string {
  const question = url.indexOf('?')
  if (question < 0) return url
  const params = new URLSearchParams(url.slice(question + 1))
  for (const name of [...new Set(params.keys())]) {
    if (SECRET_PARAMS.test(name)) params.set(name, '[redacted]')
  }
  const query = params.toString().replaceAll('%5Bredacted%5D', '[redacted]')
  return `${url.slice(0, question)}${query ? `?${query}` : ''}`
}

/** An error as a log field: its message and code, no stack unless asked for. */
export function errorFields(error: unknown, stack = false): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: describeValue(error) }
  const code = (error as NodeJS.ErrnoException).code
  return { error: error.message, ...(code ? { code } : {}), ...(stack ? { stack: error.stack } : {}) }
}

/** A thrown value that is not an Error, readable in a log line (never "[object Object]"). */
function describeValue(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value)
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}
