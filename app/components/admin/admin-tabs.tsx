import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Alert } from '~/components/ui/alert'
import { ADMIN_TAB_LABELS, ADMIN_TABS, adminTabPath, type AdminTab } from '~/lib/schemas/admin'

/**
 * The console's sections as links (`/admin`, `/admin/reports`, … — a route each), so each can be opened,
 * linked and reloaded without JavaScript; the current one is marked with
 * aria-current. Two by two on a phone, one row on wider screens.
 */
export function AdminTabs({ current }: { current: AdminTab | undefined }) {
  return (
    <nav aria-label="Admin sections">
      <ul className="grid grid-cols-2 gap-1 rounded-3xl bg-white p-1 ring-1 ring-ink-200/80 sm:flex sm:rounded-full">
        {ADMIN_TABS.map((tab) => (
          <li key={tab}>
            <Link
              to={adminTabPath(tab)}
              aria-current={tab === current ? 'page' : undefined}
              className={`flex min-h-11 items-center justify-center whitespace-nowrap rounded-full px-4 text-sm font-semibold transition-colors ${
                tab === current ? 'bg-brand-600 text-white' : 'text-ink-700 hover:bg-ink-100'
              }`}
            >
              {ADMIN_TAB_LABELS[tab]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

const badgeTones = {
  neutral: 'bg-ink-100 text-ink-700 ring-ink-200',
  brand: 'bg-brand-50 text-brand-800 ring-brand-200',
  success: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  warning: 'bg-amber-50 text-amber-900 ring-amber-200',
  danger: 'bg-red-50 text-red-800 ring-red-200',
} as const

export type BadgeTone = keyof typeof badgeTones

/** A small status label (role, verification, report status). */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${badgeTones[tone]}`}
    >
      {children}
    </span>
  )
}

/** A tab that could not load: its own message (docs/product.md, Rules and messages), the console still usable. */
export function AdminLoadError({ message }: { message: string }) {
  return (
    <Alert tone="error" title={message}>
      Please try again in a moment.
    </Alert>
  )
}

/** The empty state of a tab: a quiet card with one sentence. */
export function EmptyPanel({ title, message }: { title: string; message: string }) {
  return (
    <div className="card px-6 py-12 text-center">
      <p className="text-lg font-semibold text-ink-900">{title}</p>
      <p className="text-body mt-1">{message}</p>
    </div>
  )
}
