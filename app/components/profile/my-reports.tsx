import { Link } from '@remix-run/react'
import type { MyReport } from '~/lib/creator-types'
import { formatDate } from '~/lib/format'

const STATUS = {
  pending: {
    label: 'Pending review',
    tone: 'bg-amber-50 text-amber-900 ring-amber-200',
    outcome: 'Our team has not reviewed it yet.',
  },
  reviewed: {
    label: 'Reviewed',
    tone: 'bg-brand-50 text-brand-800 ring-brand-200',
    outcome: 'An admin reviewed it and kept the content.',
  },
  dismissed: {
    label: 'Dismissed',
    tone: 'bg-ink-100 text-ink-700 ring-ink-200',
    outcome: 'An admin found nothing against the rules.',
  },
  removed: {
    label: 'Removed',
    tone: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
    outcome: 'An admin removed the content.',
  },
} as const

const KIND = { video: 'Video', quote: 'Quote', comment: 'Comment' } as const

/** Profile, My Reports: what the caller reported and each report's outcome. */
export function MyReports({ reports }: { reports: MyReport[] }) {
  if (reports.length === 0) {
    return (
      <div className="card px-6 py-12 text-center">
        <p className="text-lg font-semibold text-ink-900">No reports</p>
        <p className="text-body mt-1">Content you report appears here with what our team decided.</p>
      </div>
    )
  }
  return (
    <ul className="flex flex-col gap-3" aria-label="Your reports">
      {reports.map((report) => {
        const status = STATUS[report.status]
        return (
          <li key={report.id} className="card p-4" data-report={report.id}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm font-semibold text-ink-900">
                {KIND[report.contentType]}:{' '}
                {report.label ? (
                  report.href ? (
                    <Link to={report.href} className="text-brand-700 hover:underline">
                      {report.label}
                    </Link>
                  ) : (
                    report.label
                  )
                ) : (
                  <span className="text-ink-600">no longer available</span>
                )}
              </p>
              <span
                className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${status.tone}`}
                data-testid="report-status"
              >
                {status.label}
              </span>
            </div>
            <p className="text-caption mt-1">
              Reason: {report.reason}
              {report.details ? ` — ${report.details}` : ''} · reported {formatDate(report.createdAt)}
              {report.reviewedAt ? ` · decided ${formatDate(report.reviewedAt)}` : ''}
            </p>
            <p className="mt-1 text-sm text-ink-700">{status.outcome}</p>
          </li>
        )
      })}
    </ul>
  )
}
