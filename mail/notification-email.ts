import { NOTIFICATION_TYPE_LABELS, type EmailNotificationType } from './notification-types'

/**
 * The emails of notifications: one at once for a type set to "email", or a
 * digest of several. The worker reads a notification's row as it is when the
 * email goes out (titles, the comment, the admin's note) and says it in the
 * words of describeNotification, which the notifications page uses too
 * (app/server/notifications.server.ts); every email ends with the link that
 * stops that type's emails without signing in.
 */

/** A notification joined with what it is about, as the worker reads it (service role). */
export interface NotificationEmailRow {
  type: EmailNotificationType
  outcome: string | null
  actor_id: string | null
  actor_username: string | null
  actor_role: string | null
  video_id: string | null
  video_title: string | null
  video_type: string | null
  is_public: boolean | null
  comment_body: string | null
  quote_id: string | null
  quote_body: string | null
  review_notes: string | null
  category_name: string | null
  failure_reason: string | null
  like_count: number | null
  liker_username: string | null
  /** checkpoint_answers: the learners who answered that UTC day (public.checkpoint_answer_count()). */
  answer_count: number | null
}

export interface DescribedNotification {
  type: EmailNotificationType
  message: string
  detail: string | null
  /** A path on the site, or null. */
  href: string | null
}

/**
 * "3 learners answered the checkpoints in “Why the Sky Is Blue”": a day's answers to a
 * video's checkpoints (a spark has one), never naming a learner (the creator sees
 * aggregates only). Null when nobody counts any more.
 */
export function checkpointAnswersMessage(count: number, kind: 'video' | 'spark', title: string): string | null {
  if (count <= 0) return null
  const who = count === 1 ? '1 learner' : `${count} learners`
  const what = kind === 'spark' ? 'the checkpoint in your spark' : 'the checkpoints in'
  return `${who} answered ${what} ${title}`
}

/** What the notification says, or null when what it was about is gone. */
export function describeNotification(row: NotificationEmailRow): DescribedNotification | null {
  const title = row.video_title ? `“${row.video_title}”` : ''
  const videoHref = row.video_id ? `/video/${row.video_id}` : null
  const kind = row.video_type === 'spark' ? 'spark' : 'video'
  const actor = row.actor_id ? row.actor_username : null
  const item = (message: string, href: string | null, detail: string | null = null): DescribedNotification => ({
    type: row.type,
    message,
    detail,
    href,
  })
  switch (row.type) {
    case 'video_published':
      if (!actor || !row.video_id || row.is_public === false) return null
      return item(`${actor} published a new ${kind}: ${title}`, videoHref)
    case 'video_commented':
      if (!actor || !row.video_id || row.comment_body === null) return null
      return item(`${actor} commented on ${title}`, videoHref, row.comment_body)
    case 'video_liked': {
      const count = row.like_count ?? 0
      if (!row.video_id || count === 0) return null
      if (count === 1) return item(`${row.liker_username ?? 'Someone'} liked your ${kind} ${title}`, videoHref)
      return item(`${count} people liked your ${kind} ${title}`, videoHref)
    }
    case 'checkpoint_answers': {
      const message = checkpointAnswersMessage(row.answer_count ?? 0, kind, title)
      if (!row.video_id || !message) return null
      return item(message, `/dashboard/videos/${row.video_id}`)
    }
    case 'video_quoted':
      if (!actor || !row.video_id || !row.quote_id) return null
      return item(`${actor} quoted your ${kind} ${title}`, `/quote/${row.quote_id}`, row.quote_body || null)
    case 'followed':
      if (!actor) return null
      return item(
        `${actor} started following you`,
        row.actor_role === 'creator' || row.actor_role === 'admin' ? `/creator/${row.actor_id}` : null,
      )
    case 'application_reviewed':
      return row.outcome === 'approved'
        ? item('Your creator application was approved. You can upload videos now.', '/upload', row.review_notes || null)
        : item('Your creator application was not approved.', '/profile', row.review_notes || null)
    case 'category_reviewed': {
      const name = row.category_name ?? 'a category'
      return row.outcome === 'approved'
        ? item(`Your request to publish in ${name} was approved.`, '/upload')
        : item(`Your request to publish in ${name} was not approved.`, '/profile/edit')
    }
    case 'report_handled':
      if (row.outcome === 'removed')
        return item('The content you reported was removed. Thank you for your report.', '/profile?tab=reports')
      if (row.outcome === 'dismissed') return item('Your report was reviewed; the content stays up.', '/profile?tab=reports')
      return item('Your report was reviewed. Thank you.', '/profile?tab=reports')
    case 'video_processed':
      if (!row.video_id) return null
      return item(`Your ${kind} ${title} is ready to watch.`, videoHref)
    case 'video_failed':
      if (!row.video_id) return null
      return item(`Your ${kind} ${title} couldn't be processed.`, videoHref, row.failure_reason)
    default:
      return null
  }
}

export interface ComposedEmail {
  subject: string
  text: string
  html: string
  /** List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058: one click, by POST). */
  headers: Record<string, string>
}

export interface EmailLinks {
  /** The site's address, without a trailing slash. */
  siteUrl: string
  /** The unsubscribe page of each type in the email. */
  unsubscribe: (type: EmailNotificationType) => string
}

export const PREFERENCES_PATH = '/profile/edit#notification-preferences'

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

function subjectOf(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim()
  return line.length > 140 ? `${line.slice(0, 139)}…` : line
}

function itemText(item: DescribedNotification, siteUrl: string): string[] {
  return [
    item.message,
    ...(item.detail
      ? [
          item.detail
            .split('\n')
            .map((line) => `> ${line}`)
            .join('\n'),
        ]
      : []),
    ...(item.href ? [`Open: ${siteUrl}${item.href}`] : []),
  ]
}

function itemHtml(item: DescribedNotification, siteUrl: string): string {
  return [
    `<p>${escapeHtml(item.message)}</p>`,
    item.detail ? `<blockquote style="white-space: pre-wrap">${escapeHtml(item.detail)}</blockquote>` : '',
    item.href ? `<p><a href="${escapeHtml(siteUrl + item.href)}">Open on Lumen</a></p>` : '',
  ]
    .filter(Boolean)
    .join('\n')
}

function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}

/** The email of one notification, at once. */
export function composeNotificationEmail(username: string, item: DescribedNotification, links: EmailLinks): ComposedEmail {
  const stop = links.unsubscribe(item.type)
  const label = NOTIFICATION_TYPE_LABELS[item.type]
  const preferences = `${links.siteUrl}${PREFERENCES_PATH}`
  const text = [
    `Hi ${username},`,
    '',
    itemText(item, links.siteUrl).join('\n\n'),
    '',
    '— Lumen',
    '',
    `You get this email because emails are on for “${label}”.`,
    `Stop these emails (no sign-in needed): ${stop}`,
    `All your notification settings: ${preferences}`,
  ].join('\n')
  const html = `<p>Hi ${escapeHtml(username)},</p>
${itemHtml(item, links.siteUrl)}
<p>— Lumen</p>
<hr>
<p style="font-size: 12px; color: #555">You get this email because emails are on for “${escapeHtml(label)}”.
<a href="${escapeHtml(stop)}">Stop these emails</a> (no sign-in needed) ·
<a href="${escapeHtml(preferences)}">All your notification settings</a></p>`
  return { subject: subjectOf(item.message), text, html, headers: unsubscribeHeaders(stop) }
}

/** The daily digest of several notifications, newest last, with a stop link per type in it. */
export function composeDigestEmail(username: string, items: DescribedNotification[], links: EmailLinks): ComposedEmail {
  const types = [...new Set(items.map((item) => item.type))]
  const preferences = `${links.siteUrl}${PREFERENCES_PATH}`
  const count = items.length === 1 ? '1 notification' : `${items.length} notifications`
  const text = [
    `Hi ${username},`,
    '',
    `Here is what happened on Lumen since your last digest (${count}):`,
    '',
    items
      .map((item) =>
        itemText(item, links.siteUrl)
          .map((line) => `  ${line}`)
          .join('\n'),
      )
      .join('\n\n'),
    '',
    '— Lumen',
    '',
    'You get this digest because you chose a daily digest for these notifications. Stop them (no sign-in needed):',
    ...types.map((type) => `  ${NOTIFICATION_TYPE_LABELS[type]}: ${links.unsubscribe(type)}`),
    `All your notification settings: ${preferences}`,
  ].join('\n')
  const html = `<p>Hi ${escapeHtml(username)},</p>
<p>Here is what happened on Lumen since your last digest (${count}):</p>
<ul>
${items.map((item) => `<li>${itemHtml(item, links.siteUrl)}</li>`).join('\n')}
</ul>
<p>— Lumen</p>
<hr>
<p style="font-size: 12px; color: #555">You get this digest because you chose a daily digest for these notifications. Stop them (no sign-in needed):</p>
<ul style="font-size: 12px; color: #555">
${types.map((type) => `<li><a href="${escapeHtml(links.unsubscribe(type))}">Stop the digest of “${escapeHtml(NOTIFICATION_TYPE_LABELS[type])}”</a></li>`).join('\n')}
</ul>
<p style="font-size: 12px; color: #555"><a href="${escapeHtml(preferences)}">All your notification settings</a></p>`
  // A mail client's one-click button stops one type: a digest of several has none (its links choose).
  return {
    subject: `Your Lumen digest: ${count}`,
    text,
    html,
    headers: types.length === 1 ? unsubscribeHeaders(links.unsubscribe(types[0]!)) : {},
  }
}
