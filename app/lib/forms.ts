/**
 * The one shape of a form's failed submission, as every page action returns it
 * and every form renders it (with JavaScript, from a fetcher; without, from the
 * action data of the page rendered anew).
 *
 * - `formError`: a message for the whole form, shown at its top, when the fields
 *   are not (only) the problem — the refusal's exact words.
 * - `fieldErrors`: a message per field name, shown under the field; the first
 *   one gets the focus.
 * - `values`: what was typed, to fill the fields again when the page is rendered
 *   anew (never a password).
 * - `intent` and `targetId`: which of a page's forms was posted, and for which
 *   item (a comment's Delete, a clip's Like), so only that form shows it.
 * - `hadFile`: a file was chosen; a browser cannot refill a file field, so the
 *   form asks for it again.
 *
 * Success is `{ ok: true, ... }` with whatever the form needs next, or a redirect.
 */
export type FieldErrors = Partial<Record<string, string>>

/** The first message for each field of a schema's refusal (zod's error), keyed by its name; `form` when the issue names none. */
export function issueErrors(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'form'
    errors[key] ??= issue.message
  }
  return errors
}

export interface FormFailure<Values extends object = Record<string, string>> {
  ok: false
  formError?: string
  fieldErrors?: FieldErrors
  values?: Values
  intent?: string | null
  targetId?: string | null
  hadFile?: boolean
}

/** Whether some action data is a failure (of the given form and item, when named). */
export function isFormFailure<T>(
  value: T | undefined | null,
  only: { intent?: string; targetId?: string } = {},
): value is Extract<T, { ok: false }> {
  if (!value || typeof value !== 'object' || (value as { ok?: unknown }).ok !== false) return false
  const failure = value as unknown as FormFailure
  if (only.intent !== undefined && failure.intent !== only.intent) return false
  if (only.targetId !== undefined && failure.targetId !== only.targetId) return false
  return true
}

/** The field errors of a failure, or none. */
export function fieldErrorsOf(value: unknown): FieldErrors {
  return isFormFailure(value) ? ((value as FormFailure).fieldErrors ?? {}) : {}
}

/** What a form shows of the action data: its failure's parts, or nothing when the data is not a failure of this form. */
export interface ShownFailure<Values extends object = Record<string, string>> {
  formError: string | null
  fieldErrors: FieldErrors
  values: Values | null
  hadFile: boolean
}

/**
 * The parts of a failure a form renders — only when the failure is this form's (`intent`, `targetId`),
 * so one page's other forms stay quiet.
 */
export function failureFor<Values extends object = Record<string, string>>(
  value: unknown,
  only: { intent?: string; targetId?: string } = {},
): ShownFailure<Values> {
  if (!isFormFailure(value, only)) return { formError: null, fieldErrors: {}, values: null, hadFile: false }
  const failure = value as FormFailure<Values>
  return {
    formError: failure.formError ?? null,
    fieldErrors: failure.fieldErrors ?? {},
    values: failure.values ?? null,
    hadFile: Boolean(failure.hadFile),
  }
}

/**
 * After a refusal, the focus goes to the first field (in the form's `order`) with an error — on the
 * next frame, once the errors are rendered, unless `now` (the field is there already). In the browser only.
 */
export function focusFirstError(
  form: HTMLFormElement | null,
  errors: Partial<Record<string, unknown>>,
  order: readonly string[],
  { now = false }: { now?: boolean } = {},
) {
  const first = order.find((name) => errors[name])
  if (!first || !form) return
  const focus = () => form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus()
  if (now) focus()
  else requestAnimationFrame(focus)
}
