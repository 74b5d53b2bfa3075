import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import type { FormFailure } from '~/lib/forms'
import { followSchema, CREATOR_MESSAGES } from '~/lib/schemas/creators'
import type { FollowState } from '~/lib/creator-types'
import { DomainError, isDomainError } from '~/server/errors.server'
import { setFollow } from '~/server/follows.server'
import { flashFailure, pageFailure } from '~/server/http/domain-errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { getSession, safeRedirect } from '~/server/session.server'

/**
 * POST /follow — the follow toggle of cards, creator pages, the video page
 * and the Following tab (docs/product.md: Creator profile, Profile; POST /users/follow/{id}). Fields:
 * `creatorId`, `follow` ('true' or 'false': the state asked for),
 * `redirectTo` (the page to go back to) and `js=1` from scripts.
 *
 * A plain form post is answered with a redirect back (post/redirect/get),
 * with a flash on failure; a script gets `{ ok, isFollowing, followers }` or
 * `{ ok: false, formError }` (app/lib/forms.ts). Signed out: to /login with 'Please log in to
 * follow creators', coming back to the page afterwards.
 */
export type FollowActionData = ({ ok: true } & FollowState) | (FormFailure & { formError: string; login?: string })

export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await getSession(request, context)
  const form = await request.formData()
  const back = safeRedirect(form.get('redirectTo'), '/creators')
  const scripted = form.get('js') === '1'
  if (!claims) {
    const login = `/login?redirectTo=${encodeURIComponent(back)}`
    if (scripted) return jsonWithHeaders<FollowActionData>({ ok: false, formError: CREATOR_MESSAGES.loginToFollow, login }, 401, headers)
    return redirectWithFlash(login, { kind: 'info', message: CREATOR_MESSAGES.loginToFollow }, headers)
  }
  try {
    const parsed = followSchema.safeParse({ creatorId: form.get('creatorId'), follow: form.get('follow') })
    if (!parsed.success) throw new DomainError('invalid', CREATOR_MESSAGES.followFailed)
    const state = await setFollow(claims, parsed.data.creatorId, parsed.data.follow)
    return scripted ? jsonWithHeaders<FollowActionData>({ ok: true, ...state }, 200, headers) : redirectWithHeaders(back, headers)
  } catch (error) {
    if (isDomainError(error)) {
      return scripted ? pageFailure(error, {}, headers) : flashFailure(error, back, headers)
    }
    console.warn('[follow] failed:', error instanceof Error ? error.message : error)
    const failed = new DomainError('unavailable', CREATOR_MESSAGES.followFailed)
    return scripted ? pageFailure(failed, {}, headers) : flashFailure(failed, back, headers)
  }
}

/** Nothing to show at /follow itself. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { headers } = await getSession(request, context)
  return redirectWithHeaders('/creators', headers)
}
