import type { AuditEntry } from '~/lib/admin-types'
import { formatDate } from '~/lib/format'

const ACTION_LABELS: Record<string, string> = {
  'application.approved': 'approved creator',
  'application.rejected': 'rejected creator',
  'category.approved': 'approved the category request',
  'category.rejected': 'rejected the category request',
  'report.reviewed': 'marked reviewed a report of',
  'report.dismissed': 'dismissed a report of',
  'report.removed': 'removed reported',
  'user.added': 'added user',
  'user.deleted': 'deleted user',
  'user.role_changed': 'changed the role of',
  'portfolios.fixed': 'ran Fix Portfolio Issues',
}

function detailText(entry: AuditEntry): string | null {
  const { details } = entry
  if (entry.action === 'user.role_changed') return `${String(details.from)} → ${String(details.to)}`
  if (entry.action === 'portfolios.fixed') return `${String(details.fixedCount ?? 0)} fixed`
  if (typeof details.review_notes === 'string' && details.review_notes) return `“${details.review_notes}”`
  if (entry.action === 'user.added' || entry.action === 'user.deleted')
    return typeof details.role === 'string' ? details.role : null
  return null
}

/** The audit trail (admins read it; Postgres writes it): newest first. */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  return (
    <section aria-labelledby="audit-title" className="mt-10">
      <h3 id="audit-title" className="text-heading">
        Audit trail
      </h3>
      <p className="text-caption mt-1">Every admin action, recorded by the database. Rows cannot be edited or deleted.</p>
      {entries.length === 0 ? (
        <p className="card mt-4 px-6 py-8 text-center text-ink-700">No admin actions yet.</p>
      ) : (
        <ol className="card mt-4 divide-y divide-ink-100">
          {entries.map((entry) => {
            const detail = detailText(entry)
            return (
              <li
                key={entry.id}
                className="flex flex-col gap-0.5 px-4 py-3 text-sm sm:flex-row sm:items-baseline sm:justify-between sm:gap-4"
              >
                <p className="min-w-0 text-ink-800">
                  <span className="font-semibold text-ink-900">{entry.actor ?? 'A deleted admin'}</span>{' '}
                  {ACTION_LABELS[entry.action] ?? entry.action}
                  {entry.targetLabel ? <span className="font-semibold text-ink-900"> {entry.targetLabel}</span> : null}
                  {detail ? <span className="text-ink-600"> · {detail}</span> : null}
                </p>
                <time dateTime={entry.createdAt} className="shrink-0 text-ink-500">
                  {formatDate(entry.createdAt)}
                </time>
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}
