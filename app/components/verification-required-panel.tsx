import { ShieldIcon } from '~/components/icons'
import { CheckStatusForm } from './verification-banner'

/**
 * Where an unverified creator lands after trying to upload (docs/product.md,
 * Upload): why they cannot yet, and a Refresh Status button that re-reads
 * their account (a real form, app/routes/_auth+/account.check-status.tsx) and comes
 * back here with the answer. Shown on /profile?verification=required.
 */
export function VerificationRequiredPanel() {
  return (
    <section
      aria-labelledby="verification-required-title"
      data-testid="verification-required"
      className="card overflow-hidden ring-spark-400/50"
    >
      <div className="flex gap-4 bg-spark-300/15 p-5 sm:p-6">
        <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-spark-300/40 text-spark-600">
          <ShieldIcon />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="verification-required-title" className="text-heading text-ink-900">
            Account Verification Required
          </h2>
          <p className="text-body mt-1">
            Uploading is open to verified creators. An admin is reviewing your portfolio and categories; once they
            approve your account, the Upload page opens for you.
          </p>
          <ul className="mt-3 flex flex-col gap-1.5 text-sm text-ink-700">
            <li className="flex gap-2">
              <Dot /> Refresh Status checks whether an admin has approved you yet.
            </li>
            <li className="flex gap-2">
              <Dot /> Meanwhile you can watch, like, comment and quote videos.
            </li>
          </ul>
          <CheckStatusForm label="Refresh Status" className="mt-4" />
        </div>
      </div>
    </section>
  )
}

function Dot() {
  return <span aria-hidden="true" className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-spark-500" />
}
