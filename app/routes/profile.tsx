import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { MyQuotesPanel, type MyQuotesActionData } from '~/components/profile/my-quotes'
import { StatusCard } from '~/components/status-card'
import { Page } from '~/components/ui/page'
import { VerificationRequiredPanel } from '~/components/verification-required-panel'
import { ROLE_LABELS, UserAvatar, type ShellRole } from '~/components/user-avatar'
import { CheckStatusForm } from '~/components/verification-banner'
import { avatarUrl } from '~/lib/media-urls'
import type { UserQuote } from '~/lib/quote-types'
import { QUOTE_MESSAGES } from '~/lib/schemas/quote'
import { field } from '~/lib/schemas/video'
import { isDomainError } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { deleteQuote, listMyQuotes } from '~/server/quotes.server'
import { browserSupabaseUrl } from '~/server/supabase.server'

/**
 * The signed-in user's own profile (opened after sign-in). This issue ships
 * the profile card; editing and the Liked Videos / Following / My Quotes tabs
 * come with their features.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, claims, headers } = await requireUser(request, context)
  // Upload sends unverified creators here with ?verification=required (spec section 2, Upload).
  const url = new URL(request.url)
  const verificationRequired = url.searchParams.get('verification') === 'required' && user.role === 'creator' && !user.isVerified
  // My Quotes (?tab=quotes): a failed read shows 'Failed to load your quotes', not an error page.
  const tab = url.searchParams.get('tab') === 'quotes' ? 'quotes' : 'profile'
  let quotes: UserQuote[] = []
  let quotesError: string | null = null
  if (tab === 'quotes') {
    try {
      quotes = await listMyQuotes(claims)
    } catch (error) {
      console.warn('[profile] could not list quotes:', error instanceof Error ? error.message : error)
      quotesError = QUOTE_MESSAGES.loadQuotesFailed
    }
  }
  return jsonWithHeaders(
    {
      verificationRequired,
      tab,
      quotes,
      quotesError,
      profile: {
        username: user.username,
        email: user.email,
        role: user.role,
        isVerified: user.isVerified,
        avatarUrl: avatarUrl(browserSupabaseUrl(), user.avatarPath),
      },
    },
    200,
    headers,
  )
}

/**
 * My Quotes' delete (`intent=delete-quote`): scripted posts get data back,
 * plain ones go back to the tab with a flash. Refusals keep the spec's
 * words ('You can only delete your own quotes', 'Quote not found'); anything
 * else is 'Failed to delete quote'.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const form = await request.formData()
  const scripted = form.get('js') === '1'
  const back = '/profile?tab=quotes#my-quotes'
  const reply = (body: MyQuotesActionData, status: number) => jsonWithHeaders<MyQuotesActionData>(body, status, headers)
  if (field(form, 'intent') !== 'delete-quote') return reply({ ok: false, intent: 'delete-quote', error: QUOTE_MESSAGES.deleteFailed }, 400)
  try {
    const message = await deleteQuote(claims, field(form, 'quoteId') ?? '')
    return scripted
      ? reply({ ok: true, intent: 'delete-quote', message }, 200)
      : redirectWithFlash(back, { kind: 'success', message }, headers)
  } catch (error) {
    const status = isDomainError(error) ? error.status : 500
    const message = isDomainError(error) ? error.message : QUOTE_MESSAGES.deleteFailed
    if (!isDomainError(error)) console.warn('[profile] could not delete a quote:', error instanceof Error ? error.message : error)
    return scripted
      ? reply({ ok: false, intent: 'delete-quote', error: message }, status)
      : redirectWithFlash(back, { kind: 'error', message }, headers)
  }
}

export default function Profile() {
  const { profile, verificationRequired, tab, quotes, quotesError } = useLoaderData<typeof loader>()
  return (
    <Page width="narrow">
      <h1 className="sr-only">Your profile</h1>
      {verificationRequired ? (
        <div className="mb-6">
          <VerificationRequiredPanel />
        </div>
      ) : null}
      <section aria-label="Profile card" className="card overflow-hidden">
        <div aria-hidden="true" className="h-24 bg-gradient-to-br from-brand-600 via-brand-700 to-ink-900" />
        <div className="px-6 pb-6">
          <div className="-mt-10 flex items-end justify-between gap-4">
            <UserAvatar user={profile} size="lg" label={`Profile picture of ${profile.username}`} />
            <Form method="post" action="/logout">
              <button type="submit" className="btn-secondary min-h-10 px-4">
                Logout
              </button>
            </Form>
          </div>
          <div className="mt-4 flex flex-wrap items-center gap-2">
            <p className="text-title break-all">{profile.username}</p>
            <RoleBadge role={profile.role} />
          </div>
          <dl className="mt-4 grid gap-3 text-sm">
            <div>
              <dt className="text-caption">Email</dt>
              <dd className="break-all font-medium text-ink-900">{profile.email}</dd>
            </div>
            <div>
              <dt className="text-caption">Account type</dt>
              <dd className="font-medium text-ink-900">{ROLE_LABELS[profile.role]}</dd>
            </div>
          </dl>
          {profile.role === 'creator' ? <VerificationStatus verified={profile.isVerified} /> : null}
        </div>
      </section>
      {/* The tabs come with the profile issue; My Quotes is one of them (?tab=quotes). */}
      <nav aria-label="Profile sections" className="mt-6 flex gap-2">
        <Link to="/profile" className={tab === 'profile' ? 'btn-primary' : 'btn-secondary'} aria-current={tab === 'profile' ? 'page' : undefined}>
          Profile
        </Link>
        <Link
          to="/profile?tab=quotes"
          className={tab === 'quotes' ? 'btn-primary' : 'btn-secondary'}
          aria-current={tab === 'quotes' ? 'page' : undefined}
        >
          My Quotes
        </Link>
      </nav>
      {tab === 'quotes' ? <MyQuotesPanel quotes={quotes} error={quotesError} /> : null}
    </Page>
  )
}

const badgeTones: Record<ShellRole, string> = {
  user: 'bg-ink-100 text-ink-700 ring-ink-200',
  creator: 'bg-brand-50 text-brand-700 ring-brand-200',
  admin: 'bg-spark-300/30 text-ink-900 ring-spark-400/60',
}

function RoleBadge({ role }: { role: ShellRole }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${badgeTones[role]}`}>
      {ROLE_LABELS[role]}
    </span>
  )
}

/** Creators see whether an admin has verified them, and can ask again (spec: Profile, Refresh). */
function VerificationStatus({ verified }: { verified: boolean }) {
  return (
    <div
      className={`mt-5 flex flex-wrap items-center justify-between gap-3 rounded-xl px-4 py-3 ring-1 ring-inset ${
        verified ? 'bg-emerald-50 ring-emerald-200' : 'bg-spark-300/15 ring-spark-400/50'
      }`}
    >
      <div>
        <p className="text-sm font-semibold text-ink-900">Verification status</p>
        <p className="text-sm text-ink-700" data-testid="verification-status">
          {verified ? 'Verified creator — you can upload content.' : 'Pending review by an admin.'}
        </p>
      </div>
      {verified ? null : <CheckStatusForm label="Refresh" />}
    </div>
  )
}

export const meta: MetaFunction = () => [{ title: 'Your profile — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Profile unavailable"
      message="We could not load your profile. Please try again in a moment."
      action={{ href: '/profile', label: 'Try again' }}
    />
  )
}
