import { Link } from '@remix-run/react'
import { DASHBOARD_RANGES, DASHBOARD_TABS, type DashboardRange, type DashboardTab } from '~/lib/schemas/dashboard'

const LABELS: Record<DashboardTab, string> = { overview: 'Overview', videos: 'Videos', engagement: 'Engagement' }

/** The dashboard's tabs as links (`/dashboard?tab=…`): each opens, reloads and links without JavaScript. */
export function DashboardTabs({ current, days }: { current: DashboardTab; days: DashboardRange }) {
  return (
    <nav aria-label="Dashboard sections" className="mt-8">
      <ul className="inline-flex gap-1 rounded-full bg-white p-1 ring-1 ring-ink-200/80">
        {DASHBOARD_TABS.map((tab) => (
          <li key={tab}>
            <Link
              to={`/dashboard?tab=${tab}${days === 7 ? '' : `&days=${days}`}`}
              aria-current={tab === current ? 'page' : undefined}
              preventScrollReset
              className={`flex min-h-11 items-center rounded-full px-4 text-sm font-semibold transition-colors ${
                tab === current ? 'bg-brand-600 text-white' : 'text-ink-700 hover:bg-ink-100'
              }`}
            >
              {LABELS[tab]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** 7 / 28 / 90 days, as links keeping the rest of the query. */
export function RangePicker({ current, href }: { current: DashboardRange; href: (days: DashboardRange) => string }) {
  return (
    <nav aria-label="Time range">
      <ul className="inline-flex gap-1 rounded-full bg-ink-100 p-1 text-sm">
        {DASHBOARD_RANGES.map((days) => (
          <li key={days}>
            <Link
              to={href(days)}
              aria-current={days === current ? 'true' : undefined}
              preventScrollReset
              className={`flex min-h-9 items-center rounded-full px-3 font-semibold ${days === current ? 'bg-white text-ink-900 shadow-sm' : 'text-ink-600 hover:text-ink-900'}`}
            >
              {days} days
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
