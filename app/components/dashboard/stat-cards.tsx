import { DASHBOARD_ICON_PATHS as icons, PathIcon } from '~/components/icons'
import type { DashboardStats } from '~/lib/dashboard-types'
import { formatCompact, formatNumber } from '~/lib/format'

/** The four stat cards (docs/product.md: Creator dashboard), each with what the last 7 days added. */
export function StatCards({
  stats,
}: {
  stats: Pick<DashboardStats, 'totalVideos' | 'totalViews' | 'totalLikes' | 'totalComments' | 'change'>
}) {
  return (
    <section aria-label="Your numbers">
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard
          label="Total Videos"
          value={stats.totalVideos}
          change={stats.change.videos}
          icon={icons.video}
          tone="bg-brand-50 text-brand-600"
        />
        <StatCard
          label="Total Views"
          value={stats.totalViews}
          change={stats.change.views}
          icon={icons.eye}
          tone="bg-sky-50 text-sky-600"
        />
        <StatCard
          label="Total Likes"
          value={stats.totalLikes}
          change={stats.change.likes}
          icon={icons.heart}
          tone="bg-rose-50 text-rose-600"
        />
        <StatCard
          label="Total Comments"
          value={stats.totalComments}
          change={stats.change.comments}
          icon={icons.comment}
          tone="bg-emerald-50 text-emerald-600"
        />
      </ul>
    </section>
  )
}

function StatCard({
  label,
  value,
  change,
  icon,
  tone,
}: {
  label: string
  value: number
  change: number
  icon: string
  tone: string
}) {
  const slug = label.toLowerCase().replace(/\s+/g, '-')
  return (
    <li className="card flex flex-col gap-3 p-4 sm:p-5" data-testid={`stat-${slug}`}>
      <span className={`inline-flex h-10 w-10 items-center justify-center rounded-xl ${tone}`}>
        <PathIcon path={icon} />
      </span>
      <div>
        <p className="text-caption">{label}</p>
        <p
          className="text-2xl font-bold tracking-tight text-ink-900"
          title={formatNumber(value)}
          data-testid={`stat-${slug}-value`}
          data-value={value}
        >
          {formatCompact(value)}
        </p>
        <p className={`mt-0.5 text-xs font-semibold ${change > 0 ? 'text-emerald-700' : 'text-ink-500'}`}>
          {change > 0 ? '+' : ''}
          {formatNumber(change)} <span className="font-normal">in the last 7 days</span>
        </p>
      </div>
    </li>
  )
}

/** "1 h 5 min", "12 min", "40 s" — watch time at a glance. */
export function formatWatchTime(seconds: number): string {
  const total = Math.round(seconds)
  if (total < 60) return `${total} s`
  const minutes = Math.round(total / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  return `${formatNumber(hours)} h ${minutes % 60} min`
}

/** 0.734 → "73%". */
export function formatShare(share: number): string {
  return `${Math.round(share * 100)}%`
}
