import { createHmac, timingSafeEqual } from 'node:crypto'
import { isEmailNotificationType, type EmailNotificationType } from './notification-types'

/**
 * The unsubscribe link's token: `<user id>.<type>.<signature>`, the signature an
 * HMAC-SHA256 of both under the site's unsubscribe secret. It names one user and
 * one notification type and lets whoever holds it stop that type's emails to that
 * user, without signing in — nothing else. It does not expire: an email's link
 * works for as long as the email is kept. See docs/decisions/0046-notification-emails.md.
 */
export interface UnsubscribeSubject {
  userId: string
  type: EmailNotificationType
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * The secret: UNSUBSCRIBE_SECRET when set, else derived from the JWT secret (the
 * stand-in's is generated once and kept in DATA_DIR/keys.json), so the app that
 * checks links and the worker that writes them agree without another setting.
 */
export function unsubscribeSecret(settings: { explicit?: string; jwtSecret?: string }): string | undefined {
  if (settings.explicit) return settings.explicit
  if (!settings.jwtSecret) return undefined
  return createHmac('sha256', settings.jwtSecret).update('lumen unsubscribe links').digest('base64url')
}

function signature(secret: string, userId: string, type: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${userId}:${type}`).digest('base64url')
}

export function signUnsubscribeToken(secret: string, subject: UnsubscribeSubject): string {
  return `${subject.userId}.${subject.type}.${signature(secret, subject.userId, subject.type)}`
}

/** The user and type a token names, or null when it is malformed or its signature is not ours. */
export function verifyUnsubscribeToken(secret: string, token: unknown): UnsubscribeSubject | null {
  if (typeof token !== 'string' || token.length > 200) return null
  const [userId, type, given, ...rest] = token.split('.')
  if (rest.length || !userId || !type || !given || !UUID.test(userId) || !isEmailNotificationType(type)) return null
  const expected = Buffer.from(signature(secret, userId, type))
  const actual = Buffer.from(given)
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null
  return { userId, type }
}

/** The page a token opens: `<site>/unsubscribe?token=…`. */
export function unsubscribeUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/$/, '')}/unsubscribe?token=${encodeURIComponent(token)}`
}
