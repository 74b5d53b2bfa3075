/**
 * The one way a domain operation says no. `code` says what kind of no (the
 * adapters in app/server/http/ turn it into a status); `message` is the
 * spec's exact text, shown as it is; `fieldErrors` name the form fields at
 * fault. Pages and the /api routes share the adapters, so they cannot word
 * or number the same refusal differently.
 */
export const DOMAIN_ERROR_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  rate_limited: 429,
  unavailable: 503,
} as const

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS

export type FieldErrors = Partial<Record<string, string>>

export class DomainError extends Error {
  readonly status: (typeof DOMAIN_ERROR_STATUS)[DomainErrorCode]

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(message)
    this.name = 'DomainError'
    this.status = DOMAIN_ERROR_STATUS[code]
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError
}

/** Postgres said no on a row-level security check (SQLSTATE 42501). */
export function isPermissionError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '42501'
}

/** A unique constraint refused the row (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505'
}
