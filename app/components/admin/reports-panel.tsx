import { Form, Link } from '@remix-run/react'
import { Alert } from '~/components/ui/alert'
import { SubmitButton } from '~/components/ui/submit-button'
import type { ReportGroup } from '~/lib/admin-types'
import { REPORT_REASONS } from '~/lib/catalog'
import { formatCount, formatDate, truncate } from '~/lib/format'
import { REPORT_STATUSES, type ReportStatus } from '~/lib/schemas/admin'
import { Badge, EmptyPanel, type BadgeTone } from './admin-tabs'
import { ConfirmAction } from '~/components/ui/confirm-action'

const STATUS_TONES: Record<ReportStatus, BadgeTone> = {
  pending: 'warning',
  reviewed: 'brand',
  dismissed: 'neutral',
  removed: 'danger',
}
const STATUS_LABELS: Record<ReportStatus | 'all', string> = {
  pending: 'Pending',
  reviewed: 'Reviewed',
  dismissed: 'Dismissed',
  removed: 'Removed',
  all: 'All',
}
const TYPE_LABELS = { video: 'Video', quote: 'Quote', comment: 'Comment' } as const

function reasonLabel(id: string): string {
  return REPORT_REASONS.find((reason) => reason.id === id)?.label ?? id
}

/**
 * Reports, one card per reported item (count, every reason and reporter, the
 * content as it is now), filtered by status in the URL. Mark reviewed and
 * dismiss post at once; remove first asks on a confirmation state of the page
 * (`?confirm=<content id>`), which works without JavaScript.
 */
export function ReportsPanel({
  groups,
  status,
  confirm,
}: {
  groups: ReportGroup[]
  status: ReportStatus | 'all'
  confirm: string | null
}) {
  const confirming = confirm ? groups.find((group) => group.contentId === confirm && group.pendingCount > 0) : undefined
  return (
    <div className="space-y-4">
      <nav aria-label="Filter reports by status" className="flex flex-wrap gap-2">
        {[...REPORT_STATUSES, 'all' as const].map((value) => (
          <Link
            key={value}
            to={`/admin/reports?status=${value}`}
            aria-current={value === status ? 'page' : undefined}
            className={`inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold ring-1 ring-inset ${
              value === status ? 'bg-ink-900 text-white ring-ink-900' : 'bg-white text-ink-700 ring-ink-200 hover:bg-ink-100'
            }`}
          >
            {STATUS_LABELS[value]}
          </Link>
        ))}
      </nav>
      {confirming ? <ConfirmRemoval group={confirming} status={status} /> : null}
      {groups.length === 0 ? (
        <EmptyPanel
          title={status === 'pending' ? 'No pending reports' : 'No reports here'}
          message={status === 'pending' ? 'Nothing needs your attention right now.' : 'No report has this status.'}
        />
      ) : (
        <ul className="grid gap-4">
          {groups.map((group) => (
            <li key={`${group.contentType}:${group.contentId}`}>
              <ReportCard group={group} status={status} />
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function ReportCard({ group, status }: { group: ReportGroup; status: ReportStatus | 'all' }) {
  const headingId = `report-${group.contentId}`
  const { content } = group
  return (
    <article aria-labelledby={headingId} className="card p-5">
      <div className="flex flex-col gap-4 sm:flex-row">
        {content.thumbnailUrl ? (
          <img src={content.thumbnailUrl} alt="" className="aspect-video w-full rounded-xl bg-ink-100 object-cover sm:w-44" />
        ) : null}
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone="neutral">{TYPE_LABELS[group.contentType]}</Badge>
            <Badge tone={STATUS_TONES[group.status]}>{STATUS_LABELS[group.status]}</Badge>
            <span className="text-caption">{formatCount(group.count, 'report')}</span>
          </div>
          <h3 id={headingId} className="mt-2 text-base font-semibold text-ink-900">
            {content.label ? truncate(content.label, 160) : 'This content has been removed'}
          </h3>
          {content.author ? <p className="text-sm text-ink-600">by {content.author}</p> : null}
          {content.href ? (
            <Link to={content.href} className="mt-1 inline-block text-sm font-semibold text-brand-700 hover:underline">
              View {TYPE_LABELS[group.contentType].toLowerCase()}
            </Link>
          ) : null}
        </div>
      </div>
      <ul className="mt-4 divide-y divide-ink-100 rounded-xl bg-ink-50 px-4" aria-label="Reports of this content">
        {group.reports.map((report) => (
          <li key={report.id} className="py-3 text-sm">
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="font-semibold text-ink-900">{reasonLabel(report.reason)}</span>
              <span className="text-ink-600">
                · {report.reporter ?? 'deleted user'} · {formatDate(report.createdAt)}
              </span>
              {report.status !== 'pending' ? (
                <Badge tone={STATUS_TONES[report.status]}>{STATUS_LABELS[report.status]}</Badge>
              ) : null}
            </p>
            {report.details ? <p className="mt-1 whitespace-pre-line text-ink-700">{report.details}</p> : null}
          </li>
        ))}
      </ul>
      {group.pendingCount > 0 ? (
        <div className="mt-4 flex flex-wrap gap-2">
          <Form method="post" className="contents">
            <DecisionFields group={group} status={status} />
            <SubmitButton name="status" value="reviewed" variant="secondary">
              Mark reviewed
            </SubmitButton>
            <SubmitButton name="status" value="dismissed" variant="secondary">
              Dismiss
            </SubmitButton>
          </Form>
          <RemoveAction group={group} status={status} />
        </div>
      ) : null}
    </article>
  )
}

function RemoveAction({ group, status }: { group: ReportGroup; status: ReportStatus | 'all' }) {
  const kind = TYPE_LABELS[group.contentType].toLowerCase()
  const label = <>Remove {kind}…</>
  const look = 'btn bg-red-600 text-white hover:bg-red-700'
  return (
    <ConfirmAction
      label={label}
      triggerClassName={look}
      fallback={
        <Link to={`/admin/reports?status=${status}&confirm=${group.contentId}`} className={look}>
          {label}
        </Link>
      }
      title={`Remove this ${kind}?`}
      description={<RemovalWarning group={group} />}
      fields={{
        intent: 'decide-report',
        filter: status,
        contentType: group.contentType,
        contentId: group.contentId,
      }}
      confirmName="status"
      confirmValue="removed"
      confirmLabel={`Yes, remove ${kind}`}
      pendingLabel="Removing…"
    />
  )
}

function RemovalWarning({ group }: { group: ReportGroup }) {
  const kind = TYPE_LABELS[group.contentType].toLowerCase()
  return (
    <p>
      “{truncate(group.content.label ?? kind, 120)}” will be deleted for everyone, with its files, and all{' '}
      {formatCount(group.pendingCount, 'open report')} will be marked removed. This cannot be undone.
    </p>
  )
}

function DecisionFields({ group, status }: { group: ReportGroup; status: ReportStatus | 'all' }) {
  return (
    <>
      <input type="hidden" name="intent" value="decide-report" />
      <input type="hidden" name="filter" value={status} />
      <input type="hidden" name="contentType" value={group.contentType} />
      <input type="hidden" name="contentId" value={group.contentId} />
    </>
  )
}

function ConfirmRemoval({ group, status }: { group: ReportGroup; status: ReportStatus | 'all' }) {
  const kind = TYPE_LABELS[group.contentType].toLowerCase()
  return (
    <Alert tone="warning" title={`Remove this ${kind}?`}>
      <RemovalWarning group={group} />
      <Form method="post" className="mt-3 flex flex-wrap gap-2">
        <DecisionFields group={group} status={status} />
        <button type="submit" name="status" value="removed" className="btn bg-red-600 text-white hover:bg-red-700">
          Yes, remove {kind}
        </button>
        <Link to={`/admin/reports?status=${status}`} className="btn-secondary">
          Cancel
        </Link>
      </Form>
    </Alert>
  )
}
