import { Form } from '@remix-run/react'
import { TextAreaField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import type { PendingApplication } from '~/lib/admin-types'
import { formatDate } from '~/lib/format'
import { ADMIN_MESSAGES } from '~/lib/schemas/admin'
import { Badge, EmptyPanel } from './admin-tabs'

const PORTFOLIO_LABELS = { video: 'Demo Video', image: 'Portfolio Image', document: 'Document/CV' } as const

/**
 * Pending Creators: one card per application with everything the spec lists
 * (username, email, bio, concentration, field of interest, requested
 * categories, applied date, portfolio), approve or reject with optional notes.
 */
export function PendingCreators({ applications }: { applications: PendingApplication[] }) {
  if (applications.length === 0) {
    return <EmptyPanel title="No pending creators" message="New creator applications will show up here." />
  }
  return (
    <ul className="grid gap-4 lg:grid-cols-2">
      {applications.map((application) => (
        <li key={application.id}>
          <ApplicationCard application={application} />
        </li>
      ))}
    </ul>
  )
}

function ApplicationCard({ application }: { application: PendingApplication }) {
  const headingId = `application-${application.id}`
  return (
    <article aria-labelledby={headingId} className="card flex h-full flex-col p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="text-lg font-semibold text-ink-900">
            {application.username}
          </h3>
          <p className="break-all text-sm text-ink-600">{application.email ?? 'Email unavailable'}</p>
        </div>
        <Badge tone="warning">Applied {formatDate(application.appliedAt)}</Badge>
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
        <Detail term="Concentration" value={application.concentration} />
        <Detail term="Field of interest" value={application.fieldOfInterest} />
        <div className="sm:col-span-2">
          <dt className="font-medium text-ink-500">Bio</dt>
          <dd className="mt-0.5 whitespace-pre-line text-ink-800">{application.bio || 'No bio yet.'}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="font-medium text-ink-500">Requested categories</dt>
          <dd className="mt-1 flex flex-wrap gap-1.5">
            {application.categories.length === 0 ? <span className="text-ink-600">None chosen</span> : null}
            {application.categories.map((category) => (
              <Badge key={category.id} tone={category.status === 'approved' ? 'success' : category.status === 'rejected' ? 'danger' : 'brand'}>
                {category.name}
              </Badge>
            ))}
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="font-medium text-ink-500">Portfolio</dt>
          <dd className="mt-0.5">
            {application.hasPortfolio ? (
              <a
                href={`/admin/portfolio/${application.creatorId}`}
                target="_blank"
                rel="noopener noreferrer"
                className="font-semibold text-brand-700 underline-offset-2 hover:underline"
              >
                Open {application.portfolioType ? PORTFOLIO_LABELS[application.portfolioType] : 'portfolio'}
                <span className="sr-only"> of {application.username} (opens in a new tab)</span>
              </a>
            ) : (
              <span className="text-ink-600">{ADMIN_MESSAGES.noPortfolio}</span>
            )}
          </dd>
        </div>
      </dl>
      <Form method="post" className="mt-5 flex flex-1 flex-col justify-end gap-3 border-t border-ink-100 pt-4">
        <input type="hidden" name="intent" value="review" />
        <input type="hidden" name="tab" value="creators" />
        <input type="hidden" name="applicationId" value={application.id} />
        <TextAreaField label="Review notes (optional)" name="reviewNotes" maxLength={2000} rows={2} className="[&_textarea]:min-h-16" />
        <div className="flex flex-wrap gap-2">
          <SubmitButton name="approved" value="true" pendingLabel="Approving…">
            Approve {application.username}
          </SubmitButton>
          <SubmitButton name="approved" value="false" variant="secondary" pendingLabel="Rejecting…">
            Reject
          </SubmitButton>
        </div>
      </Form>
    </article>
  )
}

function Detail({ term, value }: { term: string; value: string | null }) {
  return (
    <div>
      <dt className="font-medium text-ink-500">{term}</dt>
      <dd className="mt-0.5 text-ink-800">{value ?? 'Not given'}</dd>
    </div>
  )
}
