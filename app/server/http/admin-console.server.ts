import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { data } from '@remix-run/node'
import {
  ADMIN_ACTION_FAILURES,
  ADMIN_LOAD_FAILURES,
  ADMIN_MESSAGES,
  adminIntentSchema,
  type AdminIntent,
  type AdminTab,
} from '~/lib/schemas/admin'
import type { JwtClaims } from '../db.server'
import { isDomainError, type DomainError } from '../errors.server'
import { requireAdmin } from '../permissions.server'
import { flashFailure } from './domain-errors.server'
import { redirectWithFlash } from './flash.server'
import { jsonWithHeaders } from './responses.server'

/**
 * What the admin console's routes (app/routes/admin+/: a layout and a route per tab, ADR 0061)
 * share: admins only (signed out goes to /login, anyone else gets 403 — and Postgres refuses
 * them the data anyway), a tab that cannot load says so in its own words instead of failing the
 * console, and every action is a plain form post answered with a redirect back and a flash.
 */

/** What every tab's loader returns beside its own data: `?confirm=<id>` (the no-JS confirmation) and a load failure. */
export type AdminTabData<T> = ({ loadError: null } & T) | { loadError: string }

/** A tab's loader: `load` reads its data as the admin; an unexpected failure becomes the tab's load message. */
export async function loadAdminTab<T extends object>(
  { request, context }: LoaderFunctionArgs,
  tab: AdminTab,
  load: (claims: JwtClaims, url: URL) => Promise<T>,
) {
  const { claims, headers } = await requireAdmin(request, context)
  const url = new URL(request.url)
  const confirm = url.searchParams.get('confirm')
  try {
    const loaded: AdminTabData<T> = { loadError: null, ...(await load(claims, url)) }
    return jsonWithHeaders({ confirm, ...loaded }, 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    console.warn(`[admin] loading ${tab} failed:`, error instanceof Error ? error.message : error)
    const failed: AdminTabData<T> = { loadError: ADMIN_LOAD_FAILURES[tab] }
    return jsonWithHeaders({ confirm, ...failed }, 200, headers)
  }
}

export interface AdminActionContext {
  claims: JwtClaims
  form: FormData
  headers: Headers
}

/**
 * A tab's action: the intent must be one of `intents` (400 otherwise); `handle` does it and returns
 * the success flash. A refusal goes back
 * to `back` with its message as a flash, unless `onRefusal` answers it (a form failure shown in place); an unexpected failure with
 * the intent's failure message.
 */
export async function adminAction<I extends AdminIntent, Refusal = never>(
  { request, context }: ActionFunctionArgs,
  intents: readonly I[],
  back: (form: FormData) => string,
  handle: (intent: I, action: AdminActionContext) => Promise<string>,
  onRefusal?: (intent: I, error: DomainError | null, action: AdminActionContext) => Refusal | null,
): Promise<Response | Refusal> {
  const { claims, headers } = await requireAdmin(request, context)
  const form = await request.formData()
  const parsed = adminIntentSchema.safeParse(form.get('intent'))
  if (!parsed.success || !(intents as readonly string[]).includes(parsed.data)) {
    throw data(ADMIN_MESSAGES.unknownAction, { status: 400, headers })
  }
  const intent = parsed.data as I
  const to = back(form)
  const action = { claims, form, headers }
  try {
    return await redirectWithFlash(to, { kind: 'success', message: await handle(intent, action) }, headers)
  } catch (error) {
    if (isDomainError(error)) {
      if (error.status === 403) throw data(error.message, { status: 403, headers })
      return onRefusal?.(intent, error, action) ?? flashFailure(error, to, headers)
    }
    console.warn(`[admin] ${intent} failed:`, error instanceof Error ? error.message : error)
    return (
      onRefusal?.(intent, null, action) ??
      redirectWithFlash(to, { kind: 'error', message: ADMIN_ACTION_FAILURES[intent] }, headers)
    )
  }
}
