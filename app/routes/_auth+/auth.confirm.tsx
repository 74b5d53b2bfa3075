import type { LoaderFunctionArgs } from '@remix-run/node'
import { RECOVERY_LINK_TYPES, verifyEmailLink, type RecoveryLinkType } from '~/server/accounts.server'
import { redirectWithHeaders } from '~/server/http/responses.server'
import { safeRedirect } from '~/server/session.server'
import { createSupabaseServerClient } from '~/server/supabase.server'

/**
 * Where emailed links land (Supabase's server-side template):
 * `/auth/confirm?token_hash=…&type=recovery&next=/reset-password`. Spending
 * the token signs the visitor in (session cookies), then they go on to
 * `next` — a path on this site only. A used, expired or malformed link goes
 * back to the reset form with a message saying so.
 */
const isLinkType = (type: string | null): type is RecoveryLinkType =>
  (RECOVERY_LINK_TYPES as readonly (string | null)[]).includes(type)

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const tokenHash = url.searchParams.get('token_hash')
  const type = url.searchParams.get('type')
  const { supabase, headers } = createSupabaseServerClient(request, context)
  if (tokenHash && isLinkType(type) && (await verifyEmailLink(supabase, tokenHash, type))) {
    const fallback = type === 'recovery' ? '/reset-password' : '/profile'
    throw redirectWithHeaders(safeRedirect(url.searchParams.get('next'), fallback), headers)
  }
  throw redirectWithHeaders('/login?mode=reset&error=link-expired', headers)
}
