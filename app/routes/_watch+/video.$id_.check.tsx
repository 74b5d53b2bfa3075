import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import type { FormFailure } from '~/lib/forms'
import type { CheckpointAnswer } from '~/lib/schemas/checkpoints'
import { CHECKPOINT_MESSAGES } from '~/lib/schemas/checkpoints'
import { answerCheckpoints } from '~/server/checkpoints.server'
import { isDomainError } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'

/**
 * POST /video/:id/check — answers to a video's checkpoints (ADR 0047), scored and
 * recorded by `answer_checkpoint()`. Each answer is a field `answer-<checkpoint id>`
 * (a radio button's value, or several checkboxes'), so the video page's "Check
 * yourself" form works without JavaScript: it is redirected back to the page, which
 * then shows which answers were right, with the explanations. The player's question
 * panel posts one answer the same way with `js=1` and gets the result as data.
 */

export type CheckActionData = { ok: true; answers: CheckpointAnswer[] } | (FormFailure & { formError: string })

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const id = params.id ?? ''
  const back = `/video/${encodeURIComponent(id)}#check-yourself`
  const form = await request.formData()
  const scripted = form.get('js') === '1'
  const answers: Record<string, number[]> = {}
  for (const [name, value] of form.entries()) {
    if (!name.startsWith('answer-') || typeof value !== 'string' || !/^\d$/.test(value)) continue
    ;(answers[name.slice('answer-'.length)] ??= []).push(Number(value))
  }
  try {
    const results = await answerCheckpoints(claims, id, answers)
    if (scripted) return jsonWithHeaders<CheckActionData>({ ok: true, answers: results }, 200, headers)
    const right = results.filter((result) => result.correct).length
    return redirectWithFlash(
      back,
      { kind: right === results.length ? 'success' : 'info', message: `${right} of ${results.length} right` },
      headers,
    )
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (scripted) return jsonWithHeaders<CheckActionData>({ ok: false, formError: error.message }, error.status, headers)
    return redirectWithFlash(back, { kind: 'error', message: error.message || CHECKPOINT_MESSAGES.answerFailed }, headers)
  }
}

/** Nothing to show here: back to the video. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { headers } = await requireUser(request, context)
  return redirectWithHeaders(`/video/${encodeURIComponent(params.id ?? '')}`, headers)
}
