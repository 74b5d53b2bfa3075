import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import {
  FEEDBACK_FAILED,
  FEEDBACK_THANKS,
  FeedbackFields,
  type FeedbackActionData,
} from '~/components/feedback-widget'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Page } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { feedbackValues, parseFeedback, type FeedbackValues } from '~/lib/schemas/feedback'
import { sendFeedback } from '~/server/feedback.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { formFailure } from '~/server/http/domain-errors.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { safeRedirect } from '~/server/session.server'

/** Where to go back after sending: a same-site path, never this page itself. */
function backTo(target: FormDataEntryValue | string | null): string {
  const path = safeRedirect(target, '/')
  return path.startsWith('/feedback') ? '/' : path
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { headers } = await requireUser(request, context)
  const returnTo = backTo(new URL(request.url).searchParams.get('returnTo'))
  return jsonWithHeaders({ returnTo }, 200, headers)
}

/**
 * POST /feedback (docs/product.md, The JSON API). The floating panel posts through a fetcher
 * (`surface=panel`) and gets data back; the page's plain form is redirected
 * back where the visitor came from with a flash message.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const form = await request.formData()
  const fromPanel = form.get('surface') === 'panel'
  const parsed = parseFeedback(form)
  if (!parsed.success) {
    return formFailure<FeedbackValues>({ fieldErrors: parsed.errors, values: feedbackValues(form) }, 400, headers)
  }
  try {
    await sendFeedback(claims, parsed.data)
  } catch (error) {
    console.warn('[feedback] could not store feedback:', error instanceof Error ? error.message : error)
    return formFailure<FeedbackValues>({ formError: FEEDBACK_FAILED, values: feedbackValues(form) }, 500, headers)
  }
  if (fromPanel) return jsonWithHeaders<FeedbackActionData>({ ok: true }, 200, headers)
  return redirectWithFlash(backTo(form.get('returnTo')), { kind: 'success', message: FEEDBACK_THANKS }, headers)
}

export default function FeedbackPage() {
  const { returnTo } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const failed = result && !result.ok ? result : undefined
  return (
    <Page width="narrow">
      <div className="card p-6 sm:p-8">
        <h1 className="text-title">Send feedback</h1>
        <p className="text-body mt-1">Tell us what works and what could be better. Every answer is read by our team.</p>
        <Form method="post" noValidate className="mt-6 flex flex-col gap-5">
          <input type="hidden" name="returnTo" value={returnTo} />
          {failed?.formError ? <Alert tone="error">{failed.formError}</Alert> : null}
          <FeedbackFields errors={failed?.fieldErrors ?? {}} values={failed?.values} />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to={returnTo} className="btn-secondary">
              Cancel
            </Link>
            <SubmitButton pendingLabel="Sending…">Send Feedback</SubmitButton>
          </div>
        </Form>
      </div>
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'Send feedback — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Feedback is unavailable"
      message="We could not open the feedback form. Please try again in a moment."
      action={{ href: '/', label: 'Back to Lumen' }}
    />
  )
}
