import { Form, Link } from '@remix-run/react'
import { DASHBOARD_ICON_PATHS as icons, PathIcon } from '~/components/icons'
import type { RecentUpload } from '~/lib/dashboard-types'
import { formatCompact, formatDate } from '~/lib/format'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { ConfirmAction } from '~/components/ui/confirm-action'
import { useRefreshWhile } from '~/components/use-refresh-while'

export type UploadCardVideo = Omit<RecentUpload, 'thumbnailPath'> & { thumbnailUrl: string | null }

/** Your Content: the latest uploads with their status, figures and a delete that asks first. */
export function YourContent({ uploads, pendingVerification }: { uploads: UploadCardVideo[]; pendingVerification: boolean }) {
  // The cards move on by themselves while an upload is processing or getting more qualities.
  useRefreshWhile(
    uploads.some((video) => video.status === 'processing' || video.moreQualitiesPending),
    5000,
  )
  return (
    <section aria-labelledby="your-content" className="mt-10">
      <h2 id="your-content" tabIndex={-1} className="text-heading">
        Your Content
      </h2>
      {uploads.length === 0 ? (
        <EmptyContent pendingVerification={pendingVerification} />
      ) : (
        <ul className="mt-4 grid gap-3 sm:gap-4 md:grid-cols-2 xl:grid-cols-3">
          {uploads.map((video) => (
            <UploadCard key={video.id} video={video} />
          ))}
        </ul>
      )}
    </section>
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

function UploadCard({ video }: { video: UploadCardVideo }) {
  const status = statusLabels[video.status]
  return (
    <li className="card flex gap-4 p-3" data-testid="upload-card">
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
          <span className="line-clamp-2">{video.title}</span>
        </Link>
        <p className="text-caption mt-1 flex flex-wrap items-center gap-x-1.5 gap-y-1">
          <span className={`rounded-full px-2 py-px text-xs font-semibold ring-1 ring-inset ${status.tone}`}>{status.text}</span>
          <span>
            {video.type === 'spark' ? 'Spark' : 'Video'}
            {video.isPublic ? '' : ' · Private'} · {formatDate(video.createdAt)}
          </span>
        </p>
        {video.status === 'failed' && video.statusMessage ? (
          <p className="mt-1 text-xs text-red-700">{video.statusMessage}</p>
        ) : null}
        {video.status === 'ready' && video.moreQualitiesPending ? (
          <p className="mt-1 text-xs font-medium text-sky-700" data-testid="more-qualities">
            {VIDEO_MESSAGES.moreQualitiesComing}
          </p>
        ) : null}
        <dl className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-ink-600">
          <Metric label="Views" value={video.views} />
          <Metric label="Likes" value={video.likes} />
          <Metric label="Comments" value={video.comments} />
        </dl>
        <div className="mt-2 flex flex-wrap items-start gap-3 text-xs">
          {video.status === 'ready' ? (
            <Link to={`/dashboard/videos/${video.id}`} className="font-semibold text-brand-700 hover:underline">
              Insights
            </Link>
          ) : null}
          <Link
            to={`/video/${video.id}/edit`}
            className="font-semibold text-brand-700 hover:underline"
            aria-label={`Edit “${video.title}”`}
          >
            Edit
          </Link>
          <ConfirmAction
            label="Delete"
            triggerClassName="font-semibold text-red-700 hover:underline"
            title="Delete this video?"
            description={<>“{video.title}” and its files are removed for everyone. This cannot be undone.</>}
            fields={{ intent: 'delete', id: video.id }}
            focusAfterId="your-content"
            preventScrollReset
            confirmLabel="Delete video"
            pendingLabel="Deleting…"
            fallback={
              <details className="group">
                <summary className="cursor-pointer list-none font-semibold text-red-700 hover:underline">Delete</summary>
                <Form method="post" className="mt-2 rounded-lg bg-red-50 p-2 ring-1 ring-red-200">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={video.id} />
                  <p className="text-ink-800">Delete “{video.title}” and its files? This cannot be undone.</p>
                  <button
                    type="submit"
                    className="mt-2 rounded-full bg-red-600 px-3 py-1.5 font-semibold text-white hover:bg-red-700"
                  >
                    Yes, delete
                  </button>
                </Form>
              </details>
            }
          />
        </div>
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
