import { sql } from 'kysely'
import type { CategoryRequest, PendingApplication } from '~/lib/admin-types'
import { isUuid } from '~/lib/ids'
import { ADMIN_MESSAGES, type ReviewCategoryInput, type ReviewInput } from '~/lib/schemas/admin'
import { asCaller, asServiceRole, type JwtClaims, type Tx } from './db.server'
import { DomainError, isPermissionError } from './errors.server'
import { allowed } from './permissions.server'
import { forBrowser, serviceClient, type Supabase } from './supabase.server'

/**
 * Creator applications (docs/product.md: Admin, Pending Creators; GET/PUT
 * /admin/creator-applications). Read and reviewed as the admin: row-level
 * security shows admins every application, and
 * `public.review_creator_application()` refuses anyone else (42501), approves
 * (verifies the creator, approves their pending categories) or rejects, and
 * the audit trail records it (a trigger).
 */

/** The columns of `public.profile_private()`: fields only the user and admins may read. */
interface PrivateFields {
  id: string
  field_of_interest: string | null
  concentration: string | null
  interests: string[]
  portfolio_path: string | null
  portfolio_type: string | null
}

/** Refuses a caller Postgres does not take for an admin. */
export async function assertAdmin(tx: Tx, claims: JwtClaims | null): Promise<void> {
  if (!claims) throw new DomainError('unauthenticated', ADMIN_MESSAGES.forbidden)
  if (!(await allowed(tx, sql<boolean>`public.is_admin()`))) throw new DomainError('forbidden', ADMIN_MESSAGES.forbidden)
}

export async function listPendingApplications(claims: JwtClaims | null): Promise<PendingApplication[]> {
  if (!claims) throw new DomainError('unauthenticated', ADMIN_MESSAGES.forbidden)
  return asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    const rows = await tx
      .selectFrom('creator_applications as a')
      .innerJoin('profiles as p', 'p.id', 'a.creator_id')
      // The private fields come from public.profile_private(), which answers admins (and the user).
      .leftJoin(sql<PrivateFields>`public.profile_private(array[a.creator_id])`.as('pp'), (join) => join.onTrue())
      .select([
        'a.id',
        'a.creator_id',
        'a.created_at',
        'a.portfolio_path',
        'a.portfolio_type',
        'p.username',
        'p.bio',
        'pp.concentration',
        'pp.field_of_interest',
        'pp.portfolio_path as profile_portfolio_path',
        'pp.portfolio_type as profile_portfolio_type',
      ])
      .where('a.status', '=', 'pending')
      .orderBy('a.created_at', 'asc')
      .orderBy('a.id', 'asc')
      .limit(200)
      .execute()
    if (rows.length === 0) return []
    const ids = rows.map((row) => row.creator_id)
    const [categories, emails] = await Promise.all([
      tx
        .selectFrom('creator_categories as cc')
        .innerJoin('categories as c', 'c.id', 'cc.category_id')
        .select(['cc.creator_id', 'c.id', 'c.name', 'cc.status'])
        .where('cc.creator_id', 'in', ids)
        .orderBy('c.name')
        .execute(),
      sql<{ id: string; email: string }>`select id, email from public.user_emails(${sql.val(ids)}::uuid[])`.execute(tx),
    ])
    const emailOf = new Map(emails.rows.map((row) => [row.id, row.email]))
    return rows.map((row) => {
      const portfolioType = (row.portfolio_type ?? row.profile_portfolio_type) as PendingApplication['portfolioType']
      return {
        id: row.id,
        creatorId: row.creator_id,
        username: row.username,
        email: emailOf.get(row.creator_id) ?? null,
        bio: row.bio,
        concentration: row.concentration,
        fieldOfInterest: row.field_of_interest,
        categories: categories
          .filter((category) => category.creator_id === row.creator_id)
          .map((category) => ({
            id: category.id,
            name: category.name,
            status: category.status as PendingApplication['categories'][number]['status'],
          })),
        appliedAt: row.created_at,
        hasPortfolio: Boolean(row.portfolio_path ?? row.profile_portfolio_path),
        portfolioType,
      }
    })
  })
}

/**
 * Approves or rejects a pending application, then asks the
 * `application-reviewed` function to email the creator (with the admin's own
 * token: the function checks again who is asking). A failed email is logged,
 * not thrown: the review stands.
 */
export async function reviewApplication(
  caller: { claims: JwtClaims | null; supabase?: Supabase },
  input: ReviewInput,
): Promise<'approved' | 'rejected'> {
  const { claims } = caller
  if (!claims) throw new DomainError('unauthenticated', ADMIN_MESSAGES.forbidden)
  if (!isUuid(input.applicationId)) throw new DomainError('not_found', ADMIN_MESSAGES.applicationNotFound)
  try {
    await asCaller(claims, (tx) =>
      sql`select id from public.review_creator_application(${input.applicationId}::uuid, ${input.approved}, ${input.reviewNotes})`.execute(
        tx,
      ),
    )
  } catch (error) {
    if (isPermissionError(error)) throw new DomainError('forbidden', ADMIN_MESSAGES.forbidden)
    if ((error as { code?: unknown }).code === 'P0002') throw new DomainError('not_found', ADMIN_MESSAGES.applicationNotFound)
    throw error
  }
  if (caller.supabase) await notifyCreator(caller.supabase, input.applicationId)
  return input.approved ? 'approved' : 'rejected'
}

/**
 * Verified creators' new category requests (pending creator_categories rows of
 * a creator who is already verified; an unverified creator's categories are
 * decided with their application), one entry per creator, oldest first.
 */
export async function listCategoryRequests(claims: JwtClaims | null): Promise<CategoryRequest[]> {
  if (!claims) throw new DomainError('unauthenticated', ADMIN_MESSAGES.forbidden)
  return asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    const rows = await tx
      .selectFrom('creator_categories as cc')
      .innerJoin('profiles as p', 'p.id', 'cc.creator_id')
      .innerJoin('categories as c', 'c.id', 'cc.category_id')
      .select(['cc.creator_id', 'cc.category_id', 'cc.created_at', 'c.name', 'p.username'])
      .where('cc.status', '=', 'pending')
      .where('p.role', '=', 'creator')
      .where('p.is_verified', '=', true)
      .orderBy('cc.created_at', 'asc')
      .orderBy('c.position', 'asc')
      .limit(500)
      .execute()
    if (rows.length === 0) return []
    const ids = [...new Set(rows.map((row) => row.creator_id))]
    const emails = await sql<{
      id: string
      email: string
    }>`select id, email from public.user_emails(${sql.val(ids)}::uuid[])`.execute(tx)
    const emailOf = new Map(emails.rows.map((row) => [row.id, row.email]))
    const byCreator = new Map<string, CategoryRequest>()
    for (const row of rows) {
      const entry = byCreator.get(row.creator_id) ?? {
        creatorId: row.creator_id,
        username: row.username,
        email: emailOf.get(row.creator_id) ?? null,
        categories: [],
      }
      entry.categories.push({ id: row.category_id, name: row.name, requestedAt: row.created_at })
      byCreator.set(row.creator_id, entry)
    }
    return [...byCreator.values()]
  })
}

/** Approves or rejects one category request (`public.review_category_request()`: admins only, audited). */
export async function reviewCategoryRequest(
  claims: JwtClaims | null,
  input: ReviewCategoryInput,
): Promise<'categoryApproved' | 'categoryRejected'> {
  if (!claims) throw new DomainError('unauthenticated', ADMIN_MESSAGES.forbidden)
  if (!isUuid(input.creatorId)) throw new DomainError('not_found', ADMIN_MESSAGES.categoryNotFound)
  try {
    await asCaller(claims, (tx) =>
      sql`select creator_id from public.review_category_request(${input.creatorId}::uuid, ${input.categoryId}, ${input.approved})`.execute(
        tx,
      ),
    )
  } catch (error) {
    if (isPermissionError(error)) throw new DomainError('forbidden', ADMIN_MESSAGES.forbidden)
    if ((error as { code?: unknown }).code === 'P0002') throw new DomainError('not_found', ADMIN_MESSAGES.categoryNotFound)
    throw error
  }
  return input.approved ? 'categoryApproved' : 'categoryRejected'
}

async function notifyCreator(supabase: Supabase, applicationId: string): Promise<void> {
  try {
    const result = await Promise.race([
      supabase.functions.invoke('application-reviewed', { body: { applicationId } }),
      new Promise<{ error: Error }>((resolve) => setTimeout(() => resolve({ error: new Error('timed out after 5 s') }), 5000)),
    ])
    if (result.error) console.warn(`[applications] the review email for ${applicationId} was not sent: ${result.error.message}`)
  } catch (error) {
    console.warn(
      `[applications] the review email for ${applicationId} was not sent:`,
      error instanceof Error ? error.message : error,
    )
  }
}

/** Browsers may show these in a tab; anything else is sent as a download. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|video\/(mp4|webm|quicktime)|application\/pdf)$/

/**
 * A short-lived signed URL of the creator's portfolio (the private
 * `portfolios` bucket), for an admin only: Postgres says who is an admin,
 * and only then is the URL signed with the service role. 404 'No portfolio
 * available for this creator.' when there is none, or its file is gone.
 */
export async function portfolioUrl(claims: JwtClaims | null, creatorId: string): Promise<string> {
  if (!claims) throw new DomainError('unauthenticated', ADMIN_MESSAGES.forbidden)
  const none = new DomainError('not_found', ADMIN_MESSAGES.noPortfolio)
  const path = await asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    if (!isUuid(creatorId)) throw none
    const profile = await sql<{ portfolio_path: string | null }>`
      select portfolio_path from public.profile_private(array[${creatorId}]::uuid[])`.execute(tx)
    if (profile.rows[0]?.portfolio_path) return profile.rows[0].portfolio_path
    const application = await tx
      .selectFrom('creator_applications')
      .select('portfolio_path')
      .where('creator_id', '=', creatorId)
      .where('portfolio_path', 'is not', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst()
    return application?.portfolio_path ?? null
  })
  if (!path) throw none
  const object = await asServiceRole('the portfolio an admin asked to see: its type decides inline or download', (tx) =>
    sql<{ mimetype: string | null }>`
      select metadata ->> 'mimetype' as mimetype from storage.objects where bucket_id = 'portfolios' and name = ${path}`.execute(
      tx,
    ),
  )
  const mimetype = object.rows[0]?.mimetype
  if (object.rows.length === 0) throw none
  const inline = INLINE_TYPES.test(mimetype ?? '')
  const { data, error } = await serviceClient()
    .storage.from('portfolios')
    .createSignedUrl(path, 60, inline ? undefined : { download: path.split('/').pop() ?? true })
  if (error || !data?.signedUrl) throw none
  return forBrowser(data.signedUrl)
}

/** Fix Portfolio Issues: `public.fix_portfolios()` reconciles and answers how many rows it fixed. */
export async function fixPortfolios(claims: JwtClaims | null): Promise<number> {
  if (!claims) throw new DomainError('unauthenticated', ADMIN_MESSAGES.forbidden)
  try {
    const result = await asCaller(claims, (tx) => sql<{ fixed: number }>`select public.fix_portfolios() as fixed`.execute(tx))
    return Number(result.rows[0]?.fixed ?? 0)
  } catch (error) {
    if (isPermissionError(error)) throw new DomainError('forbidden', ADMIN_MESSAGES.forbidden)
    throw error
  }
}
