import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  composeDigestEmail,
  composeNotificationEmail,
  describeNotification,
  type NotificationEmailRow,
} from '../../mail/notification-email'
import { defaultChannel, EMAIL_NOTIFICATION_TYPES } from '../../mail/notification-types'
import { signUnsubscribeToken, unsubscribeSecret, unsubscribeUrl, verifyUnsubscribeToken } from '../../mail/unsubscribe-token'
import { NOTIFICATION_TYPES } from '../../app/lib/notifications'
import { typesForRole } from '../../app/lib/notification-preferences'

/** The types the newest migration's `notifications_type_check` allows (the list the app and the worker share must match it). */
function allowedByPostgres(): string[] {
  const dir = path.resolve(import.meta.dirname, '../../supabase/migrations')
  const newest = readdirSync(dir)
    .sort()
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .flatMap((sql) =>
      [...sql.matchAll(/add constraint notifications_type_check check \(type in \(([^)]*)\)/g)].map((match) => match[1]!),
    )
    .at(-1)
  return [...(newest ?? '').matchAll(/'([a-z_]+)'/g)].map((match) => match[1]!).sort()
}

/** The words and the tokens of notification emails (mail/), shared by the worker and the app. */
const USER = '8a7c2a3e-5a7b-4c1d-9e2f-0a1b2c3d4e5f'
const SECRET = 'a'.repeat(40)

const row = (overrides: Partial<NotificationEmailRow>): NotificationEmailRow => ({
  type: 'video_commented',
  outcome: null,
  actor_id: 'b1',
  actor_username: 'ada',
  actor_role: 'user',
  video_id: 'v1',
  video_title: 'Optics <1>',
  video_type: 'video',
  is_public: true,
  comment_body: 'Nice & clear',
  quote_id: null,
  quote_body: null,
  review_notes: null,
  category_name: null,
  failure_reason: null,
  like_count: null,
  liker_username: null,
  answer_count: null,
  ...overrides,
})

const links = {
  siteUrl: 'https://lumen.example',
  unsubscribe: (type: string) => `https://lumen.example/unsubscribe?token=${type}`,
}

describe('unsubscribe tokens', () => {
  it('verify what they sign, and nothing changed', () => {
    const token = signUnsubscribeToken(SECRET, { userId: USER, type: 'video_liked' })
    expect(verifyUnsubscribeToken(SECRET, token)).toEqual({ userId: USER, type: 'video_liked' })
    expect(verifyUnsubscribeToken('b'.repeat(40), token)).toBeNull()
    expect(verifyUnsubscribeToken(SECRET, token.replace('video_liked', 'followed'))).toBeNull()
    expect(verifyUnsubscribeToken(SECRET, token.replace(USER, USER.replace('8a7c', '9a7c')))).toBeNull()
    expect(verifyUnsubscribeToken(SECRET, `${token}x`)).toBeNull()
    expect(verifyUnsubscribeToken(SECRET, `${token}.more`)).toBeNull()
    expect(verifyUnsubscribeToken(SECRET, undefined)).toBeNull()
    expect(verifyUnsubscribeToken(SECRET, `${USER}.not_a_type.${token.split('.')[2]}`)).toBeNull()
    expect(unsubscribeUrl('https://lumen.example/', token)).toBe(
      `https://lumen.example/unsubscribe?token=${encodeURIComponent(token)}`,
    )
  })

  it('take the explicit secret, else one derived from the JWT secret, else none', () => {
    expect(unsubscribeSecret({ explicit: SECRET, jwtSecret: 'jwt' })).toBe(SECRET)
    const derived = unsubscribeSecret({ jwtSecret: 'jwt' })
    expect(derived).toBeTruthy()
    expect(derived).not.toBe('jwt')
    expect(unsubscribeSecret({ jwtSecret: 'jwt' })).toBe(derived)
    expect(unsubscribeSecret({})).toBeUndefined()
  })
})

describe('notification emails', () => {
  it('the types are the ones Postgres allows; the defaults email a reviewed application and a failed upload', () => {
    expect([...NOTIFICATION_TYPES].sort()).toEqual(allowedByPostgres())
    expect(EMAIL_NOTIFICATION_TYPES.filter((type) => defaultChannel(type) === 'email')).toEqual([
      'application_reviewed',
      'video_failed',
    ])
  })

  it('one email: the sentence, the quoted detail, the link, and a footer with the stop link (HTML escaped)', () => {
    const item = describeNotification(row({}))!
    const email = composeNotificationEmail('grace', item, links)
    expect(email.subject).toBe('ada commented on “Optics <1>”')
    expect(email.text).toContain('> Nice & clear')
    expect(email.text).toContain('Open: https://lumen.example/video/v1')
    expect(email.text).toContain('Stop these emails (no sign-in needed): https://lumen.example/unsubscribe?token=video_commented')
    expect(email.html).toContain('Optics &lt;1&gt;')
    expect(email.html).not.toContain('<1>')
    expect(email.headers).toEqual({
      'List-Unsubscribe': '<https://lumen.example/unsubscribe?token=video_commented>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    })
  })

  it('says nothing of what is gone or private', () => {
    expect(describeNotification(row({ comment_body: null }))).toBeNull()
    expect(describeNotification(row({ type: 'video_published', is_public: false }))).toBeNull()
    expect(describeNotification(row({ type: 'video_liked', like_count: 0 }))).toBeNull()
    expect(describeNotification(row({ type: 'video_liked', like_count: 3 }))?.message).toBe(
      '3 people liked your video “Optics <1>”',
    )
  })

  it('a day of checkpoint answers: how many learners, never who, linking to the insights page', () => {
    const answers = (overrides: Partial<NotificationEmailRow>) =>
      describeNotification(row({ type: 'checkpoint_answers', actor_id: null, comment_body: null, ...overrides }))
    expect(answers({ answer_count: 3 })).toEqual({
      type: 'checkpoint_answers',
      message: '3 learners answered the checkpoints in “Optics <1>”',
      detail: null,
      href: '/dashboard/videos/v1',
    })
    expect(answers({ answer_count: 1, video_type: 'spark' })?.message).toBe(
      '1 learner answered the checkpoint in your spark “Optics <1>”',
    )
    expect(answers({ answer_count: 0 })).toBeNull()
    // Offered in the preferences of those who have videos only.
    expect(defaultChannel('checkpoint_answers')).toBe('in_app')
    expect(typesForRole('creator')).toContain('checkpoint_answers')
    expect(typesForRole('admin')).toContain('checkpoint_answers')
    expect(typesForRole('user')).not.toContain('checkpoint_answers')
    expect(answers({ answer_count: 2, video_id: null })).toBeNull()
    const email = composeNotificationEmail('grace', answers({ answer_count: 3 })!, links)
    expect(email.text).toContain('Open: https://lumen.example/dashboard/videos/v1')
    expect(email.text).toContain('emails are on for “Answers to your checkpoints”')
  })

  it('a digest lists every item and a stop link per type', () => {
    const items = [
      describeNotification(row({}))!,
      describeNotification(row({ type: 'video_liked', like_count: 1, liker_username: 'lin' }))!,
      describeNotification(row({ comment_body: 'Again' }))!,
    ]
    const digest = composeDigestEmail('grace', items, links)
    expect(digest.subject).toBe('Your Lumen digest: 3 notifications')
    expect(digest.text).toContain('lin liked your video')
    expect(digest.text).toContain('> Again')
    expect(digest.text.match(/unsubscribe\?token=video_commented/g)).toHaveLength(1)
    expect(digest.text).toContain('unsubscribe?token=video_liked')
    // Two types: a mail client's single button could not say which to stop.
    expect(digest.headers).toEqual({})
  })
})
