import { Form, useLocation, useNavigation } from '@remix-run/react'
import { ClockIcon } from '~/components/icons'
import { Spinner } from './ui/spinner'

/** Where the Check Status and Refresh buttons post (app/routes/_auth+/account.check-status.tsx). */
export const CHECK_STATUS_ACTION = '/account/check-status'

/**
 * For creators an admin has not verified yet (docs/product.md, States, Creator
 * verification): uploads wait for the review. Check Status re-reads the
 * account and comes back here with the answer.
 */
export function VerificationBanner() {
  return (
    <section
      aria-labelledby="verification-banner-title"
      className="border-b border-spark-400/40 bg-spark-300/15"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6">
        <span className="hidden h-9 w-9 shrink-0 items-center justify-center rounded-full bg-spark-300/40 text-spark-600 sm:inline-flex">
          <ClockIcon />
        </span>
        <div className="min-w-0 flex-1 basis-56">
          <h2 id="verification-banner-title" className="text-sm font-semibold text-ink-900">
            Your creator account is pending verification
          </h2>
          <p className="text-sm text-ink-700">
            An admin is reviewing your portfolio. You can upload content as soon as you are verified.
          </p>
        </div>
        <CheckStatusForm label="Check Status" />
      </div>
    </section>
  )
}

/** A real form (works without JavaScript) that asks for the account's current status and returns here. */
export function CheckStatusForm({ label, className = '' }: { label: string; className?: string }) {
  const location = useLocation()
  const navigation = useNavigation()
  const checking = navigation.state !== 'idle' && navigation.formAction === CHECK_STATUS_ACTION
  return (
    <Form method="post" action={CHECK_STATUS_ACTION} className={className} preventScrollReset>
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <button type="submit" className="btn-secondary min-h-10 px-4" aria-disabled={checking || undefined}>
        {checking ? <Spinner label="Checking status" className="h-4 w-4" /> : null}
        {label}
      </button>
    </Form>
  )
}
