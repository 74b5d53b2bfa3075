import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, isRouteErrorResponse, Link, useFetcher, useLoaderData, useRouteError } from '@remix-run/react'
import { useEffect } from 'react'
import { CheckpointEngagement } from '~/components/checkpoints/checkpoint-engagement'
import { CourseFunnels } from '~/components/dashboard/course-funnels'
import { LearnerDashboard } from '~/components/dashboard/learner'
import { EngagementPanel, OverviewPanel, PlatformPanel, VideosPanel } from '~/components/dashboard/panels'
import { StatCards } from '~/components/dashboard/stat-cards'
import { DashboardTabs } from '~/components/dashboard/tabs'
import { YourContent } from '~/components/dashboard/your-content'
import { DASHBOARD_ICON_PATHS as icons, PathIcon } from '~/components/icons'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Page, PageHeader } from '~/components/ui/page'
import { thumbnailUrl } from '~/lib/media-urls'
import { DASHBOARD_MESSAGES, readDashboardQuery } from '~/lib/schemas/dashboard'
import { dashboardStats, dashboardVideos, platformOverview, recentUploads, setTimeZone } from '~/server/dashboard.server'
import { listCourseFunnels } from '~/server/course-progress.server'
import { isDomainError } from '~/server/errors.server'
import { flashFailure } from '~/server/http/domain-errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { browserSupabaseUrl } from '~/server/supabase.server'
import { deleteVideo } from '~/server/videos.server'
import { creatorCheckpointStats } from '~/server/checkpoints.server'

/**
 * /dashboard?tab=overview|videos|engagement&days=7|28|90&sort=… — opened
 * after sign-up for everyone. Creators and admins see their stat cards (with
 * the last 7 days' change), the tab in the URL (each works without
 * JavaScript; charts are server-rendered SVG with data tables), and Your
 * Content; an admin also sees the platform overview. A learner gets a
 * getting-started page instead of an error.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, claims, headers } = await requireUser(request, context)
  if (user.role === 'user') return jsonWithHeaders({ kind: 'learner' as const, username: user.username }, 200, headers)
  const query = readDashboardQuery(new URL(request.url).searchParams)
  try {
    const [stats, uploads, videos, platform, checkpoints, courses] = await Promise.all([
      dashboardStats(claims, user.id, { days: query.days }),
      recentUploads(claims),
      query.tab === 'videos' ? dashboardVideos(claims, user.id, query.sort) : null,
      user.role === 'admin' && query.tab === 'overview' ? platformOverview(claims, { days: query.days }) : null,
      query.tab === 'engagement' ? creatorCheckpointStats(claims) : null,
      query.tab === 'overview' ? listCourseFunnels(claims) : [], // Your courses' funnels (ADR 0048)
    ])
    const supabaseUrl = browserSupabaseUrl()
    return jsonWithHeaders(
      {
        kind: 'creator' as const,
        username: user.username,
        pendingVerification: user.role === 'creator' && !user.isVerified,
        query,
        stats,
        videos,
        platform,
        checkpoints,
        courses,
        uploads: uploads.map(({ thumbnailPath, ...video }) => ({
          ...video,
          thumbnailUrl: thumbnailUrl(supabaseUrl, thumbnailPath),
        })),
      },
      200,
      headers,
    )
  } catch (error) {
    if (isDomainError(error)) throw new Response(error.message, { status: error.status, headers })
    throw error
  }
}

/** Deleting one of Your Content (asked first), and the time zone the days are counted in. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const form = await request.formData()
  const intent = form.get('intent')
  const back = '/dashboard'
  try {
    if (intent === 'delete') {
      const message = await deleteVideo(claims, String(form.get('id') ?? ''))
      return redirectWithFlash(back, { kind: 'success', message }, headers)
    }
    if (intent === 'time-zone') {
      const timeZone = await setTimeZone(claims, form.get('timeZone'))
      if (form.get('js') === '1') return jsonWithHeaders({ ok: true, timeZone }, 200, headers)
      return redirectWithFlash(back, { kind: 'success', message: `Days are now counted in ${timeZone}` }, headers)
    }
    return jsonWithHeaders({ ok: false }, 400, headers)
  } catch (error) {
    if (isDomainError(error)) return flashFailure(error, back, headers)
    throw error
  }
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>()
  if (data.kind === 'learner') return <LearnerDashboard username={data.username} />
  const { stats, query } = data
  return (
    <Page>
      <PageHeader
        title="Creator Dashboard"
        subtitle={`Welcome back, ${data.username}. Here is how your content is doing.`}
        actions={
          <>
            <Link to="/courses" className="btn-secondary">
              Courses
            </Link>
            <Link to="/upload" className="btn-primary">
              <PathIcon path={icons.plus} />
              Upload New Content
            </Link>
          </>
        }
      />
      <StatCards stats={stats} />
      <DashboardTabs current={query.tab} days={query.days} />
      <section aria-label={`${query.tab[0]!.toUpperCase()}${query.tab.slice(1)}`}>
        {query.tab === 'overview' ? <OverviewPanel stats={stats} days={query.days} /> : null}
        {query.tab === 'videos' && data.videos ? <VideosPanel videos={data.videos} sort={query.sort} /> : null}
        {query.tab === 'engagement' ? <EngagementPanel stats={stats} /> : null}
        {query.tab === 'engagement' && data.checkpoints ? <CheckpointEngagement videos={data.checkpoints} /> : null}
      </section>
      <CourseFunnels courses={data.courses} />
      {data.platform ? <PlatformPanel {...data.platform} /> : null}
      <YourContent uploads={data.uploads} pendingVerification={data.pendingVerification} />
      <TimeZoneSetting current={stats.timeZone} />
    </Page>
  )
}

/**
 * The time zone the days are counted in. With JavaScript, a creator still on
 * the default (UTC) is moved to their browser's zone once; without, a form.
 */
function TimeZoneSetting({ current }: { current: string }) {
  const fetcher = useFetcher()
  useEffect(() => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone
    if (current === 'UTC' && browser && browser !== 'UTC' && fetcher.state === 'idle' && !fetcher.data) {
      fetcher.submit({ intent: 'time-zone', timeZone: browser, js: '1' }, { method: 'post' })
    }
  }, [current, fetcher])
  return (
    <details className="mt-8 text-sm">
      <summary className="text-caption cursor-pointer">Days are counted in {current}. Change the time zone</summary>
      <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="time-zone" />
        <label className="flex flex-col gap-1">
          <span className="font-semibold text-ink-800">Time zone (for example Europe/Berlin)</span>
          <input
            name="timeZone"
            defaultValue={current}
            className="block rounded-xl border-0 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm ring-1 ring-inset ring-ink-300 focus:ring-2 focus:ring-inset focus:ring-brand-600"
            autoComplete="off"
          />
        </label>
        <button type="submit" className="btn-secondary">
          Save
        </button>
      </Form>
    </details>
  )
}

export const meta: MetaFunction = () => [{ title: 'Dashboard — Lumen' }]

export function ErrorBoundary() {
  const error = useRouteError()
  const unauthenticated = isRouteErrorResponse(error) && error.status === 401
  const reason = isRouteErrorResponse(error) && typeof error.data === 'string' ? error.data : 'please try again in a moment'
  return (
    <Page>
      {unauthenticated ? (
        <Alert tone="error">{DASHBOARD_MESSAGES.noUser}</Alert>
      ) : (
        <StatusCard
          title="Dashboard unavailable"
          message={DASHBOARD_MESSAGES.loadFailed(reason)}
          action={{ href: '/dashboard', label: 'Try again' }}
        />
      )}
    </Page>
  )
}
