import type { ActionFunctionArgs } from '@remix-run/node'
import { parseCookieHeader } from '@supabase/ssr'
import { redirectWithFlash } from '~/server/http/flash.server'
import { redirectWithHeaders } from '~/server/http/responses.server'
import { getSession } from '~/server/session.server'

export const SIGNED_OUT_MESSAGE = 'You have been signed out.'

/** Signing out changes state, so it is a POST only; a GET (a typed URL, a prefetch) goes home. */
export function loader() {
  return redirectWithHeaders('/')
}

/**
 * Sign Out (docs/product.md: Layout; state: logout removes the token and clears the
 * user). Ends this session at Auth — its refresh token can no longer be used —
 * and clears the cookies, then opens /login with a flash message.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { supabase, headers } = await getSession(request, context)
  const { error } = await supabase.auth.signOut({ scope: 'local' })
  if (error) {
    // Auth could not be reached: the session still ends in this browser.
    for (const { name } of parseCookieHeader(request.headers.get('Cookie') ?? '')) {
      if (/^sb-.+-auth-token(\.\d+)?$/.test(name) && !headers.getSetCookie().some((cookie) => cookie.startsWith(`${name}=`))) {
        headers.append('Set-Cookie', `${name}=; Path=/; Max-Age=0; SameSite=Lax`)
      }
    }
  }
  return redirectWithFlash('/login', { kind: 'success', message: SIGNED_OUT_MESSAGE }, headers)
}
