import { Link } from '@remix-run/react'
import type { DailyPoint, DashboardStats, DashboardVideo, PlatformDay } from '~/lib/dashboard-types'
import { formatCount, formatNumber } from '~/lib/format'
import { VIDEO_SORTS, type DashboardRange, type VideoSort } from '~/lib/schemas/dashboard'
import { BarChart, dayLabels, LineChart } from './charts'
import { formatShare, formatWatchTime } from './stat-cards'
import { RangePicker } from './tabs'

function perDay<T extends { date: string }>(daily: T[], value: (day: T) => number) {
  return daily.map((day) => ({ ...dayLabels(day.date), value: value(day) }))
}

/** Overview: views, likes and watch time per day in the creator's time zone. */
export function OverviewPanel({
  stats,
  days,
}: {
  stats: Pick<DashboardStats, 'daily' | 'timeZone' | 'totalWatchSeconds'>
  days: DashboardRange
}) {
  const total = (key: keyof Omit<DailyPoint, 'date'>) => stats.daily.reduce((sum, day) => sum + day[key], 0)
  return (
    <div className="mt-4 space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-caption">
          Last {days} days, by day in {stats.timeZone}. Watch time in all: {formatWatchTime(stats.totalWatchSeconds)}.
        </p>
        <RangePicker current={days} href={(d) => `/dashboard?tab=overview${d === 7 ? '' : `&days=${d}`}`} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <LineChart
          title="Views over time"
          description={`${formatCount(total('views'), 'view')} in the last ${days} days`}
          points={perDay(stats.daily, (d: DailyPoint) => d.views)}
          valueLabel="Views"
          format={formatNumber}
          testId="views-chart"
        />
        <LineChart
          title="Likes over time"
          description={`${formatCount(total('likes'), 'like')} in the last ${days} days`}
          points={perDay(stats.daily, (d: DailyPoint) => d.likes)}
          valueLabel="Likes"
          format={formatNumber}
          testId="likes-chart"
        />
        <LineChart
          title="Watch time"
          description={`${formatWatchTime(total('watchSeconds'))} watched in the last ${days} days (minutes per day)`}
          points={perDay(stats.daily, (d: DailyPoint) => Math.round(d.watchSeconds / 6) / 10)}
          valueLabel="Minutes watched"
          counts={false}
          testId="watch-chart"
        />
      </div>
    </div>
  )
}

/** An admin's platform overview: new users, uploads and views per day. */
export function PlatformPanel({ daily, timeZone, days }: { daily: PlatformDay[]; timeZone: string; days: number }) {
  return (
    <section aria-labelledby="platform" className="mt-10">
      <h2 id="platform" className="text-heading">
        Platform overview
      </h2>
      <p className="text-caption mt-1">
        Everyone on Lumen, last {days} days by day in {timeZone}.
      </p>
      <div className="mt-4 grid gap-4 lg:grid-cols-3">
        <LineChart
          title="New users"
          description="Accounts created per day"
          points={perDay(daily, (d: PlatformDay) => d.users)}
          valueLabel="New users"
        />
        <LineChart
          title="Uploads"
          description="Videos and sparks created per day"
          points={perDay(daily, (d: PlatformDay) => d.uploads)}
          valueLabel="Uploads"
        />
        <LineChart
          title="Views"
          description="Views counted per day"
          points={perDay(daily, (d: PlatformDay) => d.views)}
          valueLabel="Views"
        />
      </div>
    </section>
  )
}

const SORT_LABELS: Record<VideoSort, string> = {
  views: 'Views',
  likes: 'Likes',
  comments: 'Comments',
  watch: 'Watch time',
  retention: 'Share watched',
  newest: 'Newest',
}

/** Videos: the popular list from real data, sortable by links, and a chart of views per video. */
export function VideosPanel({ videos, sort }: { videos: DashboardVideo[]; sort: VideoSort }) {
  if (videos.length === 0)
    return <p className="text-body card mt-4 p-6">No videos yet: once you upload, each one's figures show here.</p>
  const top = videos.slice(0, 10)
  return (
    <div className="mt-4 space-y-4">
      <BarChart
        title="Views per video"
        description={`Your ${top.length === 1 ? 'video' : `top ${top.length} videos`} by ${SORT_LABELS[sort].toLowerCase()}`}
        points={top.map((video) => ({ label: video.title, detail: video.title, value: video.views }))}
        valueLabel="Views"
        format={formatNumber}
        testId="videos-chart"
      />
      <div className="card overflow-x-auto">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <caption className="sr-only">Your videos, sorted by {SORT_LABELS[sort].toLowerCase()}</caption>
          <thead>
            <tr className="text-ink-600">
              <th scope="col" className="px-4 py-3 font-semibold">
                Video
              </th>
              {VIDEO_SORTS.filter((key) => key !== 'newest').map((key) => (
                <th
                  key={key}
                  scope="col"
                  className="px-3 py-3 text-right font-semibold"
                  aria-sort={key === sort ? 'descending' : undefined}
                >
                  <Link
                    to={`/dashboard?tab=videos&sort=${key}`}
                    preventScrollReset
                    className={key === sort ? 'text-brand-700 underline' : 'hover:text-brand-700'}
                  >
                    {SORT_LABELS[key]}
                  </Link>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {videos.map((video) => (
              <tr key={video.id} className="border-t border-ink-100">
                <th scope="row" className="max-w-xs px-4 py-2 font-normal">
                  <Link
                    to={`/dashboard/videos/${video.id}`}
                    className="line-clamp-2 font-semibold text-ink-900 hover:text-brand-700"
                  >
                    {video.title}
                  </Link>
                  <span className="text-caption">{video.type === 'spark' ? 'Spark' : 'Video'}</span>
                </th>
                <td className="px-3 py-2 text-right tabular-nums">{formatNumber(video.views)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatNumber(video.likes)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatNumber(video.comments)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatWatchTime(video.watchSeconds)}</td>
                <td className="px-3 py-2 text-right tabular-nums">
                  {video.avgShareWatched === null ? '—' : formatShare(video.avgShareWatched)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-caption">
        Sort by{' '}
        <Link to="/dashboard?tab=videos&sort=newest" className="font-semibold text-brand-700 hover:underline">
          newest
        </Link>{' '}
        or by a column. Open a video for its views over time and audience retention.
      </p>
    </div>
  )
}

/** Engagement: averages per video, rates per 100 views, and videos by category. */
export function EngagementPanel({ stats }: { stats: DashboardStats }) {
  const figures: Array<[string, string]> = [
    ['Average views per video', formatNumber(stats.avgViewsPerVideo)],
    ['Average likes per video', formatNumber(stats.avgLikesPerVideo)],
    ['Average comments per video', formatNumber(stats.avgCommentsPerVideo)],
    ['Likes per 100 views', formatNumber(stats.likesPer100Views)],
    ['Comments per 100 views', formatNumber(stats.commentsPer100Views)],
    ['Most popular category', stats.mostPopularCategory ?? 'None yet'],
  ]
  return (
    <div className="mt-4 space-y-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {figures.map(([label, value]) => (
          <div key={label} className="card p-4">
            <dt className="text-caption">{label}</dt>
            <dd className="mt-1 text-xl font-bold text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      {stats.videosByCategory.length ? (
        <BarChart
          title="Videos by category"
          description="How many videos you have in each category"
          points={stats.videosByCategory.map((c) => ({
            label: c.name,
            detail: `${c.name} (${formatCount(c.views, 'view')})`,
            value: c.videos,
          }))}
          valueLabel="Videos"
          format={formatNumber}
          testId="category-chart"
        />
      ) : null}
    </div>
  )
}
