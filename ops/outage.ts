import type { ServerBuild } from '@remix-run/node'
import { isDatabaseUnavailable } from '../db/unavailable'
import { outagePage, RETRY_AFTER_SECONDS } from './health'
import { componentLogger, errorFields } from './log'

/**
 * A page or data request whose loader or action failed because the database went away (or
 * every connection stayed busy) answers 503 with Retry-After — and tells the gate, which
 * closes for the requests after it on a real outage — instead of the error page: Remix's
 * handleError sees the original error, then the document and data handlers swap the response.
 *
 * The failed request is recognised by its load context (one object per request, made by
 * getLoadContext), not by its `Request`: Remix hands each loader a Request of its own, so the
 * document handler never saw the one a failing loader had, and answered 500.
 */
export function withDatabaseOutage503(health: { noteFailure(error: unknown): void }, original: ServerBuild): ServerBuild {
  const logger = componentLogger('server')
  const outages = new WeakSet<object>()
  const mark = (request: Request, context: unknown) => {
    outages.add(request)
    if (context && typeof context === 'object') outages.add(context)
  }
  const failed = (request: Request, context: unknown) =>
    outages.has(request) || (context !== null && typeof context === 'object' && outages.has(context))
  const entry = original.entry.module
  const outage = () =>
    new Response(outagePage(), {
      status: 503,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Retry-After': String(RETRY_AFTER_SECONDS),
        'Cache-Control': 'no-store',
      },
    })
  return {
    ...original,
    entry: {
      ...original.entry,
      module: {
        ...entry,
        handleError(error, args) {
          if (isDatabaseUnavailable(error)) {
            mark(args.request, args.context)
            health.noteFailure(error)
          }
          if (entry.handleError) entry.handleError(error, args)
          else if (args.request.signal.aborted) return
          else if (isClientErrorResponse(error)) {
            // Remix's own 404/405 (a POST to a page without an action, say): the client's mistake, not a failure.
            logger.info({ status: error.status, error: error.statusText }, 'request refused')
          } else logger.error({ ...errorFields(error, true) }, 'request failed')
        },
        default(request, status, headers, context, loadContext) {
          if (failed(request, loadContext)) return outage()
          return entry.default(request, status, headers, context, loadContext)
        },
        handleDataRequest(response, args) {
          if (failed(args.request, args.context)) return outage()
          return entry.handleDataRequest ? entry.handleDataRequest(response, args) : response
        },
      },
    },
  }
}

/** Remix's ErrorResponse (the router's 404 or 405, a thrown `json` of 4xx): `status`, `statusText`, `data`. */
function isClientErrorResponse(error: unknown): error is { status: number; statusText: string } {
  if (!error || typeof error !== 'object' || !('status' in error) || !('statusText' in error)) return false
  return typeof error.status === 'number' && error.status >= 400 && error.status < 500
}
