import type { ReportContentType, ReportInput } from '~/lib/schemas/report'
import { asCaller, type JwtClaims } from './db.server'

/**
 * Reports of videos, quotes and comments (spec: Report entity; POST /reports).
 * Written by the signed-in caller, as the caller: row-level security on
 * `public.reports` allows a report only as oneself, of content the caller can
 * see, and a unique index allows one pending report per reporter and content.
 * This module turns those answers into outcomes the screens can word kindly.
 */
export type ReportOutcome =
  /** Stored, pending an admin's review. */
  | { status: 'created' }
  /** The caller already has a pending report of this content: nothing new is stored. */
  | { status: 'duplicate' }
  /** No such content, or content the caller cannot see. */
  | { status: 'not-found' }

/**
 * Stores the caller's report. No `returning`: Postgres would apply the select
 * policy to the returned row, and the insert stays a plain write.
 */
export async function createReport(claims: JwtClaims, input: ReportInput): Promise<ReportOutcome> {
  try {
    await asCaller(claims, (tx) =>
      tx
        .insertInto('reports')
        .values({
          content_type: input.contentType,
          content_id: input.contentId,
          reason: input.reason,
          details: input.details,
        })
        .execute(),
    )
    return { status: 'created' }
  } catch (error) {
    const code = (error as { code?: unknown }).code
    // reports_one_pending_idx: a second click, or a second tab.
    if (code === '23505') return { status: 'duplicate' }
    // The insert policy's check failed: the content does not exist or is hidden from the caller.
    if (code === '42501') return { status: 'not-found' }
    throw error
  }
}

/** What a report page shows about its content: a title or an excerpt, when the caller can see it. */
export interface ReportTarget {
  contentType: ReportContentType
  contentId: string
  label: string
}

export async function findReportTarget(
  claims: JwtClaims,
  target: { contentType: ReportContentType; contentId: string },
): Promise<ReportTarget | null> {
  const row = await asCaller(claims, (tx) => {
    switch (target.contentType) {
      case 'video':
        return tx.selectFrom('videos').select('title as label').where('id', '=', target.contentId).executeTakeFirst()
      case 'quote':
        return tx.selectFrom('quotes').select('body as label').where('id', '=', target.contentId).executeTakeFirst()
      case 'comment':
        return tx.selectFrom('comments').select('body as label').where('id', '=', target.contentId).executeTakeFirst()
    }
  })
  if (!row) return null
  const label = row.label.length > 120 ? `${row.label.slice(0, 119).trimEnd()}…` : row.label
  return { ...target, label }
}
