import { Form, Link } from '@remix-run/react'
import { useState } from 'react'
import { Alert } from '~/components/ui/alert'
import { TextAreaField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import type { CategoryRequest, PendingApplication } from '~/lib/admin-types'
import { formatDate } from '~/lib/format'
import { ADMIN_MESSAGES } from '~/lib/schemas/admin'
import { Badge, EmptyPanel } from './admin-tabs'
import { ConfirmAction } from '~/components/ui/confirm-action'

const PORTFOLIO_LABELS = { video: 'Demo Video', image: 'Portfolio Image', document: 'Document/CV' } as const

/**
 * Pending Creators: one card per application with everything the spec lists
 * (username, email, bio, concentration, field of interest, requested
 * categories, applied date, portfolio), approve, or reject after confirming
 * (a dialog with JavaScript, `?confirm=<application id>` without); then the
 * verified creators' new category requests, each approved or rejected.
 */
export function PendingCreators({
  applications,
  categoryRequests,
  confirm,
  notes,
}: {
  applications: PendingApplication[]
  categoryRequests: CategoryRequest[]
  confirm: string | null
  notes: string
}) {
  const confirming = confirm ? applications.find((application) => application.id === confirm) : undefined
  return (
    <div className="space-y-8">
      {confirming ? <ConfirmReject application={confirming} notes={notes} /> : null}
      {applications.length === 0 ? (
        <EmptyPanel title="No pending creators" message="New creator applications will show up here." />
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Creator applications">
          {applications.map((application) => (
            <li key={application.id}>
              <ApplicationCard application={application} />
            </li>
          ))}
        </ul>
      )}
      <CategoryRequests requests={categoryRequests} />
    </div>
  )
}

const NOTES_LABEL = 'Review notes (optional)'

function ApplicationCard({ application }: { application: PendingApplication }) {
  const headingId = `application-${application.id}`
  const formId = `review-${application.id}`
  const [notes, setNotes] = useState('')
  const rejectLabel = (
    <>
      Reject…<span className="sr-only"> {application.username}</span>
    </>
  )
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
              <Badge
                key={category.id}
                tone={category.status === 'approved' ? 'success' : category.status === 'rejected' ? 'danger' : 'brand'}
              >
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
      <div className="mt-5 flex flex-1 flex-col justify-end gap-3 border-t border-ink-100 pt-4">
        <Form method="post" id={formId}>
          <input type="hidden" name="intent" value="review" />
          <input type="hidden" name="applicationId" value={application.id} />
          <TextAreaField
            label={NOTES_LABEL}
            name="reviewNotes"
            maxLength={2000}
            rows={2}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
            className="[&_textarea]:min-h-16"
          />
        </Form>
        <div className="flex flex-wrap gap-2">
          <SubmitButton form={formId} name="approved" value="true" pendingLabel="Approving…">
            Approve {application.username}
          </SubmitButton>
          <ConfirmAction
            label={rejectLabel}
            triggerClassName="btn-secondary"
            fallback={
              // Without JavaScript: the confirmation state of the page, carrying the notes typed so far.
              <button
                type="submit"
                form={formId}
                formMethod="get"
                name="confirm"
                value={application.id}
                className="btn-secondary"
              >
                {rejectLabel}
              </button>
            }
            title={`Reject ${application.username}?`}
            description={<RejectWarning application={application} />}
            fields={{ intent: 'review', applicationId: application.id }}
            extra={<TextAreaField label={NOTES_LABEL} name="reviewNotes" maxLength={2000} rows={3} defaultValue={notes} />}
            confirmName="approved"
            confirmValue="false"
            confirmLabel={`Yes, reject ${application.username}`}
            pendingLabel="Rejecting…"
          />
        </div>
      </div>
    </article>
  )
}

function RejectWarning({ application }: { application: PendingApplication }) {
  return (
    <p>
      {application.username} stays an unverified creator and cannot upload; they are told by email, with your notes. The
      application leaves this list.
    </p>
  )
}

function ConfirmReject({ application, notes }: { application: PendingApplication; notes: string }) {
  return (
    <Alert tone="warning" title={`Reject ${application.username}?`}>
      <RejectWarning application={application} />
      <Form method="post" className="mt-3 grid gap-3">
        <input type="hidden" name="intent" value="review" />
        <input type="hidden" name="applicationId" value={application.id} />
        <TextAreaField label={NOTES_LABEL} name="reviewNotes" maxLength={2000} rows={3} defaultValue={notes} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="approved" value="false" className="btn bg-red-600 text-white hover:bg-red-700">
            Yes, reject {application.username}
          </button>
          <Link to="/admin" className="btn-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </Alert>
  )
}

/** Verified creators asking for more categories: each request approved or rejected on its own. */
function CategoryRequests({ requests }: { requests: CategoryRequest[] }) {
  return (
    <section aria-labelledby="category-requests-title" className="space-y-3">
      <h3 id="category-requests-title" className="text-heading">
        New category requests
      </h3>
      {requests.length === 0 ? (
        <p className="text-body">No verified creator is waiting for a new category.</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {requests.map((request) => (
            <li key={request.creatorId}>
              <article aria-label={`Category requests of ${request.username}`} className="card p-5">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="text-lg font-semibold text-ink-900">{request.username}</span>
                  <Badge tone="success">Verified</Badge>
                </p>
                <p className="break-all text-sm text-ink-600">{request.email ?? 'Email unavailable'}</p>
                <ul className="mt-3 divide-y divide-ink-100 rounded-xl bg-ink-50 px-4">
                  {request.categories.map((category) => (
                    <li key={category.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                      <span className="text-sm">
                        <span className="font-semibold text-ink-900">{category.name}</span>
                        <span className="text-ink-600"> · asked {formatDate(category.requestedAt)}</span>
                      </span>
                      <Form method="post" className="flex gap-2">
                        <input type="hidden" name="intent" value="review-category" />
                        <input type="hidden" name="creatorId" value={request.creatorId} />
                        <input type="hidden" name="categoryId" value={category.id} />
                        <SubmitButton name="approved" value="true" pendingLabel="Approving…" className="min-h-10 px-3">
                          Approve
                          <span className="sr-only">
                            {' '}
                            {category.name} for {request.username}
                          </span>
                        </SubmitButton>
                        <SubmitButton
                          name="approved"
                          value="false"
                          variant="secondary"
                          pendingLabel="Rejecting…"
                          className="min-h-10 px-3"
                        >
                          Reject
                          <span className="sr-only">
                            {' '}
                            {category.name} for {request.username}
                          </span>
                        </SubmitButton>
                      </Form>
                    </li>
                  ))}
                </ul>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
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
