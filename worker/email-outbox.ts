import type pg from 'pg'
import { withRole } from '../db/as-role'
import type { NotificationEmailRow } from '../mail/notification-email'
import type { EmailNotificationType } from '../mail/notification-types'
import { backoffDelayMs, DEFAULT_LEASE_MS, type BackoffOptions } from './queue'

/**
 * The email outbox, `public.email_outbox` (supabase/migrations/20261213000500_notification_emails.sql):
 * rows written by the database in the transaction of each notification, taken
 * here with `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), as
 * worker/queue.ts takes media jobs — so any number of workers share it, and a
 * row whose worker died after taking it is taken again once its lease has
 * passed. A failed send comes back after the same doubling backoff until
 * `max_attempts`. All as the service role: the outbox is no user's business.
 */

export interface OutboxEmail {
  id: number
  kind: 'notification' | 'digest'
  recipientId: string
  notificationId: string | null
  /** Including the one just started. */
  attempts: number
  maxAttempts: number
  lockedBy: string
}

/** What one email tells, read when it is sent. */
export interface EmailContent {
  /** Null: the account is deleted or banned, or has no address. */
  address: string | null
  username: string | null
  /** The notifications it tells of, oldest first (one for an immediate email). */
  rows: NotificationEmailRow[]
}

const SERVICE = { role: 'service_role' }

export class EmailOutbox {
  constructor(
    private readonly pool: pg.Pool,
    private readonly backoff: BackoffOptions = {},
  ) {}

  private asService<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withRole(this.pool, 'service_role', SERVICE, work)
  }

  /**
   * Takes the oldest due email: a queued one whose `run_after` has come, or a
   * running one whose lease has passed. One that had used its last attempt when
   * its worker stopped is failed here instead. Null when none is due.
   */
  async claim(workerId: string, leaseMs = DEFAULT_LEASE_MS): Promise<OutboxEmail | null> {
    return this.asService(async (client) => {
      for (;;) {
        const due = await client.query<{ id: string; status: string; attempts: number; max_attempts: number }>(
          `select id, status, attempts, max_attempts from public.email_outbox
            where (status = 'queued' and run_after <= now()) or (status = 'running' and locked_until < now())
            order by run_after, id
            limit 1
            for update skip locked`,
        )
        const row = due.rows[0]
        if (!row) return null
        if (row.status === 'running' && row.attempts >= row.max_attempts) {
          await client.query(
            `update public.email_outbox
                set status = 'failed', locked_by = null, locked_until = null,
                    last_error = concat_ws(E'\n', last_error, 'its worker stopped during the last attempt (lease expired)')
              where id = $1`,
            [row.id],
          )
          continue
        }
        const taken = await client.query<{
          id: string
          kind: OutboxEmail['kind']
          recipient_id: string
          notification_id: string | null
          attempts: number
          max_attempts: number
        }>(
          `update public.email_outbox
              set status = 'running', locked_by = $2, locked_until = now() + make_interval(secs => $3::float8 / 1000),
                  attempts = attempts + 1
            where id = $1
            returning id, kind, recipient_id, notification_id, attempts, max_attempts`,
          [row.id, workerId, leaseMs],
        )
        const email = taken.rows[0]!
        return {
          id: Number(email.id),
          kind: email.kind,
          recipientId: email.recipient_id,
          notificationId: email.notification_id,
          attempts: email.attempts,
          maxAttempts: email.max_attempts,
          lockedBy: workerId,
        }
      }
    })
  }

  /** The address, the name and the notifications of a taken email, as they are now. */
  async content(email: OutboxEmail): Promise<EmailContent> {
    return this.asService(async (client) => {
      const person = await client.query<{ address: string | null; username: string | null }>(
        `select public.notification_email_address($1::uuid) as address,
                (select p.username from public.profiles p where p.id = $1::uuid) as username`,
        [email.recipientId],
      )
      const which =
        email.kind === 'notification'
          ? { clause: 'n.id = $1::uuid', value: email.notificationId }
          : {
              clause: 'n.id in (select i.notification_id from public.notification_digest_items i where i.email_id = $1)',
              value: email.id,
            }
      const rows = await client.query<NotificationEmailRow>(
        `select n.type, n.outcome,
                a.id as actor_id, a.username as actor_username, a.role as actor_role,
                v.id as video_id, v.title as video_title, v.type as video_type, v.is_public,
                c.body as comment_body, q.id as quote_id, q.body as quote_body,
                ap.review_notes, cat.name as category_name,
                case when n.type = 'video_failed' then v.status_message end as failure_reason,
                case when n.type = 'video_liked' then (
                  select count(*)::int from public.video_likes l
                   where l.video_id = n.video_id and l.user_id <> n.recipient_id
                     and l.created_at >= date_trunc('hour', n.created_at at time zone 'UTC') at time zone 'UTC'
                     and l.created_at < (date_trunc('hour', n.created_at at time zone 'UTC') at time zone 'UTC') + interval '1 hour'
                ) end as like_count,
                case when n.type = 'video_liked' then (
                  select p.username from public.video_likes l join public.profiles p on p.id = l.user_id
                   where l.video_id = n.video_id and l.user_id <> n.recipient_id
                     and l.created_at >= date_trunc('hour', n.created_at at time zone 'UTC') at time zone 'UTC'
                     and l.created_at < (date_trunc('hour', n.created_at at time zone 'UTC') at time zone 'UTC') + interval '1 hour'
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
          where ${which.clause}
          order by n.created_at, n.id`,
        [which.value],
      )
      return {
        address: person.rows[0]?.address ?? null,
        username: person.rows[0]?.username ?? null,
        rows: rows.rows.map((row) => ({ ...row, type: row.type as EmailNotificationType })),
      }
    })
  }

  /** Marks it sent (or `dropped`: nothing left to tell, or nobody to tell). False when it is no longer ours. */
  async finish(email: OutboxEmail, status: 'sent' | 'dropped', note: string | null = null): Promise<boolean> {
    return this.asService(async (client) => {
      const result = await client.query(
        `update public.email_outbox
            set status = $3, sent_at = case when $3 = 'sent' then now() end, locked_by = null, locked_until = null, last_error = $4
          where id = $1 and status = 'running' and locked_by = $2`,
        [email.id, email.lockedBy, status, note],
      )
      return result.rowCount === 1
    })
  }

  /** A failed attempt: back to `queued` after the backoff, or `failed` after the last one. */
  async fail(email: OutboxEmail, error: string): Promise<{ gaveUp: boolean; runAfter: string | null }> {
    return this.asService(async (client) => {
      const delayMs = backoffDelayMs(email.attempts, this.backoff)
      const result = await client.query<{ status: string; run_after: string }>(
        `update public.email_outbox
            set status = case when attempts >= max_attempts then 'failed' else 'queued' end,
                run_after = now() + make_interval(secs => $3::float8 / 1000),
                locked_by = null, locked_until = null, last_error = $4
          where id = $1 and status = 'running' and locked_by = $2
          returning status, run_after`,
        [email.id, email.lockedBy, delayMs, error.slice(0, 4000)],
      )
      const row = result.rows[0]
      if (!row) return { gaveUp: false, runAfter: null }
      return { gaveUp: row.status === 'failed', runAfter: row.status === 'failed' ? null : String(row.run_after) }
    })
  }

  /** Queues the digests that are due (public.queue_notification_digests()); answers how many. */
  async queueDigests(period?: string): Promise<number> {
    return this.asService(async (client) => {
      const result = await client.query<{ queued: number }>(
        period
          ? 'select public.queue_notification_digests($1::interval) as queued'
          : 'select public.queue_notification_digests() as queued',
        period ? [period] : [],
      )
      return Number(result.rows[0]?.queued ?? 0)
    })
  }
}
