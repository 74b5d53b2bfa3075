import { sql } from 'kysely'
import type { ReportGroup } from '~/lib/admin-types'
import type { MyReport } from '~/lib/creator-types'
import { isUuid } from '~/lib/ids'
import { thumbnailUrl } from '~/lib/media-urls'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { ADMIN_MESSAGES, type DecideReportInput, type ReportDecision, type ReportStatus } from '~/lib/schemas/admin'
import type { ReportContentType, ReportInput } from '~/lib/schemas/report'
import { assertAdmin } from './applications.server'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError } from './errors.server'
import { removeFiles, type FilesToRemove } from './storage.server'
import { browserSupabaseUrl } from './supabase.server'

/**
 * Reports of videos, quotes and comments (docs/product.md: Data; POST /reports).
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
  /** The caller made this content: nobody reports their own (the insert policy). */
  | { status: 'own' }

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
    // The insert policy's check failed: the caller's own content, or content that does not exist or is hidden.
    if (code === '42501') return (await isOwnContent(claims, input)) ? { status: 'own' } : { status: 'not-found' }
    throw error
  }
}

/** Whether the caller made this content (`public.is_own_content()`, the insert policy's rule). */
export async function isOwnContent(
  claims: JwtClaims,
  target: { contentType: ReportContentType; contentId: string },
): Promise<boolean> {
  const result = await asCaller(claims, (tx) =>
    sql<{ own: boolean }>`select public.is_own_content(${target.contentType}, ${target.contentId}::uuid) as own`.execute(tx),
  )
  return Boolean(result.rows[0]?.own)
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

/**
 * The admin's list (docs/product.md: Admin, Reports; GET /reports): one row per reported
 * item, with every report of it (reason, details, reporter), the content as
 * it is now (or null once it is gone), open items first. Row-level security
 * shows admins every report; anyone else is refused here first.
 */
export async function listReportGroups(
  claims: JwtClaims | null,
  options: { status?: ReportStatus | 'all' } = {},
): Promise<ReportGroup[]> {
  const status = options.status ?? 'all'
  return asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    let query = tx
      .selectFrom('reports as r')
      .leftJoin('profiles as p', 'p.id', 'r.reporter_id')
      .select(['r.id', 'r.content_type', 'r.content_id', 'r.reason', 'r.details', 'r.status', 'r.created_at', 'p.username'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(1000)
    if (status !== 'all') query = query.where('r.status', '=', status)
    const rows = await query.execute()
    const groups = new Map<string, ReportGroup>()
    for (const row of rows) {
      const key = `${row.content_type}:${row.content_id}`
      let group = groups.get(key)
      if (!group) {
        group = {
          contentType: row.content_type as ReportContentType,
          contentId: row.content_id,
          status: row.status as ReportStatus,
          pendingCount: 0,
          count: 0,
          reports: [],
          content: { label: null, author: null, thumbnailUrl: null, href: null },
          lastReportedAt: row.created_at,
        }
        groups.set(key, group)
      }
      group.count += 1
      if (row.status === 'pending') {
        group.pendingCount += 1
        group.status = 'pending'
      }
      group.reports.push({
        id: row.id,
        reason: row.reason,
        details: row.details,
        reporter: row.username,
        status: row.status as ReportStatus,
        createdAt: row.created_at,
      })
    }
    const list = [...groups.values()]
      .sort((a, b) => Number(b.pendingCount > 0) - Number(a.pendingCount > 0) || b.lastReportedAt.localeCompare(a.lastReportedAt))
      .slice(0, 100)
    await describeContent(tx, list)
    return list
  })
}

async function describeContent(tx: Tx, groups: ReportGroup[]): Promise<void> {
  const idsOf = (type: ReportContentType) => groups.filter((group) => group.contentType === type).map((group) => group.contentId)
  const [videoIds, quoteIds, commentIds] = [idsOf('video'), idsOf('quote'), idsOf('comment')]
  const [videos, quotes, comments] = await Promise.all([
    videoIds.length
      ? tx
          .selectFrom('videos as v')
          .innerJoin('profiles as p', 'p.id', 'v.creator_id')
          .select(['v.id', 'v.title as label', 'v.thumbnail_path', 'v.id as video_id', 'p.username'])
          .where('v.id', 'in', videoIds)
          .execute()
      : [],
    quoteIds.length
      ? tx
          .selectFrom('quotes as q')
          .innerJoin('profiles as p', 'p.id', 'q.user_id')
          .select(['q.id', 'q.body as label', 'q.video_id', 'p.username'])
          .where('q.id', 'in', quoteIds)
          .execute()
      : [],
    commentIds.length
      ? tx
          .selectFrom('comments as c')
          .innerJoin('profiles as p', 'p.id', 'c.user_id')
          .select(['c.id', 'c.body as label', 'c.video_id', 'p.username'])
          .where('c.id', 'in', commentIds)
          .execute()
      : [],
  ])
  const found = new Map<string, { label: string; username: string; video_id: string; thumbnail_path?: string | null }>()
  for (const row of [...videos, ...quotes, ...comments]) found.set(row.id, row)
  for (const group of groups) {
    const row = found.get(group.contentId)
    if (!row) continue
    const anchor = { video: '', quote: `#quote-${group.contentId}`, comment: '#comments' }[group.contentType]
    group.content = {
      label: row.label,
      author: row.username,
      thumbnailUrl: row.thumbnail_path ? thumbnailUrl(browserSupabaseUrl(), row.thumbnail_path) : null,
      href: `/video/${row.video_id}${anchor}`,
    }
  }
}

/**
 * An admin's decision on every open report of one item (docs/product.md: States, Reports;
 * PUT /reports/{id}). `removed` removes the content the database's way: the
 * status change on one report deletes the row as the admin
 * (`public.remove_reported_content()`, counters corrected by their triggers)
 * and closes the item's other open reports; its files are removed after.
 * 404 when the item has no open report (decided already, or never reported).
 */
export async function decideReports(claims: JwtClaims | null, input: DecideReportInput): Promise<string> {
  const files = await asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    const open = tx
      .selectFrom('reports')
      .select('id')
      .where('content_type', '=', input.contentType)
      .where('content_id', '=', input.contentId)
      .where('status', '=', 'pending')
    if (input.status !== 'removed') {
      const decided = await tx
        .updateTable('reports')
        .set({ status: input.status })
        .where('id', 'in', open)
        .returning('id')
        .execute()
      if (decided.length === 0) throw new DomainError('not_found', ADMIN_MESSAGES.reportNotFound)
      return null
    }
    const first = await open.orderBy('created_at').limit(1).executeTakeFirst()
    if (!first) throw new DomainError('not_found', ADMIN_MESSAGES.reportNotFound)
    const toRemove = await filesOf(tx, input.contentType, input.contentId)
    await tx.updateTable('reports').set({ status: 'removed' }).where('id', '=', first.id).execute()
    return toRemove
  })
  if (files) await removeFiles(`${input.contentType} ${input.contentId} was removed by an admin after reports`, files)
  return ADMIN_MESSAGES[input.status]
}

/** The files of reported content, read before the row goes (quotes of a video go with it). */
async function filesOf(tx: Tx, type: ReportContentType, id: string): Promise<FilesToRemove | null> {
  if (type === 'comment') return null
  if (type === 'quote') {
    const quote = await tx.selectFrom('quotes').select('response_source_path').where('id', '=', id).executeTakeFirst()
    if (!quote) return null
    return { uploads: quote.response_source_path ? [quote.response_source_path] : [], mediaPrefix: `quotes/${id}/` }
  }
  const video = await tx
    .selectFrom('videos')
    .select(['creator_id', 'source_path', 'thumbnail_path'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!video) return null
  const quotes = await tx.selectFrom('quotes').select(['id', 'response_source_path']).where('video_id', '=', id).execute()
  return {
    uploads: [video.source_path, ...quotes.map((quote) => quote.response_source_path)].filter((path): path is string =>
      Boolean(path),
    ),
    mediaPrefix: `videos/${id}/`,
    extraMediaPrefixes: quotes.map((quote) => `quotes/${quote.id}/`),
    thumbnails: [video.thumbnail_path, `${video.creator_id}/${id}-poster.jpg`].filter((path): path is string => Boolean(path)),
  }
}

/**
 * The reporter's own reports and where each stands (Profile, My Reports):
 * newest first, with the content's title or an excerpt while the caller can
 * still see it (null once removed). Row-level security shows a user only
 * their own reports, so no filter could show anyone else's.
 */
export async function listMyReports(claims: JwtClaims | null): Promise<MyReport[]> {
  if (!claims) throw new DomainError('unauthenticated', CREATOR_MESSAGES.reportsFailed)
  return asCaller(claims, async (tx) => {
    const rows = await tx
      .selectFrom('reports as r')
      .leftJoin('videos as v', (join) => join.onRef('v.id', '=', 'r.content_id').on('r.content_type', '=', 'video'))
      .leftJoin('quotes as q', (join) => join.onRef('q.id', '=', 'r.content_id').on('r.content_type', '=', 'quote'))
      .leftJoin('comments as c', (join) => join.onRef('c.id', '=', 'r.content_id').on('r.content_type', '=', 'comment'))
      .select([
        'r.id',
        'r.content_type',
        'r.content_id',
        'r.reason',
        'r.details',
        'r.status',
        'r.created_at',
        'r.reviewed_at',
        'v.title',
        'q.body as quote_body',
        'q.video_id as quote_video_id',
        'c.body as comment_body',
        'c.video_id as comment_video_id',
      ])
      .where('r.reporter_id', '=', claims.sub)
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(200)
      .execute()
    return rows.map((row) => {
      const label = row.title ?? row.quote_body ?? row.comment_body ?? null
      const videoId =
        row.content_type === 'video' && row.title !== null ? row.content_id : (row.quote_video_id ?? row.comment_video_id ?? null)
      return {
        id: row.id,
        contentType: row.content_type as ReportContentType,
        contentId: row.content_id,
        label: label && label.length > 120 ? `${label.slice(0, 119).trimEnd()}…` : label,
        href: videoId ? `/video/${videoId}` : null,
        reason: row.reason,
        details: row.details,
        status: row.status as MyReport['status'],
        createdAt: new Date(row.created_at).toISOString(),
        reviewedAt: row.reviewed_at ? new Date(row.reviewed_at).toISOString() : null,
      }
    })
  })
}

/** One report as GET /reports lists it. */
export interface ReportEntry {
  id: string
  contentId: string
  contentType: ReportContentType
  reason: string
  details: string
  reporter: string | null
  status: ReportStatus
  createdAt: string
}

/**
 * Reports as the caller may read them, newest first: every report for an
 * admin, one's own for anyone else (the select policy decides both).
 */
export async function listReports(claims: JwtClaims, options: { limit?: number } = {}): Promise<ReportEntry[]> {
  const limit = Math.min(Math.max(options.limit ?? 200, 1), 1000)
  const rows = await asCaller(claims, (tx) =>
    tx
      .selectFrom('reports as r')
      .leftJoin('profiles as p', 'p.id', 'r.reporter_id')
      .select(['r.id', 'r.content_type', 'r.content_id', 'r.reason', 'r.details', 'r.status', 'r.created_at', 'p.username'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(limit)
      .execute(),
  )
  return rows.map((row) => ({
    id: row.id,
    contentId: row.content_id,
    contentType: row.content_type as ReportContentType,
    reason: row.reason,
    details: row.details,
    reporter: row.username,
    status: row.status as ReportStatus,
    createdAt: new Date(row.created_at).toISOString(),
  }))
}

/**
 * An admin's decision named by one report's id (PUT /reports/{id}): the
 * decision applies to every open report of the same content, as in the
 * console (`decideReports`). 404 when the admin finds no such report.
 */
export async function decideReport(claims: JwtClaims | null, reportId: string, status: ReportDecision): Promise<string> {
  const report = await asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    if (!isUuid(reportId)) return null
    return tx.selectFrom('reports').select(['content_type', 'content_id']).where('id', '=', reportId).executeTakeFirst()
  })
  if (!report) throw new DomainError('not_found', ADMIN_MESSAGES.reportNotFound)
  return decideReports(claims, { contentType: report.content_type as ReportContentType, contentId: report.content_id, status })
}
