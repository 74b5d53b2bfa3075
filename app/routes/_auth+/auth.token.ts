import type { LoaderFunctionArgs } from '@remix-run/node'
import { mergeHeaders } from '~/server/http/responses.server'
import { getSession } from '~/server/session.server'

/**
 * The signed-in visitor's current access token, for the one thing the
 * browser sends to Supabase itself: a resumable (tus) upload to Storage. The
 * session cookies are HttpOnly, so page scripts cannot read them; this hands
 * out only the short-lived access token (never the refresh token), refreshed
 * first when it is about to expire, and never cached. A page on another
 * origin cannot read the answer (no CORS).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await getSession(request, context)
  const headers = mergeHeaders(session.headers, { 'Cache-Control': 'no-store' })
  if (!session.user) return Response.json({ error: 'No authentication token found' }, { status: 401, headers })
  const { data } = await session.supabase.auth.getSession()
  const token = data.session
  if (!token) return Response.json({ error: 'No authentication token found' }, { status: 401, headers })
  return Response.json({ accessToken: token.access_token, expiresAt: token.expires_at ?? null }, { headers })
}
