import { useState, type FormEvent } from 'react'
import { focusFirstError, issueErrors, type FieldErrors } from '~/lib/forms'

/**
 * What a form's own check found: a schema's verdict (zod's `safeParse`), or one already worded as one
 * message per field (`parseFeedback`, `parseReport`).
 */
export type FormCheck =
  | { success: true }
  | { success: false; errors: FieldErrors }
  | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }

/**
 * With JavaScript, the form's schema checks it before it is sent (the sign-in, reset, new-password and
 * sign-up forms; the dialog forms): a refusal stops the submission, and its field errors are the form's
 * `clientErrors` until a check passes (null then, and the server's answer is shown). With `focus`, the
 * first field with an error gets the focus — the first in `focus.order`, else in the order the check
 * found them — on the next frame, or at once with `focus.now`.
 */
export function useCheckBeforeSending(focus?: { order?: readonly string[]; now?: boolean }) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null)
  /** onSubmit: stops a submission the check refuses and shows why. */
  function checkBeforeSending(event: FormEvent<HTMLFormElement>, check: FormCheck) {
    if (check.success) {
      setClientErrors(null)
      return
    }
    event.preventDefault()
    const errors = 'errors' in check ? check.errors : issueErrors(check.error)
    setClientErrors(errors)
    if (focus) focusFirstError(event.currentTarget, errors, focus.order ?? Object.keys(errors), { now: focus.now })
  }
  return { clientErrors, checkBeforeSending }
}
