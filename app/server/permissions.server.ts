import { data, redirect } from '@remix-run/node'
import { sql, type RawBuilder } from 'kysely'
import { ADMIN_MESSAGES } from '~/lib/schemas/admin'
import { UPLOAD_MESSAGES } from '~/lib/schemas/upload'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { redirectWithFlash } from './http/flash.server'
import { getSession, returnTo, type Role, type SignedInSession } from './session.server'
import type { LumenLoadContext } from './supabase.server'

/**
 * The one home of "who may": the guards routes call first, and the friendly
 * pre-checks that let a page explain a refusal before the database makes it.
 * Pre-checks ask Postgres (`public.is_admin()`, `public.is_verified_creator()`,
 * `public.can_use_category()`, `public.can_delete_*()`) rather than restating
 * a rule here: the policies that enforce the rules call the same functions.
 */

/**
 * The signed-in visitor, or a redirect to /login that remembers where they
 * were going. `verify: true` also asks Auth whether the session is still
 * live (banned, say) — for actions that change things; every request already
 * checks that the session was not ended (see getSession).
 */
export async function requireUser(
  request: Request,
  context?: Partial<LumenLoadContext>,
  options: { verify?: boolean } = {},
): Promise<SignedInSession> {
  const session = await getSession(request, context)
  if (session.user && session.claims && options.verify) {
    const { error } = await session.supabase.auth.getUser()
    if (error) {
      await session.supabase.auth.signOut({ scope: 'local' })
      session.user = null
    }
  }
  if (!session.user || !session.claims) {
    throw redirect(`/login?redirectTo=${encodeURIComponent(returnTo(request))}`, { headers: session.headers })
  }
  return session as SignedInSession
}

/** As `requireUser`, and the visitor must hold one of `roles`; others are sent to `fallback`. */
export async function requireRole(
  request: Request,
  context: Partial<LumenLoadContext> | undefined,
  roles: Role[],
  fallback = '/profile',
): Promise<SignedInSession> {
  const session = await requireUser(request, context, { verify: true })
  if (!roles.includes(session.user.role)) throw redirect(fallback, { headers: session.headers })
  return session
}

/**
 * The signed-in admin (Postgres decides: `public.is_admin()`), for the admin
 * console's loaders and actions. Signed out: to /login. Anyone else: a 403
 * response the route's error boundary shows — and the data would be refused
 * by Postgres anyway.
 */
export async function requireAdmin(request: Request, context: Partial<LumenLoadContext> | undefined): Promise<SignedInSession> {
  const session = await requireUser(request, context, { verify: true })
  if (await isAdmin(session.claims)) return session
  throw data(ADMIN_MESSAGES.forbidden, { status: 403, headers: session.headers })
}

/**
 * The visitor, when they may upload (Postgres decides: verified creators and
 * admins). Others are sent away with a flash — learners to the feed (they
 * can quote a video instead), creators still waiting for verification to
 * their profile.
 */
export async function requireUploader(
  request: Request,
  context: Partial<LumenLoadContext> | undefined,
  options: { verify?: boolean } = {},
): Promise<SignedInSession> {
  const session = await requireUser(request, context, options)
  if (await canUpload(session.claims)) return session
  if (session.user.role === 'creator') {
    // No toast: the page's Account Verification Required panel is the one message (docs/product.md, Rules and messages).
    throw redirect('/profile?verification=required', { headers: session.headers })
  }
  throw await redirectWithFlash('/feed', { kind: 'info', message: UPLOAD_MESSAGES.notCreator }, session.headers)
}

/** Whether the caller may publish videos: the insert policy's own test. */
export async function canUpload(caller: JwtClaims): Promise<boolean> {
  return ask(caller, sql<boolean>`public.is_verified_creator() or public.is_admin()`)
}

/** Whether the caller may publish in `category` (`public.can_use_category`, which the insert policy applies). */
export async function canUseCategory(caller: JwtClaims, category: string): Promise<boolean> {
  return ask(caller, sql<boolean>`public.can_use_category(${category})`)
}

/** Whether the caller is an admin, as the policies judge it. */
export async function isAdmin(caller: JwtClaims | null): Promise<boolean> {
  return caller ? ask(caller, sql<boolean>`public.is_admin()`) : false
}

/** Asks Postgres a yes/no question about the caller, in their own transaction. */
export async function allowed(tx: Tx, question: RawBuilder<boolean>): Promise<boolean> {
  const { rows } = await sql<{ answer: boolean }>`select ${question} as answer`.execute(tx)
  return rows[0]?.answer === true
}

function ask(caller: JwtClaims, question: RawBuilder<boolean>): Promise<boolean> {
  return asCaller(caller, (tx) => allowed(tx, question))
}

/** The video's id and owner when the caller can see it (row-level security decides). */
export function visibleVideo(tx: Tx, id: string) {
  return tx.selectFrom('videos').select(['id', 'creator_id']).where('id', '=', id).executeTakeFirst()
}
