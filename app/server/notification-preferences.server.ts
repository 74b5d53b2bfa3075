import { sql } from 'kysely'
import {
  EMAIL_NOTIFICATION_TYPES,
  NOTIFICATION_PREFERENCE_MESSAGES,
  NOTIFICATION_TYPE_LABELS,
  preferencesUpdateSchema,
  type EmailNotificationType,
  type NotificationChannel,
  type NotificationPreference,
} from '~/lib/notification-preferences'
import { unsubscribeSecret, verifyUnsubscribeToken, type UnsubscribeSubject } from '../../mail/unsubscribe-token'
import { asCaller, asServiceRole, type JwtClaims } from './db.server'
import { getEnv } from './env.server'
import { DomainError } from './errors.server'

/**
 * How a user hears of each notification type (the edit-profile form, `GET/PUT
 * /api/notifications/preferences`, and the unsubscribe page). Read and written
 * as the user under RLS; the unsubscribe link, which needs no sign-in, writes
 * as the service role once its signature is checked. The database applies the
 * choice when it writes a notification (docs/decisions/0046-notification-emails.md).
 */

/** Every type with its channel in force (the user's choice, else the type's default). */
export async function getNotificationPreferences(claims: JwtClaims | null): Promise<NotificationPreference[]> {
  if (!claims) throw new DomainError('unauthenticated', NOTIFICATION_PREFERENCE_MESSAGES.loginRequired)
  const rows = await asCaller(claims, async (tx) => {
    const { rows } = await sql<{
      type: EmailNotificationType
      channel: NotificationChannel
      default_channel: NotificationChannel
    }>`
      select t.type, public.notification_channel(${claims.sub}::uuid, t.type) as channel,
             public.notification_default_channel(t.type) as default_channel
        from unnest(${sql.val([...EMAIL_NOTIFICATION_TYPES])}::text[]) with ordinality as t(type, position)
       order by t.position
    `.execute(tx)
    return rows
  })
  return rows.map((row) => ({
    type: row.type,
    label: NOTIFICATION_TYPE_LABELS[row.type],
    channel: row.channel,
    defaultChannel: row.default_channel,
  }))
}

/** Sets the given types' channels (others stay as they are); answers every type's channel. */
export async function saveNotificationPreferences(claims: JwtClaims | null, input: unknown): Promise<NotificationPreference[]> {
  if (!claims) throw new DomainError('unauthenticated', NOTIFICATION_PREFERENCE_MESSAGES.loginRequired)
  const parsed = preferencesUpdateSchema.safeParse(input)
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(
      parsed.error.issues.filter((issue) => issue.path.length).map((issue) => [String(issue.path[0]), issue.message]),
    )
    throw new DomainError('invalid', parsed.error.issues[0]?.message ?? NOTIFICATION_PREFERENCE_MESSAGES.badChannel, fieldErrors)
  }
  const changes = Object.entries(parsed.data) as [EmailNotificationType, NotificationChannel][]
  await asCaller(claims, (tx) =>
    tx
      .insertInto('notification_preferences')
      .values(changes.map(([type, channel]) => ({ user_id: claims.sub, type, channel })))
      .onConflict((oc) => oc.columns(['user_id', 'type']).doUpdateSet((eb) => ({ channel: eb.ref('excluded.channel') })))
      .execute(),
  )
  return getNotificationPreferences(claims)
}

function secret(): string {
  const env = getEnv()
  const value = unsubscribeSecret({ explicit: env.UNSUBSCRIBE_SECRET, jwtSecret: env.SUPABASE_JWT_SECRET })
  if (!value) throw new Error('UNSUBSCRIBE_SECRET or SUPABASE_JWT_SECRET must be set to check unsubscribe links')
  return value
}

export interface UnsubscribeTarget extends UnsubscribeSubject {
  label: string
  /** The channel in force now (in_app: already unsubscribed). */
  channel: NotificationChannel
}

/** What an unsubscribe token names, or null when it is not one of ours (or its user is gone). */
export async function readUnsubscribeToken(token: unknown): Promise<UnsubscribeTarget | null> {
  const subject = verifyUnsubscribeToken(secret(), token)
  if (!subject) return null
  const channel = await asServiceRole('an unsubscribe link: the channel in force for its signed user and type', async (tx) => {
    const { rows } = await sql<{ channel: NotificationChannel | null }>`
      select case when exists (select 1 from public.profiles where id = ${subject.userId}::uuid)
                  then public.notification_channel(${subject.userId}::uuid, ${subject.type}) end as channel
    `.execute(tx)
    return rows[0]?.channel ?? null
  })
  return channel ? { ...subject, label: NOTIFICATION_TYPE_LABELS[subject.type], channel } : null
}

/** Stops the emails (and digest) of the token's type for its user: that type goes back to the app only. */
export async function unsubscribe(token: unknown): Promise<UnsubscribeTarget> {
  const target = await readUnsubscribeToken(token)
  if (!target) throw new DomainError('invalid', NOTIFICATION_PREFERENCE_MESSAGES.invalidLink)
  await asServiceRole('an unsubscribe link: its signature names the user and the type', (tx) =>
    tx
      .insertInto('notification_preferences')
      .values({ user_id: target.userId, type: target.type, channel: 'in_app' })
      .onConflict((oc) => oc.columns(['user_id', 'type']).doUpdateSet({ channel: 'in_app' }))
      .execute(),
  )
  return { ...target, channel: 'in_app' }
}
