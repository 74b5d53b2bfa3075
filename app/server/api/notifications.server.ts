import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import { NOTIFICATION_TYPES, type NotificationItem } from '~/lib/notifications'
import { NOTIFICATION_CHANNELS, type NotificationPreference } from '~/lib/notification-preferences'
import type { Endpoint } from './openapi.server'

extendZodWithOpenApi(z)

/**
 * The notifications calls of the /api (their rows in the OpenAPI table come
 * from here): the page's data as JSON, through the same domain functions
 * (app/server/notifications.server.ts).
 */
const id = z.string().uuid().openapi({ description: 'A uuid' })

export const NotificationSchema = z
  .object({
    _id: id,
    type: z.enum(NOTIFICATION_TYPES),
    createdAt: z.string().openapi({ description: 'ISO 8601 date and time' }),
    day: z.string().openapi({ description: 'YYYY-MM-DD in your time zone' }),
    read: z.boolean(),
    actor: z.object({ _id: id, username: z.string(), profilePicture: z.string().nullable() }).nullable(),
    message: z.string().openapi({ description: 'What happened, as the page says it' }),
    detail: z.string().nullable().openapi({ description: "The comment, the quote, the admin's note or why processing failed" }),
    link: z.string().nullable().openapi({ description: 'The page it is about (a path), or null' }),
  })
  .openapi('Notification')

export const NotificationListSchema = z
  .object({ notifications: z.array(NotificationSchema), nextCursor: z.string().nullable(), unread: z.number().int() })
  .openapi('NotificationList')

export const MarkReadBody = z
  .union([z.object({ all: z.literal(true) }), z.object({ ids: z.array(id).min(1).max(100) })])
  .openapi('MarkNotificationsRead', { description: '`{ "all": true }`, or `{ "ids": [...] }` (up to 100)' })

const channel = z.enum(NOTIFICATION_CHANNELS).openapi({
  description:
    '`in_app`: in the app only; `email`: in the app and an email at once; `digest`: in the app and a daily digest email',
})

export const NotificationPreferencesSchema = z
  .object({
    preferences: z.array(
      z.object({
        type: z.enum(NOTIFICATION_TYPES),
        label: z.string().openapi({ description: 'What the type is about, as the settings page says it' }),
        channel,
        default: channel.openapi({ description: 'What applies until you choose' }),
      }),
    ),
  })
  .openapi('NotificationPreferences')

export const PreferencesUpdateBody = z
  .object({
    preferences: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The types to change, each to `in_app`, `email` or `digest`; the others stay as they are' }),
  })
  .openapi('NotificationPreferencesUpdate', { example: { preferences: { video_liked: 'digest', video_failed: 'in_app' } } })

export const NOTIFICATION_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/notifications',
    tag: 'Notifications',
    access: 'bearer',
    summary: 'Your notifications, newest first (`cursor`, `limit`), with your unread count',
    query: z.object({ cursor: z.string().optional(), limit: z.string().optional() }),
    ok: { status: 200, schema: NotificationListSchema, description: 'One page; `nextCursor` is null on the last' },
    errors: [401],
  },
  {
    method: 'post',
    path: '/notifications/read',
    tag: 'Notifications',
    access: 'bearer',
    summary: 'Mark some or all of your notifications read',
    body: MarkReadBody,
    ok: {
      status: 200,
      schema: z.object({ marked: z.number().int(), unread: z.number().int() }).openapi('MarkedRead'),
      description: 'How many were marked, and how many stay unread',
    },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/notifications/preferences',
    tag: 'Notifications',
    access: 'bearer',
    summary: 'How you hear of each type of notification: in the app only, by email at once, or in a daily digest',
    ok: { status: 200, schema: NotificationPreferencesSchema, description: 'Every type, with its channel in force' },
    errors: [401],
  },
  {
    method: 'put',
    path: '/notifications/preferences',
    tag: 'Notifications',
    access: 'bearer',
    summary: 'Change how you hear of some types of notification (every email has a link that sets its type back to in_app)',
    body: PreferencesUpdateBody,
    ok: { status: 200, schema: NotificationPreferencesSchema, description: 'Every type, with its channel in force now' },
    errors: [400, 401],
  },
]

/** The preferences in the API's spelling. */
export function preferencesShape(preferences: NotificationPreference[]): z.infer<typeof NotificationPreferencesSchema> {
  return {
    preferences: preferences.map((entry) => ({
      type: entry.type,
      label: entry.label,
      channel: entry.channel,
      default: entry.defaultChannel,
    })),
  }
}

/** One notification in the API's spelling (`_id`, `profilePicture`). */
export function notificationShape(item: NotificationItem): z.infer<typeof NotificationSchema> {
  return {
    _id: item.id,
    type: item.type,
    createdAt: item.createdAt,
    day: item.day,
    read: item.readAt !== null,
    actor: item.actor ? { _id: item.actor.id, username: item.actor.username, profilePicture: item.actor.avatarUrl } : null,
    message: item.message,
    detail: item.detail,
    link: item.href,
  }
}
