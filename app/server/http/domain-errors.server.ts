import { data } from '@remix-run/node'
import type { FormFailure } from '~/lib/forms'
import { DomainError } from '../errors.server'
import { redirectWithFlash } from './flash.server'
import { mergeHeaders, type HeaderSource } from './responses.server'

/**
 * The two adapters from a DomainError to HTTP, so a page and its /api twin
 * answer the same refusal with the same status and the same words.
 */

/**
 * A page form's failed submission (app/lib/forms.ts: the one shape every form renders), at
 * `status` — 400 unless the refusal says otherwise. `Extra` is what one form adds to it (sign-up's
 * password strength).
 */
export function formFailure<Values extends object = Record<string, string>, Extra extends object = object>(
  failure: Omit<FormFailure<Values>, 'ok'> & Extra,
  status: number,
  ...headers: HeaderSource[]
) {
  return data({ ok: false as const, ...failure }, { status, headers: mergeHeaders(...headers) })
}

/** For a page: a refusal as its form failure — the message as `formError`, its field errors, at the error's status. */
export function pageFailure<Values extends object = Record<string, string>>(
  error: DomainError,
  extra: Omit<FormFailure<Values>, 'ok' | 'formError' | 'fieldErrors'> = {},
  ...headers: HeaderSource[]
) {
  return formFailure<Values>(
    { ...extra, formError: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) },
    error.status,
    ...headers,
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
