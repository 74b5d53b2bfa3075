/**
 * The notification types and how a user may hear of each, shared by the app
 * (the preferences form, the API, the unsubscribe page) and the worker (the
 * emails). The database holds the same lists in its check constraints and the
 * defaults in public.notification_default_channel()
 * (supabase/migrations/20261213000500_notification_emails.sql); see
 * docs/decisions/0046-notification-emails.md.
 */
export const EMAIL_NOTIFICATION_TYPES = [
  'video_published',
  'video_commented',
  'video_liked',
  'video_quoted',
  'followed',
  'application_reviewed',
  'category_reviewed',
  'report_handled',
  'video_processed',
  'video_failed',
  'checkpoint_answers',
] as const

export type EmailNotificationType = (typeof EMAIL_NOTIFICATION_TYPES)[number]

/** in_app: the app only; email: the app and an email at once; digest: the app and a daily digest. */
export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'digest'] as const

export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number]

/** As public.notification_default_channel(): what applies until the user chooses. */
export function defaultChannel(type: EmailNotificationType): NotificationChannel {
  return type === 'application_reviewed' || type === 'video_failed' ? 'email' : 'in_app'
}

/** What each type is about, in a phrase ("Stop emails about …"). */
export const NOTIFICATION_TYPE_LABELS: Record<EmailNotificationType, string> = {
  video_published: 'New videos from creators you follow',
  video_commented: 'Comments on your videos',
  video_liked: 'Likes on your videos',
  video_quoted: 'Quotes of your videos',
  followed: 'New followers',
  application_reviewed: 'Your creator application reviewed',
  category_reviewed: 'Your category requests reviewed',
  report_handled: 'Your reports handled',
  video_processed: 'Your uploads ready to watch',
  video_failed: "Uploads that couldn't be processed",
  checkpoint_answers: 'Answers to your checkpoints',
}

/** The types a learner can receive (the rest are about a creator's own videos and followers). */
export const LEARNER_NOTIFICATION_TYPES: readonly EmailNotificationType[] = [
  'video_published',
  'application_reviewed',
  'report_handled',
]

export function isEmailNotificationType(value: unknown): value is EmailNotificationType {
  return typeof value === 'string' && (EMAIL_NOTIFICATION_TYPES as readonly string[]).includes(value)
}

export function isNotificationChannel(value: unknown): value is NotificationChannel {
  return typeof value === 'string' && (NOTIFICATION_CHANNELS as readonly string[]).includes(value)
}
