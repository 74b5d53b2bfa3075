import { data } from '@remix-run/node'
import { DomainError } from '../errors.server'
import { redirectWithFlash } from './flash.server'
import { mergeHeaders, type HeaderSource } from './responses.server'

/**
 * The two adapters from a DomainError to HTTP, so a page and its /api twin
 * answer the same refusal with the same status and the same words.
 */

/** For a page: its action data with `error` (the spec's message) and field errors, at the error's status. */
export function pageFailure<T extends object>(error: DomainError, body: T, ...headers: HeaderSource[]) {
  return data(
    { ...body, error: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) },
    { status: error.status, headers: mergeHeaders(...headers) },
  )
}

/** For a plain form post that goes back where it came from: a redirect with the message as a flash. */
export function flashFailure(error: DomainError, to: string, ...headers: HeaderSource[]): Promise<Response> {
  return redirectWithFlash(to, { kind: 'error', message: error.message }, mergeHeaders(...headers))
}

/** For /api: `{ error, fieldErrors? }` with 400/401/403/404/409/413/415/429/503. */
export function jsonFailure(error: DomainError, ...headers: HeaderSource[]): Response {
  return Response.json(
    { error: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) },
    { status: error.status, headers: mergeHeaders(...headers) },
  )
}
