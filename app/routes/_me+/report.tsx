import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from '@remix-run/react'
import {
  REPORT_DUPLICATE,
  REPORT_FAILED,
  REPORT_FLASH_FAILED,
  REPORT_FLASH_SUCCESS,
  REPORT_THANKS,
  ReportFields,
  type ReportActionData,
} from '~/components/report-dialog'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Page } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { parseReport, parseReportTarget, REPORT_MESSAGES, reportValues, type ReportValues } from '~/lib/schemas/report'
import { redirectWithFlash } from '~/server/http/flash.server'
import { formFailure } from '~/server/http/domain-errors.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { createReport, findReportTarget, isOwnContent } from '~/server/reports.server'
import { requireUser } from '~/server/permissions.server'
import { safeRedirect } from '~/server/session.server'

/** Where to go back after reporting: a same-site path, never this page itself. */
function backTo(target: FormDataEntryValue | string | null): string {
  const path = safeRedirect(target, '/feed')
  return path.startsWith('/report') ? '/feed' : path
}

/**
 * GET /report?contentType=&contentId=&returnTo= — the report form as a page:
 * what the report control is without JavaScript. Signed-out visitors are
 * sent to /login first (docs/product.md, Rules and messages), and come back here.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const params = new URL(request.url).searchParams
  const target = parseReportTarget(params)
  const found = target ? await findReportTarget(claims, target) : null
  if (!found) throw new Response(REPORT_MESSAGES.content, { status: 404, headers })
  if (await isOwnContent(claims, found)) throw new Response(REPORT_MESSAGES.own, { status: 403, headers })
  return jsonWithHeaders({ target: found, returnTo: backTo(params.get('returnTo')) }, 200, headers)
}

/**
 * POST /report (docs/product.md, The JSON API, POST /reports). The modal and the spark menu
 * post through a fetcher (`surface` dialog or quick) and get data back; the
 * page's plain form is redirected back with a flash message.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const form = await request.formData()
  const surface = form.get('surface')
  const fromFetcher = surface === 'dialog' || surface === 'quick'
  const returnTo = backTo(form.get('returnTo') ?? new URL(request.url).searchParams.get('returnTo'))
  const parsed = parseReport(form)
  if (!parsed.success) {
    const { contentType, contentId, ...fields } = parsed.errors
    if (contentType || contentId) {
      return formFailure<ReportValues>({ formError: REPORT_MESSAGES.content }, 404, headers)
    }
    return formFailure<ReportValues>({ fieldErrors: fields, values: reportValues(form) }, 400, headers)
  }

  let outcome
  try {
    outcome = await createReport(claims, parsed.data)
  } catch (error) {
    console.warn('[report] could not store a report:', error instanceof Error ? error.message : error)
    return formFailure<ReportValues>(
      { formError: fromFetcher ? REPORT_FAILED : REPORT_FLASH_FAILED, values: reportValues(form) },
      500,
      headers,
    )
  }
  if (outcome.status === 'own') {
    return formFailure<ReportValues>({ formError: REPORT_MESSAGES.own }, 403, headers)
  }
  if (outcome.status === 'not-found') {
    return formFailure<ReportValues>({ formError: REPORT_MESSAGES.content }, 404, headers)
  }
  const duplicate = outcome.status === 'duplicate'
  if (fromFetcher) {
    return jsonWithHeaders<ReportActionData>(
      { ok: true, outcome: outcome.status, message: duplicate ? REPORT_DUPLICATE : REPORT_THANKS },
      200,
      headers,
    )
  }
  return redirectWithFlash(
    returnTo,
    duplicate ? { kind: 'info', message: REPORT_DUPLICATE } : { kind: 'success', message: REPORT_FLASH_SUCCESS },
    headers,
  )
}

export default function ReportPage() {
  const { target, returnTo } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const failed = result && !result.ok ? result : undefined
  const noun = target.contentType
  return (
    <Page width="narrow">
      <div className="card p-6 sm:p-8">
        <h1 className="text-title">Report {noun}</h1>
        <p className="text-body mt-1">
          {target.label ? <>“{target.label}”. </> : null}
          Tell us what is wrong. Our team reviews every report.
        </p>
        <Form method="post" noValidate className="mt-6 flex flex-col gap-5">
          <input type="hidden" name="surface" value="page" />
          <input type="hidden" name="contentType" value={target.contentType} />
          <input type="hidden" name="contentId" value={target.contentId} />
          <input type="hidden" name="returnTo" value={returnTo} />
          {failed?.formError ? <Alert tone="error">{failed.formError}</Alert> : null}
          <ReportFields errors={failed?.fieldErrors ?? {}} values={failed?.values} />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to={returnTo} className="btn-secondary">
              Cancel
            </Link>
            <SubmitButton pendingLabel="Submitting…">Submit Report</SubmitButton>
          </div>
        </Form>
      </div>
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'Report content — Lumen' }]

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusCard
        title="Content not found"
        message="This content could not be found. It may have been removed already."
        action={{ href: '/feed', label: 'Back to Feed' }}
      />
    )
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return <StatusCard title="Your own content" message={REPORT_MESSAGES.own} action={{ href: '/feed', label: 'Back to Feed' }} />
  }
  return (
    <StatusCard
      title={REPORT_FLASH_FAILED}
      message="Please try again in a moment."
      action={{ href: '/feed', label: 'Back to Feed' }}
    />
  )
}
