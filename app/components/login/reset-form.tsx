import { Form, Link, useActionData, useNavigate } from '@remix-run/react'
import { useEffect, type FormEvent } from 'react'
import { Alert } from '~/components/ui/alert'
import { checkWithSchema, FieldChecks, TextField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import { useCheckBeforeSending } from '~/components/ui/use-check-before-sending'
import { failureFor } from '~/lib/forms'
import { loginUrl, type LoginActionData } from '~/lib/login'
import { AUTH_MESSAGES, emailOnlySchema, type FieldErrors } from '~/lib/schemas/auth'

/** Back to sign-in this long after the reset link was sent (docs/product.md, States; Limits and timers). */
const RESET_RETURN_MS = 3000

export function ResetForm({ redirectTo, linkProblem }: { redirectTo: string | null; linkProblem: string | null }) {
  const actionData = useActionData<LoginActionData>()
  const navigate = useNavigate()
  const { clientErrors, checkBeforeSending } = useCheckBeforeSending()
  const server = actionData?.intent === 'reset' ? actionData : null
  const failure = failureFor(server)
  const errors: FieldErrors = clientErrors ?? failure.fieldErrors
  const sent = server?.ok === true && !clientErrors

  useEffect(() => {
    if (!sent) return
    const timer = window.setTimeout(() => navigate(loginUrl(redirectTo), { replace: true }), RESET_RETURN_MS)
    return () => window.clearTimeout(timer)
  }, [sent, navigate, redirectTo])

  function validate(event: FormEvent<HTMLFormElement>) {
    checkBeforeSending(event, emailOnlySchema.safeParse({ email: new FormData(event.currentTarget).get('email') }))
  }

  return (
    <>
      <h1 className="text-title">Reset your password</h1>
      <p className="text-body mt-1">Enter your email and we’ll send you a link to set a new password.</p>
      <FieldChecks check={checkResetField}>
        <Form
          method="post"
          action={loginUrl(redirectTo, 'reset')}
          noValidate
          onSubmit={validate}
          className="mt-6 flex flex-col gap-5"
        >
          {linkProblem && !server ? <Alert tone="error">{linkProblem}</Alert> : null}
          {sent ? <Alert tone="success">{AUTH_MESSAGES.resetSent}</Alert> : null}
          {failure.formError && !clientErrors ? <Alert tone="error">{failure.formError}</Alert> : null}
          <TextField
            // Opened on purpose to type an email: start there.
            autoFocus
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={server?.values?.email ?? ''}
            error={errors.email}
            required
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to={loginUrl(redirectTo)} className="btn-secondary h-12 sm:w-32">
              Cancel
            </Link>
            <SubmitButton name="intent" value="reset" className="h-12 sm:min-w-48" pendingLabel="Sending…">
              Send Reset Link
            </SubmitButton>
          </div>
        </Form>
      </FieldChecks>
    </>
  )
}

/** The email is checked again with the shared schema as it changes. */
const checkResetField = checkWithSchema(emailOnlySchema)
