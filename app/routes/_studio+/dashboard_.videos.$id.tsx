import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from '@remix-run/react'
import { CheckpointStatsTable } from '~/components/checkpoints/checkpoint-stats'
import { dayLabels, LineChart } from '~/components/dashboard/charts'
import { formatShare, formatWatchTime } from '~/components/dashboard/stat-cards'
import { RangePicker } from '~/components/dashboard/tabs'
import { StatusCard } from '~/components/status-card'
import { Page, PageHeader } from '~/components/ui/page'
import { formatCount, formatDate, formatDuration, formatNumber } from '~/lib/format'
import { DASHBOARD_MESSAGES, readDashboardQuery } from '~/lib/schemas/dashboard'
import { checkpointStats } from '~/server/checkpoints.server'
import { videoInsight } from '~/server/dashboard.server'
import { isDomainError } from '~/server/errors.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'

/**
 * /dashboard/videos/:id?days=7|28|90 — one video's insight for its creator
 * (or an admin): views and likes per day, watch time, and the audience
 * retention curve (the share of plays that reached each tenth of the video,
 * from the player's progress reports). Server-rendered charts with data tables.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const { days } = readDashboardQuery(new URL(request.url).searchParams)
  try {
    const insight = await videoInsight(claims, params.id ?? '', { days })
    return jsonWithHeaders({ insight, checkpoints: await checkpointStats(claims, insight.id) }, 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw new Response(error.message, { status: error.status, headers })
    throw error
  }
}

export default function VideoInsightPage() {
  const { insight, checkpoints } = useLoaderData<typeof loader>()
  const points = (value: (day: (typeof insight.daily)[number]) => number) =>
    insight.daily.map((day) => ({ ...dayLabels(day.date), value: value(day) }))
  const figures: Array<[string, string]> = [
    ['Views', formatNumber(insight.views)],
    ['Likes', formatNumber(insight.likes)],
    ['Comments', formatNumber(insight.comments)],
    ['Plays', formatNumber(insight.plays)],
    ['Watch time', formatWatchTime(insight.watchSeconds)],
    ['Length', insight.durationSeconds === null ? '—' : formatDuration(insight.durationSeconds)],
  ]
  return (
    <Page>
      <p className="mb-2 text-sm">
        <Link to="/dashboard?tab=videos" className="font-semibold text-brand-700 hover:underline">
          ← Back to your videos
        </Link>
      </p>
      <PageHeader
        title={insight.title}
        subtitle={`${insight.type === 'spark' ? 'Spark' : 'Video'} published ${formatDate(insight.createdAt)} · days in ${insight.timeZone}`}
        actions={
          <Link to={`/video/${insight.id}`} className="btn-secondary">
            Open video
          </Link>
        }
      />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {figures.map(([label, value]) => (
          <div key={label} className="card p-4">
            <dt className="text-caption">{label}</dt>
            <dd className="mt-1 text-xl font-bold text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 flex justify-end">
        <RangePicker
          current={insight.days as 7 | 28 | 90}
          href={(d) => `/dashboard/videos/${insight.id}${d === 7 ? '' : `?days=${d}`}`}
        />
      </div>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <LineChart
          title="Views over time"
          description={`Views per day, last ${insight.days} days`}
          points={points((d) => d.views)}
          valueLabel="Views"
          format={formatNumber}
        />
        <LineChart
          title="Likes over time"
          description={`Likes per day, last ${insight.days} days`}
          points={points((d) => d.likes)}
          valueLabel="Likes"
          format={formatNumber}
        />
      </div>
      <div className="mt-4">
        <LineChart
          title="Audience retention"
          description={
            insight.plays > 0
              ? `Share of the ${formatCount(insight.plays, 'play')} still watching at each tenth of the video`
              : 'No plays reported yet: the curve fills in as people watch'
          }
          points={insight.retention.map((point) => ({
            label: `${point.tenth * 10}%`,
            detail: `${point.tenth * 10}–${point.tenth * 10 + 10}% of the video`,
            value: point.share,
          }))}
          maxValue={1}
          counts={false}
          valueLabel="Share of plays"
          format={formatShare}
          testId="retention-chart"
        />
      </div>
      <CheckpointStatsTable videoId={insight.id} stats={checkpoints} />
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.insight.title ?? 'Video'} insights — Lumen` }]

export function ErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const message =
    isRouteErrorResponse(error) && typeof error.data === 'string' ? error.data : DASHBOARD_MESSAGES.loadFailed('please try again')
  return (
    <StatusCard
      title={status === 404 ? DASHBOARD_MESSAGES.videoNotFound : 'Insights unavailable'}
      message={message}
      action={{ href: '/dashboard?tab=videos', label: 'Back to your videos' }}
    />
  )
}
