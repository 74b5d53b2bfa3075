import { Form, Link, useActionData } from '@remix-run/react'
import type { FormEvent } from 'react'
import { Alert } from '~/components/ui/alert'
import { checkWithSchema, FieldChecks, TextField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import { useCheckBeforeSending } from '~/components/ui/use-check-before-sending'
import { failureFor } from '~/lib/forms'
import { loginUrl, type LoginActionData } from '~/lib/login'
import { AUTH_MESSAGES, emailOnlySchema, signinSchema, type FieldErrors } from '~/lib/schemas/auth'

export function SignInForm({ redirectTo }: { redirectTo: string | null }) {
  const actionData = useActionData<LoginActionData>()
  const { clientErrors, checkBeforeSending } = useCheckBeforeSending()
  const server = actionData?.intent === 'signin' || actionData?.intent === 'check' ? actionData : null
  const failure = failureFor(server)
  const errors: FieldErrors = clientErrors ?? failure.fieldErrors
  const check = actionData?.intent === 'check' && actionData.ok && !clientErrors ? actionData : null

  // With JavaScript, the same schemas check the form first; which one depends on the button.
  function validate(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
    const form = new FormData(event.currentTarget)
    const parsed =
      submitter?.value === 'check'
        ? emailOnlySchema.safeParse({ email: form.get('email') })
        : signinSchema.safeParse({ email: form.get('email'), password: form.get('password') })
    checkBeforeSending(event, parsed)
  }

  return (
    <>
      <h1 className="text-title">Sign in</h1>
      <p className="text-body mt-1">Welcome back. Pick up where you left off.</p>
      <FieldChecks check={checkSignInField}>
        <Form method="post" action={loginUrl(redirectTo)} noValidate onSubmit={validate} className="mt-6 flex flex-col gap-5">
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          {failure.formError && !clientErrors ? <Alert tone="error">{failure.formError}</Alert> : null}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={server?.values?.email ?? ''}
            error={errors.email}
            required
          />
          <div className="flex flex-col gap-1.5">
            <TextField
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              error={errors.password}
              required
            />
            <Link
              to={loginUrl(redirectTo, 'reset')}
              className="self-end rounded-full px-1 py-2 text-sm font-semibold text-brand-700 hover:underline"
            >
              Forgot Password?
            </Link>
          </div>
          <SubmitButton name="intent" value="signin" className="h-12 w-full text-base" pendingLabel="Signing in…">
            Sign In
          </SubmitButton>
          <div className="flex flex-col items-center gap-2 border-t border-ink-200 pt-4">
            <button
              type="submit"
              name="intent"
              value="check"
              formNoValidate
              className="rounded-full px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
            >
              Check if account exists
            </button>
            {check?.registered === false ? (
              <Alert
                tone="warning"
                action={
                  <Link to="/signup" className="btn-secondary min-h-10 px-4">
                    Sign up
                  </Link>
                }
              >
                {AUTH_MESSAGES.emailNotRegistered}
              </Alert>
            ) : null}
            {check?.registered === true ? <Alert tone="success">{AUTH_MESSAGES.emailRegistered}</Alert> : null}
          </div>
        </Form>
      </FieldChecks>
      <p className="mt-6 text-center text-sm text-ink-600">
        <Link to="/signup" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          Need an account? Sign up
        </Link>
      </p>
    </>
  )
}

/** Each field is checked again with the shared schema as it changes. */
const checkSignInField = checkWithSchema(signinSchema)
