import { sql } from 'kysely'
import type { FeedbackPage } from '~/lib/admin-types'
import { isUuid } from '~/lib/ids'
import type { FeedbackInput } from '~/lib/schemas/feedback'
import { assertAdmin } from './applications.server'
import { asCaller, type JwtClaims } from './db.server'

/**
 * Product feedback (docs/product.md: Data; POST /feedback, GET /feedback).
 * Written by the signed-in caller, read by admins only — row-level security
 * on `public.feedback` decides both; this module adds no rule of its own.
 */
export interface FeedbackEntry {
  id: string
  userId: string
  username: string | null
  liked: boolean
  usage: string
  recommendations: string
  createdAt: string
}

/**
 * Stores the caller's feedback. `user_id` defaults to `auth.uid()` in the
 * database. No `returning`: users may insert feedback but not read it back,
 * and Postgres applies the select policy to returned rows.
 */
export async function sendFeedback(claims: JwtClaims, input: FeedbackInput): Promise<void> {
  await asCaller(claims, (tx) =>
    tx
      .insertInto('feedback')
      .values({ liked: input.liked, usage: input.usage, recommendations: input.recommendations })
      .execute(),
  )
}

/** The newest feedback first, as the caller may see it: everything for admins, nothing for anyone else. */
export async function readFeedback(claims: JwtClaims, options: { limit?: number } = {}): Promise<FeedbackEntry[]> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200)
  const rows = await asCaller(claims, (tx) =>
    tx
      .selectFrom('feedback')
      .leftJoin('profiles', 'profiles.id', 'feedback.user_id')
      .select([
        'feedback.id',
        'feedback.user_id',
        'profiles.username',
        'feedback.liked',
        'feedback.usage',
        'feedback.recommendations',
        'feedback.created_at',
      ])
      .orderBy('feedback.created_at', 'desc')
      .orderBy('feedback.id', 'desc')
      .limit(limit)
      .execute(),
  )
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    username: row.username,
    liked: row.liked,
    usage: row.usage,
    recommendations: row.recommendations,
    createdAt: row.created_at,
  }))
}

/**
 * One page of feedback for the admin console (docs/product.md: Admin, Feedback), newest
 * first, 20 a page; `cursor` (`<created_at>~<id>` of the last entry shown)
 * opens the next page. Non-admins are refused (403) rather than shown an
 * empty list, so the console can say why.
 */
export async function readFeedbackPage(
  claims: JwtClaims | null,
  options: { cursor?: string | null; pageSize?: number } = {},
): Promise<FeedbackPage> {
  const pageSize = Math.min(Math.max(options.pageSize ?? 20, 1), 100)
  const [createdAt, id] = (options.cursor ?? '').split('~')
  const after = createdAt && isUuid(id) && !Number.isNaN(Date.parse(createdAt)) ? { createdAt, id } : null
  const rows = await asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    let query = tx
      .selectFrom('feedback')
      .leftJoin('profiles', 'profiles.id', 'feedback.user_id')
      .select(['feedback.id', 'profiles.username', 'feedback.liked', 'feedback.usage', 'feedback.recommendations', 'feedback.created_at'])
      .orderBy('feedback.created_at', 'desc')
      .orderBy('feedback.id', 'desc')
      .limit(pageSize + 1)
    if (after) query = query.where(sql<boolean>`(feedback.created_at, feedback.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`)
    return query.execute()
  })
  const entries = rows.slice(0, pageSize).map((row) => ({
    id: row.id,
    username: row.username,
    liked: row.liked,
    usage: row.usage,
    recommendations: row.recommendations,
    createdAt: row.created_at,
  }))
  const last = entries.at(-1)
  return { entries, next: rows.length > pageSize && last ? `${last.createdAt}~${last.id}` : null }
}
