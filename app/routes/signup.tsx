import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useRef, useState, type FormEvent } from 'react'
import { NewPasswordField } from '~/components/password-strength-meter'
import { CategoryChecklist } from '~/components/signup/category-checklist'
import { PortfolioField } from '~/components/signup/portfolio-field'
import { RoleQuestion } from '~/components/signup/role-question'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { SelectField, TextAreaField, TextField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import { CONCENTRATIONS, FIELDS_OF_INTEREST } from '~/lib/catalog'
import { passwordStrength, type PasswordStrength } from '~/lib/password-strength'
import {
  AUTH_MESSAGES,
  fieldErrors,
  signupEcho,
  signupFormValues,
  signupSchema,
  type FieldErrors,
  type PortfolioFileInfo,
  type SignupEcho,
} from '~/lib/schemas/auth'
import { signUp } from '~/server/accounts.server'
import { isDomainError } from '~/server/errors.server'
import { receiveSignupForm, type ReceivedSignupForm } from '~/server/http/forms.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { badRequest, jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { getSession } from '~/server/session.server'
import { createSupabaseServerClient } from '~/server/supabase.server'

/**
 * Sign-up, a two-step wizard whose state is the URL: /signup asks 'Are you a
 * Content Creator?'; /signup?creator=no is the learner form and
 * /signup?creator=yes the creator form (plus concentration, bio, portfolio
 * and categories). Both post multipart/form-data here.
 */
type Step = 'question' | 'learner' | 'creator'

function stepOf(request: Request): Step {
  const answer = new URL(request.url).searchParams.get('creator')
  return answer === 'yes' ? 'creator' : answer === 'no' ? 'learner' : 'question'
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await getSession(request, context)
  if (session.user) throw redirectWithHeaders('/profile', session.headers)
  return jsonWithHeaders({ step: stepOf(request) }, 200, session.headers)
}

interface SignupFailure {
  errors: FieldErrors
  formError: string | null
  values: SignupEcho
  /** The strength of the refused password, so the meter can show it without JavaScript. */
  strength: PasswordStrength | null
  hadFile: boolean
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { supabase, headers } = createSupabaseServerClient(request, context)
  let received: ReceivedSignupForm
  try {
    received = await receiveSignupForm(request)
  } catch (error) {
    if (!isDomainError(error)) throw error
    return jsonWithHeaders<SignupFailure>(
      { errors: {}, formError: error.message, values: signupEcho(signupFormValues(new FormData(), null)), strength: null, hadFile: false },
      error.status,
      headers,
    )
  }
  try {
    const values = signupFormValues(received.form, received.portfolio?.info ?? null)
    const failure = (errors: FieldErrors, formError: string | null = null) =>
      badRequest<SignupFailure>(
        {
          errors,
          formError,
          values: signupEcho(values),
          strength: values.password ? passwordStrength(values.password) : null,
          hadFile: Boolean(received.portfolio),
        },
        headers,
      )

    const parsed = signupSchema.safeParse(values)
    if (!parsed.success) {
      // The service's own answer to a missing username, email or password (spec §5).
      const missing = !values.username.trim() || !values.email.trim() || !values.password
      return failure(fieldErrors(parsed.error), missing ? AUTH_MESSAGES.fillRequired : null)
    }
    const result = await signUp(supabase, parsed.data, received.portfolio)
    if (!result.ok) return failure(result.fieldErrors ?? {}, result.message ?? null)
    if (!result.signedIn) {
      return redirectWithFlash('/login', { kind: 'info', message: 'Your account is ready. Please sign in.' }, headers)
    }
    const welcome = `Welcome to Lumen, ${result.username}!`
    if (parsed.data.role !== 'creator') return redirectWithFlash('/dashboard', { kind: 'success', message: welcome }, headers)
    return redirectWithFlash(
      '/dashboard',
      result.portfolioStored
        ? { kind: 'success', message: `${welcome} Your creator application is waiting for review.` }
        : {
            kind: 'info',
            message: `${welcome} Your account is ready, but your portfolio could not be stored. Please add it again from your profile.`,
          },
      headers,
    )
  } finally {
    await received.dispose()
  }
}

export default function Signup() {
  const { step } = useLoaderData<typeof loader>()
  return (
    <div className="mx-auto w-full max-w-xl px-4 pb-28 pt-6 sm:px-6 sm:pt-10">
      <div className="mb-6 text-center">
        <h1 className="text-title">{step === 'creator' ? 'Apply as a creator' : step === 'learner' ? 'Join as a learner' : 'Create your Lumen account'}</h1>
        <p className="text-body mt-1">
          {step === 'question'
            ? 'Learn something new every day, or share what you know.'
            : 'It takes a minute. You can change your profile later.'}
        </p>
      </div>
      {step === 'question' ? <RoleQuestion /> : <SignupForm key={step} creator={step === 'creator'} />}
      <p className="mt-6 text-center text-sm text-ink-600">
        Already have an account?{' '}
        <Link to="/login" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          Sign in
        </Link>
      </p>
    </div>
  )
}

const EMPTY_VALUES: SignupEcho = {
  username: '',
  email: '',
  fieldOfInterest: '',
  concentration: '',
  bio: '',
  categories: [],
  portfolioType: 'video',
}

function SignupForm({ creator }: { creator: boolean }) {
  const actionData = useActionData<typeof action>()
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const errors: FieldErrors = clientErrors ?? actionData?.errors ?? {}
  const values = actionData?.values ?? EMPTY_VALUES
  const formError = clientErrors ? null : (actionData?.formError ?? null)
  // After a round trip to the server (the only way without JavaScript), say so at the top: some errors are far below.
  const serverErrorCount = clientErrors ? 0 : Object.keys(actionData?.errors ?? {}).length
  const accountExists = errors.email === AUTH_MESSAGES.accountExists

  // With JavaScript, the same schema checks the form before it is sent.
  function validate(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget)
    const file = form.get('portfolio')
    const portfolio: PortfolioFileInfo | null =
      file instanceof File && file.size > 0 ? { name: file.name, size: file.size, type: file.type } : null
    const parsed = signupSchema.safeParse(signupFormValues(form, portfolio))
    if (parsed.success) {
      setClientErrors(null)
      return
    }
    event.preventDefault()
    const found = fieldErrors(parsed.error)
    setClientErrors(found)
    const first = Object.keys(found)[0]
    requestAnimationFrame(() => {
      const target = formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)
      target?.focus()
    })
  }

  return (
    <div className="card p-5 sm:p-8">
      <Link
        to="/signup"
        className="-ml-2 mb-4 inline-flex min-h-11 items-center gap-1 rounded-full px-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
      >
        <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
          <path d="M12.7 4.3a1 1 0 0 1 0 1.4L8.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4l-5-5a1 1 0 0 1 0-1.4l5-5a1 1 0 0 1 1.4 0Z" />
        </svg>
        Back
      </Link>
      <Form
        ref={formRef}
        method="post"
        action={`/signup?creator=${creator ? 'yes' : 'no'}`}
        encType="multipart/form-data"
        noValidate
        onSubmit={validate}
        className="flex flex-col gap-5"
      >
        <input type="hidden" name="role" value={creator ? 'creator' : 'user'} />
        {formError ? (
          <Alert tone="error">{formError}</Alert>
        ) : serverErrorCount ? (
          <Alert tone="error">
            {serverErrorCount === 1 ? 'Please check the highlighted field.' : `Please check the ${serverErrorCount} highlighted fields.`}
          </Alert>
        ) : null}
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={values.username}
          hint="3–30 letters, numbers, dots, dashes or underscores. Shown on your videos."
          error={errors.username}
          required
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={values.email}
          error={errors.email}
          hint={
            accountExists ? (
              <Link to="/login" className="font-semibold text-brand-700 underline">
                Sign in instead
              </Link>
            ) : undefined
          }
          required
        />
        <NewPasswordField
          label="Password"
          name="password"
          error={errors.password}
          submittedStrength={clientErrors ? null : (actionData?.strength ?? null)}
          required
        />
        <TextField
          label="Confirm password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword}
          required
        />
        <SelectField
          label="Field of Interest"
          name="fieldOfInterest"
          defaultValue={values.fieldOfInterest}
          placeholder="Choose a field (optional)"
          options={FIELDS_OF_INTEREST.map((field) => ({ value: field, label: field }))}
          error={errors.fieldOfInterest}
        />
        {creator ? (
          <>
            <SelectField
              label="Concentration"
              name="concentration"
              defaultValue={values.concentration}
              placeholder="Choose a concentration (optional)"
              options={CONCENTRATIONS.map((concentration) => ({ value: concentration, label: concentration }))}
              error={errors.concentration}
            />
            <TextAreaField
              label="Bio"
              name="bio"
              rows={4}
              maxLength={500}
              defaultValue={values.bio}
              hint="A few lines about you and what you teach (up to 500 characters)."
              error={errors.bio}
            />
            <PortfolioField
              defaultType={values.portfolioType}
              typeError={errors.portfolioType}
              fileError={errors.portfolio}
              chooseAgain={Boolean(actionData?.hadFile) && !clientErrors}
            />
            <CategoryChecklist defaultChecked={values.categories} error={errors.categories} />
          </>
        ) : null}
        <SubmitButton className="mt-1 h-12 w-full text-base" pendingLabel="Creating your account…">
          {creator ? 'Create Account and Apply' : 'Create Account'}
        </SubmitButton>
      </Form>
    </div>
  )
}

export const meta: MetaFunction = () => [
  { title: 'Sign up — Lumen' },
  { name: 'description', content: 'Create your Lumen account: learn from short sparks and long-form lessons, or apply as a creator.' },
]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Sign-up is unavailable"
      message={AUTH_MESSAGES.signupFailed}
      action={{ href: '/signup', label: 'Start again' }}
    />
  )
}
