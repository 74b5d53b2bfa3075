import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { PathIcon } from '~/components/icons'
import { StatusCard } from '~/components/status-card'
import { Page, PageHeader } from '~/components/ui/page'
import { thumbnailUrl } from '~/lib/media-urls'
import { formatCompact, formatDate, formatNumber } from '~/lib/format'
import { creatorDashboard, type RecentUpload } from '~/server/dashboard.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { browserSupabaseUrl } from '~/server/supabase.server'

/**
 * /dashboard, opened after sign-up for everyone: creators and admins see
 * their numbers and their content; a learner gets a welcome with where to
 * go next instead of an error.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, claims, headers } = await requireUser(request, context)
  if (user.role === 'user') {
    return jsonWithHeaders({ kind: 'learner' as const, username: user.username }, 200, headers)
  }
  const { stats, recentUploads } = await creatorDashboard(claims)
  return jsonWithHeaders(
    {
      kind: 'creator' as const,
      username: user.username,
      pendingVerification: user.role === 'creator' && !user.isVerified,
      stats,
      recentUploads: recentUploads.map(({ thumbnailPath, ...video }) => ({
        ...video,
        thumbnailUrl: thumbnailUrl(browserSupabaseUrl(), thumbnailPath),
      })),
    },
    200,
    headers,
  )
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>()
  if (data.kind === 'learner') return <LearnerDashboard username={data.username} />
  const { stats, recentUploads } = data
  return (
    <Page>
      <PageHeader
        title="Creator Dashboard"
        subtitle={`Welcome back, ${data.username}. Here is how your content is doing.`}
        actions={
          <Link to="/upload" className="btn-primary">
            <PathIcon path={icons.plus} />
            Upload New Content
          </Link>
        }
      />
      <section aria-label="Your numbers">
        <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <StatCard label="Total Videos" value={stats.totalVideos} icon={icons.video} tone="bg-brand-50 text-brand-600" />
          <StatCard label="Total Views" value={stats.totalViews} icon={icons.eye} tone="bg-sky-50 text-sky-600" />
          <StatCard label="Total Likes" value={stats.totalLikes} icon={icons.heart} tone="bg-rose-50 text-rose-600" />
          <StatCard label="Total Comments" value={stats.totalComments} icon={icons.comment} tone="bg-emerald-50 text-emerald-600" />
        </ul>
      </section>
      <section aria-labelledby="your-content" className="mt-10">
        <h2 id="your-content" className="text-heading">
          Your Content
        </h2>
        {recentUploads.length === 0 ? (
          <EmptyContent pendingVerification={data.pendingVerification} />
        ) : (
          <ul className="mt-4 grid gap-3 sm:gap-4 md:grid-cols-2 xl:grid-cols-3">
            {recentUploads.map((video) => (
              <UploadCard key={video.id} video={video} />
            ))}
          </ul>
        )}
      </section>
    </Page>
  )
}

function StatCard({ label, value, icon, tone }: { label: string; value: number; icon: string; tone: string }) {
  return (
    <li className="card flex flex-col gap-3 p-4 sm:p-5">
      <span className={`inline-flex h-10 w-10 items-center justify-center rounded-xl ${tone}`}>
        <PathIcon path={icon} />
      </span>
      <div>
        <p className="text-caption">{label}</p>
        <p className="text-2xl font-bold tracking-tight text-ink-900" title={formatNumber(value)}>
          {formatCompact(value)}
        </p>
      </div>
    </li>
  )
}

function EmptyContent({ pendingVerification }: { pendingVerification: boolean }) {
  return (
    <div className="card mt-4 flex flex-col items-center px-6 py-12 text-center">
      <span className="inline-flex h-14 w-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
        <PathIcon path={icons.video} className="h-7 w-7" />
      </span>
      <p className="text-heading mt-4">No content yet</p>
      <p className="text-body mt-1 max-w-sm">
        {pendingVerification
          ? 'Once an admin verifies your account, your lessons and sparks will show up here.'
          : 'Share your first lesson or spark — it will show up here with its views, likes and comments.'}
      </p>
      <Link to="/upload" className="btn-primary mt-6">
        Upload Now
      </Link>
    </div>
  )
}

const statusLabels: Record<RecentUpload['status'], { text: string; tone: string }> = {
  ready: { text: 'Published', tone: 'bg-emerald-50 text-emerald-700 ring-emerald-200' },
  processing: { text: 'Processing', tone: 'bg-sky-50 text-sky-700 ring-sky-200' },
  uploading: { text: 'Uploading', tone: 'bg-sky-50 text-sky-700 ring-sky-200' },
  failed: { text: 'Failed', tone: 'bg-red-50 text-red-700 ring-red-200' },
}

type UploadCardVideo = Omit<RecentUpload, 'thumbnailPath'> & { thumbnailUrl: string | null }

function UploadCard({ video }: { video: UploadCardVideo }) {
  const status = statusLabels[video.status]
  return (
    <li className="card flex gap-4 p-3">
      <div className="relative aspect-video w-28 shrink-0 self-start overflow-hidden rounded-xl bg-gradient-to-br from-brand-100 to-brand-200 sm:w-32">
        {video.thumbnailUrl ? (
          <img src={video.thumbnailUrl} alt="" loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <span className="flex h-full w-full items-center justify-center text-brand-500">
            <PathIcon path={video.type === 'spark' ? icons.spark : icons.video} className="h-6 w-6" />
          </span>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <Link to={`/video/${video.id}`} className="block rounded font-semibold leading-snug text-ink-900 hover:text-brand-700">
          <span className="line-clamp-2 break-words">{video.title}</span>
        </Link>
        <p className="text-caption mt-1 flex flex-wrap items-center gap-x-1.5 gap-y-1">
          <span className={`rounded-full px-2 py-px text-xs font-semibold ring-1 ring-inset ${status.tone}`}>{status.text}</span>
          <span>
            {video.type === 'spark' ? 'Spark' : 'Video'}
            {video.isPublic ? '' : ' · Private'} ·{' '}
            {formatDate(video.createdAt)}
          </span>
        </p>
        <dl className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-ink-600">
          <Metric label="Views" value={video.views} />
          <Metric label="Likes" value={video.likes} />
          <Metric label="Comments" value={video.comments} />
        </dl>
      </div>
    </li>
  )
}

function Metric({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex gap-1">
      <dt>{label}</dt>
      <dd className="font-semibold text-ink-900">{formatCompact(value)}</dd>
    </div>
  )
}

function LearnerDashboard({ username }: { username: string }) {
  return (
    <Page>
      <PageHeader title={`Welcome to Lumen, ${username}!`} subtitle="Your account is ready. Here is where to start learning." />
      <ul className="grid gap-4 sm:grid-cols-3">
        <NextStep to="/feed" title="Explore the feed" icon={icons.video} tone="bg-brand-50 text-brand-600">
          Long-form lessons from verified educators, sorted by subject.
        </NextStep>
        <NextStep to="/sparks" title="Watch sparks" icon={icons.spark} tone="bg-spark-300/30 text-spark-600">
          Ideas in under a minute. Swipe through them as reels.
        </NextStep>
        <NextStep to="/creators" title="Discover creators" icon={icons.people} tone="bg-emerald-50 text-emerald-600">
          Find educators you like and follow them.
        </NextStep>
      </ul>
      <p className="text-body mt-8">
        You can see your account any time on your{' '}
        <Link to="/profile" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          profile
        </Link>
        .
      </p>
    </Page>
  )
}

function NextStep({ to, title, icon, tone, children }: { to: string; title: string; icon: string; tone: string; children: ReactNode }) {
  return (
    <li>
      <Link to={to} className="card group flex h-full flex-col gap-3 p-5 transition-shadow hover:shadow-lg">
        <span className={`inline-flex h-11 w-11 items-center justify-center rounded-xl ${tone}`}>
          <PathIcon path={icon} />
        </span>
        <span className="text-heading group-hover:text-brand-700">{title}</span>
        <span className="text-body">{children}</span>
      </Link>
    </li>
  )
}

const icons = {
  plus: 'M12 5v14M5 12h14',
  video: 'M4 6a1 1 0 0 1 1-1h14a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6Zm6 3v6l5-3-5-3Z',
  eye: 'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z',
  heart: 'M12 20s-7-4.5-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.5-7 10-7 10Z',
  comment: 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12Z',
  spark: 'M13 2 4 14h7l-1 8 9-12h-7l1-8Z',
  people: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 9a6 6 0 0 1 12 0m1-9a3 3 0 1 0 0-6m2 15h3a5 5 0 0 0-4-5',
}

export const meta: MetaFunction = () => [{ title: 'Dashboard — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Dashboard unavailable"
      message="Failed to load dashboard data. Please try again in a moment."
      action={{ href: '/dashboard', label: 'Try again' }}
    />
  )
}
