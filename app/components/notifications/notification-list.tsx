import { Form, Link } from '@remix-run/react'
import { OutlineIcon } from '~/components/icons'
import { UserAvatar } from '~/components/user-avatar'
import { EmptyState } from '~/components/video-grid'
import {
  dayLabel,
  groupByDay,
  NOTIFICATION_MESSAGES,
  type NotificationItem,
  type NotificationsPage,
  type NotificationType,
} from '~/lib/notifications'
import { BELL_PATH } from './notification-bell'

/** /notifications: grouped by day, each linking to what it is about, mark one or all read (plain forms). */
export function NotificationList({ page, cursor }: { page: NotificationsPage; cursor: string | null }) {
  if (page.items.length === 0 && !cursor) {
    return (
      <EmptyState
        title={NOTIFICATION_MESSAGES.empty}
        message={NOTIFICATION_MESSAGES.emptyHint}
        action={{ href: '/creators', label: 'Discover creators' }}
      />
    )
  }
  return (
    <div className="flex flex-col gap-6">
      {groupByDay(page.items).map((group) => {
        const headingId = `day-${group.day}`
        return (
          <section key={group.day} aria-labelledby={headingId}>
            <h2 id={headingId} className="mb-2 px-1 text-sm font-semibold text-ink-600">
              {dayLabel(group.day, page.today)}
            </h2>
            <ul className="card divide-y divide-ink-100">
              {group.items.map((item) => (
                <NotificationRow key={item.id} item={item} />
              ))}
            </ul>
          </section>
        )
      })}
      <div className="flex justify-center gap-3">
        {cursor ? (
          <Link to="/notifications" className="btn-secondary">
            Newest
          </Link>
        ) : null}
        {page.nextCursor ? (
          <Link to={`/notifications?cursor=${encodeURIComponent(page.nextCursor)}`} className="btn-secondary" rel="next">
            Older
          </Link>
        ) : null}
      </div>
    </div>
  )
}

function NotificationRow({ item }: { item: NotificationItem }) {
  const unread = item.readAt === null
  return (
    <li className={`flex items-start gap-3 px-4 py-3 ${unread ? 'bg-brand-50/60' : ''}`} data-notification={item.type}>
      {item.actor ? <UserAvatar user={item.actor} size="md" /> : <TypeIcon type={item.type} />}
      <div className="min-w-0 flex-1">
        <p className={`break-words text-sm ${unread ? 'font-semibold text-ink-900' : 'text-ink-800'}`}>
          {unread ? <span className="sr-only">Unread: </span> : null}
          {item.href ? (
            <Link to={item.href} className="hover:text-brand-700 hover:underline">
              {item.message}
            </Link>
          ) : (
            item.message
          )}
        </p>
        {item.detail ? <p className="text-caption mt-1 line-clamp-3 break-words">“{item.detail}”</p> : null}
      </div>
      {unread ? (
        <Form method="post" className="shrink-0">
          <input type="hidden" name="intent" value="read" />
          <input type="hidden" name="id" value={item.id} />
          <button type="submit" className="btn-ghost min-h-11 px-3 text-xs" aria-label={`Mark as read: ${item.message}`}>
            Mark read
          </button>
        </Form>
      ) : null}
    </li>
  )
}

const TYPE_ICONS: Partial<Record<NotificationType, string>> = {
  application_reviewed: 'M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6l7-3Zm-3 9 2 2 4-4',
  category_reviewed: 'M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6l7-3Zm-3 9 2 2 4-4',
  report_handled: 'M5 21V4m0 0h11l-2 4 2 4H5',
  video_processed: 'M4 5a1 1 0 0 1 1-1h14a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5Zm6 3v4l3.5-2L10 8Zm-6 11h16',
  video_failed: 'M12 8v5m0 3h.01M10.3 3.9 2.5 17.5A2 2 0 0 0 4.2 20.5h15.6a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z',
  checkpoint_answers: 'M9 12l2 2 4-4m6 2a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  video_liked: 'M12 20.5s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.6a4.3 4.3 0 0 1 7.5 2.7c0 5.6-7.5 10.2-7.5 10.2Z',
}

function TypeIcon({ type }: { type: NotificationType }) {
  const tone = type === 'video_failed' ? 'bg-red-100 text-red-700' : 'bg-brand-50 text-brand-600'
  return (
    <span className={`inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full ${tone}`}>
      <OutlineIcon className="h-5 w-5">
        <path d={TYPE_ICONS[type] ?? BELL_PATH} />
      </OutlineIcon>
    </span>
  )
}
