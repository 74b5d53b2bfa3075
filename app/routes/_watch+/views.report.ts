import { randomUUID } from 'node:crypto'
import type { ActionFunctionArgs } from '@remix-run/node'
import { isDomainError } from '~/server/errors.server'
import { jsonFailure } from '~/server/http/domain-errors.server'
import { getSession } from '~/server/session.server'
import { reportWatch, type Viewer } from '~/server/views.server'

/**
 * POST /views/report — the player's progress reports (form-encoded: session,
 * video, played, tenths; see `useWatchReporter`). A signed-in viewer reports
 * as themselves; a visitor under a per-browser key kept in an HttpOnly cookie
 * (set here on their first report). Answers `{ counted }`, or the refusal as
 * JSON (400 unreadable, 404 a video the caller cannot see). Cross-site posts
 * are refused before this runs (same-origin guard).
 */
const BROWSER_KEY_COOKIE = 'lumen_vk'
const KEY_PATTERN = /^[0-9a-f-]{36}$/

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
  const { claims, headers } = await getSession(request, context)
  let viewer: Viewer
  if (claims) {
    viewer = { claims }
  } else {
    const existing = readCookie(request.headers.get('Cookie'), BROWSER_KEY_COOKIE)
    const key = existing && KEY_PATTERN.test(existing) ? existing : randomUUID()
    if (key !== existing) {
      headers.append(
        'Set-Cookie',
        `${BROWSER_KEY_COOKIE}=${key}; Path=/views; Max-Age=31536000; HttpOnly; SameSite=Lax${secure(request)}`,
      )
    }
    viewer = { browserKey: key }
  }
  const form = await request.formData().catch(() => new FormData())
  try {
    const result = await reportWatch(viewer, Object.fromEntries(form))
    return Response.json(result, { headers })
  } catch (error) {
    if (isDomainError(error)) return jsonFailure(error, headers)
    throw error
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: 'POST' } })
}

function readCookie(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=')
  }
  return null
}

function secure(request: Request): string {
  return new URL(request.url).protocol === 'https:' ? '; Secure' : ''
}
