import { sql } from 'kysely'
import type { AdminUser, AuditEntry, UsersPage } from '~/lib/admin-types'
import { isUuid } from '~/lib/ids'
import { ADMIN_MESSAGES, type AddUserInput, type UserRole } from '~/lib/schemas/admin'
import { assertAdmin } from './applications.server'
import { asCaller, type JwtClaims } from './db.server'
import { DomainError, isPermissionError } from './errors.server'
import { removeFiles, type FilesToRemove } from './storage.server'
import { serviceClient } from './supabase.server'

/**
 * User management (docs/product.md: Admin, User Management; GET/POST/DELETE
 * /admin/users). Everything runs as the admin, so Postgres decides:
 * `public.list_users()` refuses non-admins, the profiles delete policy lets
 * admins delete anyone but themselves (the auth user goes with the profile,
 * everything they own by cascade), the profile guard lets only admins change
 * a role. Adding a user is the one step taken with the service role (the
 * Auth admin API creates accounts), after Postgres said the caller is an
 * admin. The audit trail records each action (triggers, `record_user_added`).
 */

const PAGE_SIZE = 25

/** `<created_at>~<id>` of the last user shown: the next page starts after it. */
function parseCursor(cursor: string | null | undefined): { createdAt: string; id: string } | null {
  const [createdAt, id] = (cursor ?? '').split('~')
  if (!createdAt || !isUuid(id) || Number.isNaN(Date.parse(createdAt))) return null
  return { createdAt, id }
}

export async function listUsers(
  claims: JwtClaims | null,
  options: { search?: string; cursor?: string | null } = {},
): Promise<UsersPage> {
  const after = parseCursor(options.cursor)
  const search = (options.search ?? '').split('\u0000').join('').slice(0, 100)
  return asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    const { rows } = await sql<{
      id: string
      email: string
      username: string
      role: UserRole
      is_verified: boolean
      created_at: string
    }>`select * from public.list_users(${search || null}, ${PAGE_SIZE + 1}, ${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::uuid)`.execute(tx)
    const page = rows.slice(0, PAGE_SIZE)
    const ids = page.map((row) => row.id)
    const counts = ids.length
      ? await tx
          .selectFrom('videos')
          .select(['creator_id', (eb) => eb.fn.countAll<string>().as('count')])
          .where('creator_id', 'in', ids)
          .groupBy('creator_id')
          .execute()
      : []
    const countOf = new Map(counts.map((row) => [row.creator_id, Number(row.count)]))
    const users: AdminUser[] = page.map((row) => ({
      id: row.id,
      username: row.username,
      email: row.email,
      role: row.role,
      isVerified: row.is_verified,
      createdAt: row.created_at,
      videoCount: countOf.get(row.id) ?? 0,
      isCurrentUser: row.id === claims!.sub,
    }))
    const last = users.at(-1)
    return { users, next: rows.length > PAGE_SIZE && last ? `${last.createdAt}~${last.id}` : null }
  })
}

/**
 * Adds a user who can sign in at once (email confirmed). Creators are
 * approved straight away (an admin vouches for them), admins promoted by the
 * caller: both through the same rules as the console's other actions.
 */
export async function addUser(claims: JwtClaims | null, input: AddUserInput): Promise<string> {
  await asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    const taken = await tx
      .selectFrom('profiles')
      .select('id')
      .where(sql<boolean>`lower(username) = lower(${input.username})`)
      .executeTakeFirst()
    if (taken) throw new DomainError('conflict', ADMIN_MESSAGES.usernameTaken, { username: ADMIN_MESSAGES.usernameTaken })
  })
  const { data, error } = await serviceClient().auth.admin.createUser({
    email: input.email,
    password: input.password,
    email_confirm: true,
    user_metadata: { username: input.username, role: input.role === 'creator' ? 'creator' : 'user' },
  })
  if (error || !data.user) {
    if (error?.code === 'email_exists' || error?.status === 422) {
      throw new DomainError('conflict', ADMIN_MESSAGES.emailTaken, { email: ADMIN_MESSAGES.emailTaken })
    }
    throw new Error(`Auth refused the new user: ${error?.message ?? 'no user'}`)
  }
  const id = data.user.id
  await asCaller(claims, async (tx) => {
    if (input.role === 'admin') await tx.updateTable('profiles').set({ role: 'admin' }).where('id', '=', id).execute()
    if (input.role === 'creator') {
      const application = await tx
        .selectFrom('creator_applications')
        .select('id')
        .where('creator_id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      if (application) {
        await sql`select public.review_creator_application(${application.id}::uuid, true, ${'Added by an admin'})`.execute(tx)
      }
    }
    await sql`select public.record_user_added(${id}::uuid)`.execute(tx)
  })
  return id
}

/**
 * Deletes another user and everything they own: their rows go by cascade
 * (the profile delete removes the auth user too), their files here. The
 * admin's own row is refused by the delete policy: 403 (Current User).
 */
export async function deleteUser(claims: JwtClaims | null, userId: string): Promise<void> {
  if (!isUuid(userId)) throw new DomainError('not_found', ADMIN_MESSAGES.userNotFound)
  const files = await asCaller(claims, async (tx): Promise<FilesToRemove> => {
    await assertAdmin(tx, claims)
    const videos = await tx.selectFrom('videos').select('id').where('creator_id', '=', userId).execute()
    const videoIds = videos.map((video) => video.id)
    const quotes = await tx
      .selectFrom('quotes')
      .select('id')
      .where((eb) => (videoIds.length ? eb.or([eb('user_id', '=', userId), eb('video_id', 'in', videoIds)]) : eb('user_id', '=', userId)))
      .execute()
    const deleted = await tx.deleteFrom('profiles').where('id', '=', userId).returning('id').executeTakeFirst()
    if (!deleted) {
      if (userId === claims!.sub) throw new DomainError('forbidden', ADMIN_MESSAGES.cannotDeleteSelf)
      throw new DomainError('not_found', ADMIN_MESSAGES.userNotFound)
    }
    const folder = `${userId}/`
    return {
      extraMediaPrefixes: [...videoIds.map((id) => `videos/${id}/`), ...quotes.map((quote) => `quotes/${quote.id}/`)],
      folders: (['uploads', 'thumbnails', 'avatars', 'portfolios'] as const).map((bucket) => ({ bucket, prefix: folder })),
    }
  })
  await removeFiles(`user ${userId} was deleted by an admin: their files go with them`, files)
}

/**
 * Changes another user's role (takes effect on their next request: rights are
 * read from the database each time). A creator made by an admin is verified.
 */
export async function changeRole(claims: JwtClaims | null, userId: string, role: UserRole): Promise<void> {
  if (!isUuid(userId)) throw new DomainError('not_found', ADMIN_MESSAGES.userNotFound)
  if (claims && userId === claims.sub) throw new DomainError('forbidden', ADMIN_MESSAGES.cannotChangeOwnRole)
  try {
    await asCaller(claims, async (tx) => {
      await assertAdmin(tx, claims)
      const changed = await tx
        .updateTable('profiles')
        .set(role === 'creator' ? { role, is_verified: true } : { role })
        .where('id', '=', userId)
        .returning('id')
        .executeTakeFirst()
      if (!changed) throw new DomainError('not_found', ADMIN_MESSAGES.userNotFound)
    })
  } catch (error) {
    if (isPermissionError(error)) throw new DomainError('forbidden', ADMIN_MESSAGES.forbidden)
    throw error
  }
}

/** The audit trail, newest first (admins only: the select policy). */
export async function listAudit(claims: JwtClaims | null, options: { limit?: number } = {}): Promise<AuditEntry[]> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100)
  return asCaller(claims, async (tx) => {
    await assertAdmin(tx, claims)
    const rows = await tx
      .selectFrom('admin_audit')
      .select(['id', 'actor_username', 'action', 'target_type', 'target_label', 'details', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
    return rows.map((row) => ({
      id: row.id,
      actor: row.actor_username,
      action: row.action,
      targetType: row.target_type,
      targetLabel: row.target_label,
      details: (row.details ?? {}) as Record<string, unknown>,
      createdAt: row.created_at,
    }))
  })
}
