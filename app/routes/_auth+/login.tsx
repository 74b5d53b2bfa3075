import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ProductPitch } from '~/components/login/product-pitch'
import { ResetForm } from '~/components/login/reset-form'
import { SignInForm } from '~/components/login/sign-in-form'
import { StatusCard } from '~/components/status-card'
import type { LoginActionData, LoginIntent, LoginValues } from '~/lib/login'
import { AUTH_MESSAGES, emailOnlySchema, fieldErrors, signinSchema, type FieldErrors } from '~/lib/schemas/auth'
import { isEmailRegistered, requestPasswordReset, signIn } from '~/server/accounts.server'
import { formFailure } from '~/server/http/domain-errors.server'
import { jsonWithHeaders, redirectWithHeaders, type HeaderSource } from '~/server/http/responses.server'
import { getSession, safeRedirect } from '~/server/session.server'
import { createSupabaseServerClient } from '~/server/supabase.server'

/**
 * Sign-in, with the in-place reset form (docs/product.md, Screens; States): `/login` signs in,
 * `/login?mode=reset` asks for a reset link. One form per mode, each a real
 * form; the sign-in form's 'Check if account exists' button submits the same
 * email with another intent. `redirectTo` says where to go after signing in.
 */
const LINK_PROBLEMS = {
  'link-expired': 'This password reset link is invalid or has expired. Please request a new one.',
  'no-session': 'To set a new password, open the link in your reset email. If it has expired, request a new one here.',
} as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await getSession(request, context)
  const url = new URL(request.url)
  const redirectTo = url.searchParams.get('redirectTo')
  if (session.user) throw redirectWithHeaders(safeRedirect(redirectTo, '/profile'), session.headers)
  const problem = url.searchParams.get('error')
  return jsonWithHeaders(
    {
      mode: url.searchParams.get('mode') === 'reset' ? ('reset' as const) : ('signin' as const),
      redirectTo: redirectTo && safeRedirect(redirectTo, '') ? redirectTo : null,
      linkProblem: problem && problem in LINK_PROBLEMS ? LINK_PROBLEMS[problem as keyof typeof LINK_PROBLEMS] : null,
    },
    200,
    session.headers,
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { supabase, headers } = createSupabaseServerClient(request, context)
  const form = await request.formData()
  const intent = form.get('intent')
  const email = String(form.get('email') ?? '').slice(0, 320)

  const values: LoginValues = { email }

  if (intent === 'check' || intent === 'reset') {
    const parsed = emailOnlySchema.safeParse({ email })
    const fail = (failure: { formError?: string; fieldErrors?: FieldErrors }, status = 400) =>
      formFailure<LoginValues, { intent: LoginIntent }>({ ...failure, values, intent }, status, headers)
    if (!parsed.success) return fail({ fieldErrors: fieldErrors(parsed.error) })
    if (intent === 'check') {
      const check = await isEmailRegistered(parsed.data.email, context.clientIp)
      if (!check.ok) return fail({ formError: check.message }, 429)
      return jsonWithHeaders<LoginActionData>({ ok: true, intent, registered: check.exists, values }, 200, headers)
    }
    const result = await requestPasswordReset(supabase, parsed.data.email)
    if (!result.ok) {
      return fail({ fieldErrors: result.fieldErrors ?? {}, ...(result.message ? { formError: result.message } : {}) })
    }
    return jsonWithHeaders<LoginActionData>({ ok: true, intent, sent: true, values }, 200, headers)
  }

  const parsed = signinSchema.safeParse({
    email,
    password: form.get('password') ?? '',
    redirectTo: form.get('redirectTo') ?? undefined,
  })
  const signinFailure = (failure: { formError?: string; fieldErrors?: FieldErrors }, status: number, ...more: HeaderSource[]) =>
    formFailure<LoginValues, { intent: LoginIntent }>({ ...failure, values, intent: 'signin' }, status, headers, ...more)
  if (!parsed.success) return signinFailure({ fieldErrors: fieldErrors(parsed.error) }, 400)
  const result = await signIn(supabase, parsed.data)
  if (!result.ok) {
    const formError = result.message ?? AUTH_MESSAGES.loginFailed
    if (result.retryAfterSeconds) {
      return signinFailure({ formError }, 429, { 'Retry-After': String(result.retryAfterSeconds) })
    }
    return signinFailure({ formError }, 400)
  }
  return redirectWithHeaders(safeRedirect(parsed.data.redirectTo, '/profile'), headers)
}

export default function Login() {
  const { mode, redirectTo, linkProblem } = useLoaderData<typeof loader>()
  return (
    <div className="mx-auto grid w-full max-w-5xl flex-1 gap-6 px-4 pb-28 pt-6 sm:px-6 sm:pt-10 lg:grid-cols-[1fr_1.1fr] lg:items-center lg:gap-12">
      <div className="card w-full p-5 sm:p-8">
        {mode === 'reset' ? (
          <ResetForm key="reset" redirectTo={redirectTo} linkProblem={linkProblem} />
        ) : (
          <SignInForm key="signin" redirectTo={redirectTo} />
        )}
      </div>
      <ProductPitch />
    </div>
  )
}

export const meta: MetaFunction = () => [
  { title: 'Sign in — Lumen' },
  { name: 'description', content: 'Sign in to Lumen, the reels-style way to learn: sparks under a minute and long-form lessons.' },
]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Sign-in is unavailable"
      message="Something went wrong on our side. Please try again in a moment."
      action={{ href: '/login', label: 'Try again' }}
    />
  )
}
