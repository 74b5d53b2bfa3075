import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { LEARNING_MESSAGES, type CourseProgress } from '~/lib/course-learning'
import { field } from '~/lib/schemas/video'
import { enroll, leave } from '~/server/course-progress.server'
import { isDomainError } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'

/**
 * POST /course/:id/enrollment — the course page's Enroll ("Start course") and Leave
 * buttons (`intent=enroll|leave`), ADR 0048. A plain form post goes back to the course
 * page with a flash (post/redirect/get); the page's fetcher (`js=1`) gets the learner's
 * progress back. Signed-out visitors are sent to sign in, and come back to the course.
 * The /api twin is /api/courses/:id/enrollment.
 */
export type EnrollmentActionData =
  | { ok: true; intent: 'enroll'; progress: CourseProgress; message: string }
  | { ok: true; intent: 'leave'; message: string }
  | { ok: false; intent: string | null; error: string }

export async function loader({ params }: LoaderFunctionArgs) {
  // Where sign-in sends a visitor who pressed Enroll: the course page.
  return redirect(`/course/${encodeURIComponent(params.id ?? '')}`)
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const id = params.id ?? ''
  const back = `/course/${encodeURIComponent(id)}`
  const form = await request.formData()
  const scripted = form.get('js') === '1'
  const intent = field(form, 'intent')
  const reply = (value: EnrollmentActionData, status = 200) => jsonWithHeaders<EnrollmentActionData>(value, status, headers)
  if (intent !== 'enroll' && intent !== 'leave') return reply({ ok: false, intent: intent ?? null, error: LEARNING_MESSAGES.unknownAction }, 400)
  try {
    if (intent === 'enroll') {
      const progress = await enroll(claims, id)
      const message = LEARNING_MESSAGES.enrolled
      return scripted
        ? reply({ ok: true, intent, progress, message })
        : redirectWithFlash(`${back}#course-progress`, { kind: 'success', message }, headers)
    }
    await leave(claims, id)
    const message = LEARNING_MESSAGES.left
    return scripted ? reply({ ok: true, intent, message }) : redirectWithFlash(back, { kind: 'success', message }, headers)
  } catch (error) {
    const failure = intent === 'enroll' ? LEARNING_MESSAGES.enrollFailed : LEARNING_MESSAGES.leaveFailed
    if (!isDomainError(error)) console.warn(`[course] ${intent} failed for ${id}:`, error instanceof Error ? error.message : error)
    const message = isDomainError(error) ? error.message : failure
    const status = isDomainError(error) ? error.status : 500
    return scripted ? reply({ ok: false, intent, error: message }, status) : redirectWithFlash(back, { kind: 'error', message }, headers)
  }
}
