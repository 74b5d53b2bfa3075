import { z } from 'zod'
import {
  EMAIL_NOTIFICATION_TYPES,
  LEARNER_NOTIFICATION_TYPES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPE_LABELS,
  type EmailNotificationType,
  type NotificationChannel,
} from '../../mail/notification-types'

/**
 * Notification preferences as the edit-profile form, the API and the
 * unsubscribe page show them (shared by server and client). The types, labels
 * and defaults live in mail/notification-types.ts, which the worker's emails
 * share; see docs/decisions/0046-notification-emails.md.
 */
export {
  EMAIL_NOTIFICATION_TYPES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPE_LABELS,
  type EmailNotificationType,
  type NotificationChannel,
}

export const CHANNEL_LABELS: Record<NotificationChannel, string> = {
  in_app: 'In the app only',
  email: 'In the app and by email',
  digest: 'In the app and a daily digest email',
}

/** Short forms, for a phone's narrow table. */
export const CHANNEL_SHORT_LABELS: Record<NotificationChannel, string> = {
  in_app: 'App only',
  email: 'Email',
  digest: 'Daily digest',
}

export interface NotificationPreference {
  type: EmailNotificationType
  label: string
  channel: NotificationChannel
  defaultChannel: NotificationChannel
}

/** The types a user with this role can receive, in the form's order. */
export function typesForRole(role: string): readonly EmailNotificationType[] {
  return role === 'user' ? LEARNER_NOTIFICATION_TYPES : EMAIL_NOTIFICATION_TYPES
}

/** A change to some types' channels: `{ "video_liked": "digest", … }` (the others stay). */
export const preferencesUpdateSchema = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    const entries = Object.entries(value)
    if (entries.length === 0) ctx.addIssue({ code: 'custom', message: NOTIFICATION_PREFERENCE_MESSAGES.empty })
    for (const [type, channel] of entries) {
      if (!(EMAIL_NOTIFICATION_TYPES as readonly string[]).includes(type)) {
        ctx.addIssue({ code: 'custom', path: [type], message: `Unknown notification type: ${type}` })
      } else if (!(NOTIFICATION_CHANNELS as readonly unknown[]).includes(channel)) {
        ctx.addIssue({ code: 'custom', path: [type], message: NOTIFICATION_PREFERENCE_MESSAGES.badChannel })
      }
    }
  })
  .transform((value) => value as Partial<Record<EmailNotificationType, NotificationChannel>>)

export const NOTIFICATION_PREFERENCE_MESSAGES = {
  saved: 'Notification preferences saved.',
  empty: 'Choose how you want to hear about at least one kind of notification.',
  badChannel: 'Choose in the app only, by email, or a daily digest.',
  loginRequired: 'Please log in to change your notification preferences.',
  invalidLink: 'This unsubscribe link is not valid. It may have been cut short or changed.',
  unsubscribed: 'Done: no more emails about this.',
} as const
