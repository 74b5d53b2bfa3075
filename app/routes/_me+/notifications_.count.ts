import type { LoaderFunctionArgs } from '@remix-run/node'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { unreadCount } from '~/server/notifications.server'
import { getSession } from '~/server/session.server'

/** GET /notifications/count — `{ unread }` for the bell's refresh (the session cookie; 0 when signed out). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await getSession(request, context)
  return jsonWithHeaders({ unread: await unreadCount(claims) }, 200, headers, { 'Cache-Control': 'no-store' })
}
