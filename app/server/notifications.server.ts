import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import { avatarUrl } from '~/lib/media-urls'
import { NOTIFICATION_MESSAGES, type NotificationItem, type NotificationsPage } from '~/lib/notifications'
import { asCaller, type JwtClaims } from './db.server'
import { decodeTimeKey, encodeTimeKey, isoMicros } from './cursor.server'
import { DomainError } from './errors.server'
import { sessionCache } from './session.server'
import { describeNotification, type NotificationEmailRow } from '../../mail/notification-email'
import { browserSupabaseUrl } from './supabase.server'

/**
 * A user's notifications (the /notifications page, the bell, and
 * /api/notifications), as the recipient. The database writes them
 * (triggers, docs/decisions/0032-notifications.md); here they are only read
 * and marked read. Each one is rendered now, under the recipient's RLS: a
 * video's title, a comment's body, the admin's note are joined in as the
 * recipient may see them today, and a notification whose object they can no
 * longer see is left out.
 */

export const NOTIFICATIONS_PAGE_SIZE = 20

/**
 * The bell: one count on the partial index of unread rows, 0 for visitors — kept per user with
 * the cached sessions and dropped the moment the database says it changed
 * (docs/decisions/0062-unread-count-with-the-session-cache.md). Whenever that channel is not
 * confirmed working, or nothing is kept, it is counted as the caller.
 */
export async function unreadCount(claims: JwtClaims | null): Promise<number> {
  if (!claims) return 0
  const cache = sessionCache()
  const cached = cache.getUnread(claims.sub)
  if (cached !== undefined) return cached
  const generation = cache.beginUnread()
  const count = await asCaller(claims, async (tx) => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from public.notifications
       where recipient_id = ${claims.sub}::uuid and read_at is null
    `.execute(tx)
    return Number(rows[0]?.n ?? 0)
  })
  cache.storeUnread(claims.sub, count, generation)
  return count
}

/** A notification as the page reads it: the emails' row (the words come from it) with its own parts. */
interface Row extends Omit<NotificationEmailRow, 'is_public'> {
  id: string
  created_at: string
  day: string
  read_at: string | null
  actor_avatar: string | null
}

/** Newest first, `limit` a page, after `cursor`; with the unread count. */
export async function listNotifications(
  claims: JwtClaims | null,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<NotificationsPage> {
  if (!claims) throw new DomainError('unauthenticated', NOTIFICATION_MESSAGES.loginRequired)
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? NOTIFICATIONS_PAGE_SIZE), 1), 50)
  const after = decodeTimeKey(options.cursor)
  const cache = sessionCache()
  const generation = cache.beginUnread()
  const { rows, unread, today } = await asCaller(claims, async (tx) => {
    const zone = await sql<{ zone: string | null; today: string }>`
      select z.zone, to_char(now() at time zone coalesce(z.zone, 'UTC'), 'YYYY-MM-DD') as today
        from (select public.profile_time_zone(${claims.sub}::uuid) as zone) z
    `.execute(tx)
    const timeZone = zone.rows[0]?.zone ?? 'UTC'
    const hour = sql`(pg_catalog.date_trunc('hour', n.created_at at time zone 'UTC') at time zone 'UTC')`
    const page = await sql<Row>`
      select n.id, n.type, ${isoMicros(sql`n.created_at`)} as created_at, n.read_at, n.outcome,
             to_char(n.created_at at time zone ${timeZone}, 'YYYY-MM-DD') as day,
             a.id as actor_id, a.username as actor_username, a.avatar_path as actor_avatar, a.role as actor_role,
             v.id as video_id, v.title as video_title, v.type as video_type,
             c.body as comment_body, q.id as quote_id, q.body as quote_body,
             ap.review_notes, cat.name as category_name,
             case when n.type = 'video_failed' and v.id is not null then public.video_status_message(v.id) end as failure_reason,
             case when n.type = 'video_liked' then (
               select count(*)::int from public.video_likes l
                where l.video_id = n.video_id and l.user_id <> n.recipient_id
                  and l.created_at >= ${hour} and l.created_at < ${hour} + interval '1 hour'
             ) end as like_count,
             case when n.type = 'video_liked' then (
               select p.username from public.video_likes l join public.profiles p on p.id = l.user_id
                where l.video_id = n.video_id and l.user_id <> n.recipient_id
                  and l.created_at >= ${hour} and l.created_at < ${hour} + interval '1 hour'
                order by l.created_at desc limit 1
             ) end as liker_username,
             case when n.type = 'checkpoint_answers' then public.checkpoint_answer_count(n.id) end as answer_count
        from public.notifications n
        left join public.profiles a on a.id = n.actor_id
        left join public.videos v on v.id = n.video_id
        left join public.comments c on c.id = n.comment_id
        left join public.quotes q on q.id = n.quote_id
        left join public.creator_applications ap on ap.id = n.application_id
        left join public.categories cat on cat.id = n.category_id
       where n.recipient_id = ${claims.sub}::uuid
         ${after ? sql`and (n.created_at, n.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
       order by n.created_at desc, n.id desc
       limit ${limit + 1}
    `.execute(tx)
    const count = await sql<{ n: number }>`
      select count(*)::int as n from public.notifications
       where recipient_id = ${claims.sub}::uuid and read_at is null
    `.execute(tx)
    return { rows: page.rows, unread: Number(count.rows[0]?.n ?? 0), today: zone.rows[0]?.today ?? '' }
  })
  // The bell in the same page's shell reads what was just counted.
  cache.storeUnread(claims.sub, unread, generation)
  const pageRows = rows.slice(0, limit)
  const last = pageRows.at(-1)
  const base = browserSupabaseUrl()
  return {
    items: pageRows.flatMap((row) => {
      const item = render(row, base)
      return item ? [item] : []
    }),
    nextCursor: rows.length > limit && last ? encodeTimeKey({ at: last.created_at, id: last.id }) : null,
    unread,
    today,
  }
}

/**
 * One row as the recipient sees it, or null when what it is about is out of their sight. The words are
 * the emails' (describeNotification, mail/notification-email.ts): the page and the email say the same.
 */
function render(row: Row, base: string): NotificationItem | null {
  // RLS has left out a video the recipient may not see: no need of the worker's is_public check here.
  const described = describeNotification({ ...row, is_public: null })
  if (!described) return null
  return {
    id: row.id,
    type: row.type,
    createdAt: row.created_at,
    day: row.day,
    readAt: row.read_at ? new Date(row.read_at).toISOString() : null,
    actor:
      row.actor_id && row.actor_username
        ? { id: row.actor_id, username: row.actor_username, avatarUrl: avatarUrl(base, row.actor_avatar) }
        : null,
    message: described.message,
    detail: described.detail,
    href: described.href,
  }
}

/**
 * Marks the caller's notifications read: the given ids, or all of them.
 * Ids that are not the caller's (or not ids) change nothing. Answers how
 * many were marked. This process's cached count goes at once, before the
 * caller answers or redirects: the database's notification of the change
 * reaches it only a moment later, and the next page would show the old count.
 */
export async function markNotificationsRead(claims: JwtClaims | null, which: { all: true } | { ids: string[] }): Promise<number> {
  if (!claims) throw new DomainError('unauthenticated', NOTIFICATION_MESSAGES.loginRequired)
  const ids = 'ids' in which ? which.ids.filter(isUuid).slice(0, 100) : null
  if (ids && ids.length === 0) throw new DomainError('invalid', NOTIFICATION_MESSAGES.badRequest)
  const marked = await asCaller(claims, async (tx) => {
    let query = tx
      .updateTable('notifications')
      .set({ read_at: sql<string>`now()` })
      .where('recipient_id', '=', claims.sub)
      .where('read_at', 'is', null)
    if (ids) query = query.where('id', 'in', ids)
    const result = await query.executeTakeFirst()
    return Number(result.numUpdatedRows)
  })
  if (marked > 0) sessionCache().invalidateUnread(claims.sub)
  return marked
}
