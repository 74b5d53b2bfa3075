import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigate } from '@remix-run/react'
import { useEffect, useState, type FormEvent } from 'react'
import { BrandMark } from '~/components/brand-mark'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { TextField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import { AUTH_MESSAGES, emailOnlySchema, fieldErrors, signinSchema, type FieldErrors } from '~/lib/schemas/auth'
import { isEmailRegistered, requestPasswordReset, signIn } from '~/server/accounts.server'
import { badRequest, jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { getSession, safeRedirect } from '~/server/session.server'
import { createSupabaseServerClient } from '~/server/supabase.server'

/**
 * Sign-in, with the in-place reset form (spec §2, §4): `/login` signs in,
 * `/login?mode=reset` asks for a reset link. One form per mode, each a real
 * form; the sign-in form's 'Check if account exists' button submits the same
 * email with another intent. `redirectTo` says where to go after signing in.
 */
const LINK_PROBLEMS = {
  'link-expired': 'This password reset link is invalid or has expired. Please request a new one.',
  'no-session': 'To set a new password, open the link in your reset email. If it has expired, request a new one here.',
} as const

function loginUrl(redirectTo: string | null, mode?: 'reset') {
  const query = new URLSearchParams()
  if (mode) query.set('mode', mode)
  if (redirectTo) query.set('redirectTo', redirectTo)
  const search = query.toString()
  return search ? `/login?${search}` : '/login'
}

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

type LoginActionData =
  | { intent: 'signin'; errors: FieldErrors; formError: string | null; email: string }
  | { intent: 'check'; errors: FieldErrors; email: string; registered: boolean | null; formError: string | null }
  | { intent: 'reset'; errors: FieldErrors; email: string; sent: boolean; formError: string | null }

export async function action({ request, context }: ActionFunctionArgs) {
  const { supabase, headers } = createSupabaseServerClient(request, context)
  const form = await request.formData()
  const intent = form.get('intent')
  const email = String(form.get('email') ?? '').slice(0, 320)

  if (intent === 'check' || intent === 'reset') {
    const parsed = emailOnlySchema.safeParse({ email })
    const base = { errors: {}, email, formError: null }
    const fail = (data: Partial<LoginActionData>, status = 400) =>
      jsonWithHeaders<LoginActionData>(
        intent === 'check'
          ? { ...base, registered: null, ...data, intent: 'check' }
          : { ...base, sent: false, ...data, intent: 'reset' },
        status,
        headers,
      )
    if (!parsed.success) return fail({ errors: fieldErrors(parsed.error) })
    if (intent === 'check') {
      const check = await isEmailRegistered(parsed.data.email, context.clientIp)
      if (!check.ok) return fail({ formError: check.message }, 429)
      return jsonWithHeaders<LoginActionData>({ ...base, intent, registered: check.exists }, 200, headers)
    }
    const result = await requestPasswordReset(supabase, parsed.data.email)
    if (!result.ok) return fail({ errors: result.fieldErrors ?? {}, formError: result.message ?? null })
    return jsonWithHeaders<LoginActionData>({ ...base, intent, sent: true }, 200, headers)
  }

  const parsed = signinSchema.safeParse({
    email,
    password: form.get('password') ?? '',
    redirectTo: form.get('redirectTo') ?? undefined,
  })
  if (!parsed.success) {
    return badRequest<LoginActionData>({ intent: 'signin', errors: fieldErrors(parsed.error), formError: null, email }, headers)
  }
  const result = await signIn(supabase, parsed.data)
  if (!result.ok) {
    return badRequest<LoginActionData>({ intent: 'signin', errors: {}, formError: result.message ?? AUTH_MESSAGES.loginFailed, email }, headers)
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

/** The sign-in screen describes Lumen as a reels-style learning product (spec §1). */
function ProductPitch() {
  return (
    <section
      aria-label="About Lumen"
      className="relative isolate overflow-hidden rounded-card bg-ink-950 px-5 py-6 text-white sm:px-8 sm:py-10 lg:order-first"
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(30rem_18rem_at_10%_-10%,theme(colors.brand.700/.6),transparent),radial-gradient(24rem_16rem_at_100%_120%,theme(colors.spark.500/.3),transparent)]"
      />
      <div className="flex items-center gap-3">
        <BrandMark className="h-10 w-10" />
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-200">Reels for learning</p>
      </div>
      <p className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">Scroll less. Learn more.</p>
      <p className="mt-3 text-ink-300">
        Lumen turns your scrolling into learning: swipe through sparks, lessons under a minute, and go deeper with
        long-form videos from verified educators.
      </p>
      <ul className="mt-5 hidden gap-2 text-sm text-ink-200 sm:grid">
        <li className="flex items-center gap-2">
          <span className="h-1.5 w-1.5 rounded-full bg-spark-400" aria-hidden="true" />
          Full-screen, vertical sparks you swipe like reels
        </li>
        <li className="flex items-center gap-2">
          <span className="h-1.5 w-1.5 rounded-full bg-spark-400" aria-hidden="true" />
          Like, quote and follow the creators you learn from
        </li>
      </ul>
    </section>
  )
}

function SignInForm({ redirectTo }: { redirectTo: string | null }) {
  const actionData = useActionData<typeof action>()
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null)
  const server = actionData?.intent === 'signin' || actionData?.intent === 'check' ? actionData : null
  const errors: FieldErrors = clientErrors ?? server?.errors ?? {}
  const check = actionData?.intent === 'check' && !clientErrors ? actionData : null

  // With JavaScript, the same schemas check the form first; which one depends on the button.
  function validate(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
    const form = new FormData(event.currentTarget)
    const parsed =
      submitter?.value === 'check'
        ? emailOnlySchema.safeParse({ email: form.get('email') })
        : signinSchema.safeParse({ email: form.get('email'), password: form.get('password') })
    if (parsed.success) {
      setClientErrors(null)
      return
    }
    event.preventDefault()
    setClientErrors(fieldErrors(parsed.error))
  }

  return (
    <>
      <h1 className="text-title">Sign in</h1>
      <p className="text-body mt-1">Welcome back. Pick up where you left off.</p>
      <Form method="post" action={loginUrl(redirectTo)} noValidate onSubmit={validate} className="mt-6 flex flex-col gap-5">
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        {server?.formError && !clientErrors ? <Alert tone="error">{server.formError}</Alert> : null}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={server?.email ?? ''}
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
      <p className="mt-6 text-center text-sm text-ink-600">
        <Link to="/signup" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          Need an account? Sign up
        </Link>
      </p>
    </>
  )
}

/** Back to sign-in this long after the reset link was sent (spec §4, §9). */
const RESET_RETURN_MS = 3000

function ResetForm({ redirectTo, linkProblem }: { redirectTo: string | null; linkProblem: string | null }) {
  const actionData = useActionData<typeof action>()
  const navigate = useNavigate()
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null)
  const server = actionData?.intent === 'reset' ? actionData : null
  const errors: FieldErrors = clientErrors ?? server?.errors ?? {}
  const sent = Boolean(server?.sent) && !clientErrors

  useEffect(() => {
    if (!sent) return
    const timer = window.setTimeout(() => navigate(loginUrl(redirectTo), { replace: true }), RESET_RETURN_MS)
    return () => window.clearTimeout(timer)
  }, [sent, navigate, redirectTo])

  function validate(event: FormEvent<HTMLFormElement>) {
    const parsed = emailOnlySchema.safeParse({ email: new FormData(event.currentTarget).get('email') })
    if (parsed.success) {
      setClientErrors(null)
      return
    }
    event.preventDefault()
    setClientErrors(fieldErrors(parsed.error))
  }

  return (
    <>
      <h1 className="text-title">Reset your password</h1>
      <p className="text-body mt-1">Enter your email and we’ll send you a link to set a new password.</p>
      <Form
        method="post"
        action={loginUrl(redirectTo, 'reset')}
        noValidate
        onSubmit={validate}
        className="mt-6 flex flex-col gap-5"
      >
        {linkProblem && !server ? <Alert tone="error">{linkProblem}</Alert> : null}
        {sent ? <Alert tone="success">{AUTH_MESSAGES.resetSent}</Alert> : null}
        {server?.formError && !clientErrors ? <Alert tone="error">{server.formError}</Alert> : null}
        <TextField
          // Opened on purpose to type an email: start there.
          autoFocus
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={server?.email ?? ''}
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
    </>
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
