import type { ActionFunctionArgs } from '@remix-run/node'
import { isDomainError } from '~/server/errors.server'
import { jsonFailure } from '~/server/http/domain-errors.server'
import { setPlaybackRate } from '~/server/playback.server'
import { getSession } from '~/server/session.server'

/**
 * POST /profile/playback-speed — the player's speed menu saves the learner's
 * choice here with JavaScript (form-encoded `playbackRate`; ADR 0043). Answers
 * `{ playbackRate }`, or the refusal as JSON (400 not a step from 0.5× to 2×,
 * 401 signed out). Without JavaScript the speed is set on Edit Profile.
 * Cross-site posts are refused before this runs (same-origin guard).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
  const { claims, headers } = await getSession(request, context)
  const form = await request.formData().catch(() => new FormData())
  try {
    const playbackRate = await setPlaybackRate(claims, form.get('playbackRate'))
    return Response.json({ playbackRate }, { headers })
  } catch (error) {
    if (isDomainError(error)) return jsonFailure(error, headers)
    throw error
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: 'POST' } })
}
