import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import type { FormEvent } from 'react'
import { NewPasswordField } from '~/components/password-strength-meter'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { checkWithSchema, FieldChecks, TextField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import { useCheckBeforeSending } from '~/components/ui/use-check-before-sending'
import { passwordStrength, type PasswordStrength } from '~/lib/password-strength'
import { AUTH_MESSAGES, fieldErrors, resetPasswordSchema, type FieldErrors } from '~/lib/schemas/auth'
import { exchangeCode, updatePassword } from '~/server/accounts.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { formFailure } from '~/server/http/domain-errors.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { getSession } from '~/server/session.server'

/**
 * Setting a new password, reached through the emailed reset link (which
 * /auth/confirm turned into a session). Without a session there is nothing
 * to update: back to the reset form with a message.
 */
const NO_SESSION = '/login?mode=reset&error=no-session'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await getSession(request, context)
  const url = new URL(request.url)
  // Auth's own verify link comes back here with `?code=` (PKCE) or an error.
  const code = url.searchParams.get('code')
  if (code) {
    const exchanged = await exchangeCode(session.supabase, code)
    throw redirectWithHeaders(exchanged ? '/reset-password' : '/login?mode=reset&error=link-expired', session.headers)
  }
  if (url.searchParams.has('error_code')) throw redirectWithHeaders('/login?mode=reset&error=link-expired', session.headers)
  if (!session.user) throw redirectWithHeaders(NO_SESSION, session.headers)
  return jsonWithHeaders({ email: session.user.email }, 200, session.headers)
}

/** The one form failure (app/lib/forms.ts; no values: passwords are never echoed), plus the meter's reading. */
interface ResetExtra {
  strength: PasswordStrength | null
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await getSession(request, context)
  if (!session.user) throw redirectWithHeaders(NO_SESSION, session.headers)
  const form = await request.formData()
  const values = { password: String(form.get('password') ?? ''), confirmPassword: String(form.get('confirmPassword') ?? '') }
  const strength = values.password ? passwordStrength(values.password) : null
  const parsed = resetPasswordSchema.safeParse(values)
  if (!parsed.success) {
    return formFailure<object, ResetExtra>({ fieldErrors: fieldErrors(parsed.error), strength }, 400, session.headers)
  }
  const result = await updatePassword(session.supabase, parsed.data.password)
  if (!result.ok) {
    return formFailure<object, ResetExtra>(
      { fieldErrors: result.fieldErrors ?? {}, ...(result.message ? { formError: result.message } : {}), strength },
      400,
      session.headers,
    )
  }
  return redirectWithFlash('/profile', { kind: 'success', message: AUTH_MESSAGES.passwordUpdated }, session.headers)
}

export default function ResetPassword() {
  const { email } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { clientErrors, checkBeforeSending } = useCheckBeforeSending()
  const errors: FieldErrors = clientErrors ?? actionData?.fieldErrors ?? {}

  function validate(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget)
    const parsed = resetPasswordSchema.safeParse({ password: form.get('password'), confirmPassword: form.get('confirmPassword') })
    checkBeforeSending(event, parsed)
  }

  return (
    <div className="mx-auto w-full max-w-lg px-4 pb-28 pt-6 sm:px-6 sm:pt-10">
      <div className="card p-5 sm:p-8">
        <h1 className="text-title">Set a new password</h1>
        <p className="text-body mt-1">
          For <span className="font-semibold text-ink-900">{email}</span>. Choose something you don’t use anywhere else.
        </p>
        <FieldChecks check={checkNewPasswordField}>
        <Form method="post" noValidate onSubmit={validate} className="mt-6 flex flex-col gap-5">
          {actionData?.formError && !clientErrors ? <Alert tone="error">{actionData.formError}</Alert> : null}
          {/* Lets password managers file the new password under the right account. */}
          <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
          <NewPasswordField
            label="New password"
            name="password"
            error={errors.password}
            submittedStrength={clientErrors ? null : (actionData?.strength ?? null)}
            required
          />
          <TextField
            label="Confirm new password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword}
            required
          />
          <SubmitButton className="h-12 w-full text-base" pendingLabel="Updating…">
            Update Password
          </SubmitButton>
        </Form>
        </FieldChecks>
      </div>
    </div>
  )
}

export const meta: MetaFunction = () => [{ title: 'Set a new password — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Your password could not be changed"
      message="Something went wrong on our side. Please request a new reset link and try again."
      action={{ href: '/login?mode=reset', label: 'Request a new link' }}
    />
  )
}

/** Each field is checked again with the shared schema as it changes. */
const checkNewPasswordField = checkWithSchema(resetPasswordSchema)
