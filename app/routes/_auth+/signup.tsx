import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { RoleQuestion } from '~/components/signup/role-question'
import { SignupForm } from '~/components/signup/signup-form'
import { StatusCard } from '~/components/status-card'
import { passwordStrength } from '~/lib/password-strength'
import {
  AUTH_MESSAGES,
  fieldErrors as fieldErrorsOf,
  signupEcho,
  signupFormValues,
  signupSchema,
  type FieldErrors,
  type SignupEcho,
} from '~/lib/schemas/auth'
import type { SignupFailure } from '~/lib/signup'
import { signUp } from '~/server/accounts.server'
import { isDomainError } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { receiveSignupForm, type ReceivedSignupForm } from '~/server/http/forms.server'
import { formFailure } from '~/server/http/domain-errors.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
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

/** Sign-up's own addition to the one form failure: the refused password's strength, for the meter. */
type Strength = Pick<SignupFailure, 'strength'>

export async function action({ request, context }: ActionFunctionArgs) {
  const { supabase, headers } = createSupabaseServerClient(request, context)
  let received: ReceivedSignupForm
  try {
    received = await receiveSignupForm(request)
  } catch (error) {
    if (!isDomainError(error)) throw error
    return formFailure<SignupEcho, Strength>(
      { formError: error.message, values: signupEcho(signupFormValues(new FormData(), null)), hadFile: false, strength: null },
      error.status,
      headers,
    )
  }
  try {
    const values = signupFormValues(received.form, received.portfolio?.info ?? null)
    const failure = (fieldErrors: FieldErrors, formError: string | null = null) =>
      formFailure<SignupEcho, Strength>(
        {
          fieldErrors,
          ...(formError ? { formError } : {}),
          values: signupEcho(values),
          hadFile: Boolean(received.portfolio),
          strength: values.password ? passwordStrength(values.password) : null,
        },
        400,
        headers,
      )

    const parsed = signupSchema.safeParse(values)
    if (!parsed.success) {
      // The service's own answer to a missing username, email or password (docs/product.md, Rules and messages).
      const missing = !values.username.trim() || !values.email.trim() || !values.password
      return failure(fieldErrorsOf(parsed.error), missing ? AUTH_MESSAGES.fillRequired : null)
    }
    const result = await signUp(supabase, parsed.data, received.portfolio)
    if (!result.ok) return failure(result.fieldErrors ?? {}, result.message ?? null)
    if (!result.signedIn) {
      return redirectWithFlash('/login', { kind: 'info', message: 'Your account is ready. Please sign in.' }, headers)
    }
    const welcome = `Welcome to Lumen, ${result.username}!`
    // One message, once (docs/product.md, Rules and messages): a learner's dashboard is headed with the welcome itself,
    // so no toast repeats it; a creator's is not, and its pending banner already says the review waits.
    if (parsed.data.role !== 'creator') return redirect('/dashboard', { headers })
    return redirectWithFlash(
      '/dashboard',
      result.portfolioStored
        ? { kind: 'success', message: welcome }
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
        <h1 className="text-title">
          {step === 'creator' ? 'Apply as a creator' : step === 'learner' ? 'Join as a learner' : 'Create your Lumen account'}
        </h1>
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

export const meta: MetaFunction = () => [
  { title: 'Sign up — Lumen' },
  {
    name: 'description',
    content: 'Create your Lumen account: learn from short sparks and long-form lessons, or apply as a creator.',
  },
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
