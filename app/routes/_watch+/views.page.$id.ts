import type { LoaderFunctionArgs } from '@remix-run/node'
import { getSession } from '~/server/session.server'
import { recordPageView } from '~/server/views.server'

/**
 * GET /views/page/:id — the no-JavaScript view (ADR 0015): the video page
 * puts this image inside `<noscript>`, so only a browser without scripts
 * loads it, and a signed-in viewer's page view counts once per video and
 * hour. With JavaScript the player's progress reports count instead. Only
 * our own pages may count (`Sec-Fetch-Site`); prefetches never do. Always a
 * transparent 1×1 GIF, never cached.
 */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, headers } = await getSession(request, context)
  const site = request.headers.get('Sec-Fetch-Site')
  const purpose = `${request.headers.get('Sec-Purpose') ?? ''} ${request.headers.get('Purpose') ?? ''}`
  if ((!site || site === 'same-origin') && !/prefetch|prerender/i.test(purpose)) {
    await recordPageView(claims, params.id ?? '')
  }
  headers.set('Content-Type', 'image/gif')
  headers.set('Cache-Control', 'no-store')
  return new Response(PIXEL, { status: 200, headers })
}
