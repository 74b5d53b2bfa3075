import type { FeedbackInput } from '~/lib/schemas/feedback'
import { asCaller, type JwtClaims } from './db.server'

/**
 * Product feedback (spec: Feedback entity; POST /feedback, GET /feedback).
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
