import { z } from 'zod'
import { EMAIL_NOTIFICATION_TYPES } from '../../mail/notification-types'
import { formatDay } from './format'

/**
 * Notifications as the page, the bell and the API show them (shared by server
 * and client). The database writes the events (supabase/migrations/*_notifications.sql);
 * app/server/notifications.server.ts reads them under the recipient's RLS and
 * fills these in. See docs/decisions/0032-notifications.md.
 */

/** The types of notification: the emails' own list (mail/notification-types.ts), one list for both. */
export const NOTIFICATION_TYPES = EMAIL_NOTIFICATION_TYPES

export type NotificationType = (typeof NOTIFICATION_TYPES)[number]

export interface NotificationActor {
  id: string
  username: string
  avatarUrl: string | null
}

export interface NotificationItem {
  id: string
  type: NotificationType
  /** ISO-8601. */
  createdAt: string
  /** The calendar day it happened, in the recipient's time zone: "2026-11-26". */
  day: string
  readAt: string | null
  actor: NotificationActor | null
  /** What happened, in one sentence (names and titles as the recipient may see them now). */
  message: string
  /** A quoted detail: the comment, the quote, the admin's note, why processing failed. */
  detail: string | null
  /** Where it leads, or null when there is nothing to open. */
  href: string | null
}

export interface NotificationsPage {
  items: NotificationItem[]
  nextCursor: string | null
  unread: number
  /** Today in the recipient's time zone, to label the day groups. */
  today: string
}

export const NOTIFICATION_MESSAGES = {
  empty: 'No notifications yet',
  emptyHint: 'When someone follows you, comments on or quotes your videos, or a creator you follow publishes, it shows up here.',
  markedAllRead: 'All notifications marked as read.',
  markedRead: 'Notification marked as read.',
  loginRequired: 'Please log in to see your notifications.',
  badRequest: 'Choose notifications to mark as read, or all of them.',
} as const

/** "3 unread notifications", for the bell's accessible name. */
export function unreadLabel(unread: number): string {
  if (unread === 0) return 'Notifications'
  return `Notifications, ${unread} unread`
}

/** The badge's text: the count, "99+" beyond. */
export function badgeText(unread: number): string {
  return unread > 99 ? '99+' : String(unread)
}

/** What to mark read: `{ all: true }` or `{ ids: [...] }` (at most 100). The page's forms and the API parse it. */
export const markReadSchema = z.union(
  [
    z.object({ all: z.literal(true) }).strict(),
    z.object({ ids: z.array(z.string().uuid(NOTIFICATION_MESSAGES.badRequest)).min(1).max(100) }).strict(),
  ],
  { errorMap: () => ({ message: NOTIFICATION_MESSAGES.badRequest }) },
)
export type MarkReadInput = z.output<typeof markReadSchema>

/** "Today", "Yesterday", else "Thursday, November 26, 2026" (days in the recipient's time zone). */
export function dayLabel(day: string, today: string): string {
  if (day === today) return 'Today'
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  if (day === yesterday) return 'Yesterday'
  return formatDay(day).long
}

/** Consecutive items of one day together, newest day first (the items come newest first). */
export function groupByDay(items: NotificationItem[]): { day: string; items: NotificationItem[] }[] {
  const groups: { day: string; items: NotificationItem[] }[] = []
  for (const item of items) {
    const last = groups.at(-1)
    if (last && last.day === item.day) last.items.push(item)
    else groups.push({ day: item.day, items: [item] })
  }
  return groups
}
