import type { Request, Response } from 'express'

/**
 * GoTrue's error responses. Clients that send `X-Supabase-Api-Version:
 * 2024-01-01` (auth-js always does) get `{code, message}`, where `code` is the
 * error code auth-js copies into `error.code`; older clients get GoTrue's first
 * shape, `{code: <status>, error_code, msg}`. A weak password carries its
 * reasons in both.
 */
export type AuthErrorCode =
  | 'anonymous_provider_disabled'
  | 'bad_json'
  | 'reauthentication_needed'
  | 'bad_jwt'
  | 'bad_code_verifier'
  | 'email_exists'
  | 'email_not_confirmed'
  | 'flow_state_expired'
  | 'flow_state_not_found'
  | 'invalid_credentials'
  | 'no_authorization'
  | 'not_admin'
  | 'otp_expired'
  | 'over_email_send_rate_limit'
  | 'over_request_rate_limit'
  | 'phone_provider_disabled'
  | 'refresh_token_already_used'
  | 'refresh_token_not_found'
  | 'request_too_large'
  | 'same_password'
  | 'session_not_found'
  | 'signup_disabled'
  | 'unexpected_failure'
  | 'user_already_exists'
  | 'user_banned'
  | 'user_not_found'
  | 'validation_failed'
  | 'weak_password'

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: AuthErrorCode,
    message: string,
    /** Extra top-level fields, e.g. `weak_password: {reasons}`. */
    readonly extra: Record<string, unknown> = {},
    /** Response headers, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export const badRequest = (code: AuthErrorCode, message: string) => new AuthError(400, code, message)
export const forbidden = (code: AuthErrorCode, message: string) => new AuthError(403, code, message)
export const notFound = (code: AuthErrorCode, message: string) => new AuthError(404, code, message)
export const unprocessable = (code: AuthErrorCode, message: string) => new AuthError(422, code, message)
export const validationFailed = (message: string) => badRequest('validation_failed', message)

/** GoTrue's second error format applies from this API version on. */
const API_VERSION_2024 = Date.UTC(2024, 0, 1)

function wantsCodedErrors(req: Request): boolean {
  const version = /^(\d{4})-(\d{2})-(\d{2})$/.exec(req.get('x-supabase-api-version') ?? '')
  if (!version) return false
  return Date.UTC(Number(version[1]), Number(version[2]) - 1, Number(version[3])) >= API_VERSION_2024
}

export function sendAuthError(req: Request, res: Response, error: AuthError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value)
  const body = wantsCodedErrors(req)
    ? { code: error.code, message: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra }
  res.status(error.status).json(body)
}

/**
 * The OAuth-style error GoTrue still answers when a refresh token is missing
 * from the request: `{error, error_description}` with status 400.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description)
  }
}
