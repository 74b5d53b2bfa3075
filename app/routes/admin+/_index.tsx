import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, isRouteErrorResponse, useActionData, useLoaderData, useRouteError } from '@remix-run/react'
import { AdminTabs } from '~/components/admin/admin-tabs'
import { AuditList } from '~/components/admin/audit-list'
import { ADMIN_PANEL_HEADING_ID } from '~/components/ui/confirm-action'
import { FeedbackPanel } from '~/components/admin/feedback-panel'
import { PendingCreators } from '~/components/admin/pending-creators'
import { ReportsPanel } from '~/components/admin/reports-panel'
import { UsersPanel } from '~/components/admin/users-panel'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import {
  ADMIN_ACTION_FAILURES,
  ADMIN_LOAD_FAILURES,
  ADMIN_MESSAGES,
  ADMIN_TAB_LABELS,
  addUserSchema,
  addUserValues,
  adminIntentSchema,
  adminTab,
  changeRoleSchema,
  decideReportSchema,
  fixedMessage,
  formFields,
  reportStatus,
  reviewCategorySchema,
  reviewSchema,
} from '~/lib/schemas/admin'
import { fieldErrors } from '~/lib/schemas/auth'
import {
  fixPortfolios,
  listCategoryRequests,
  listPendingApplications,
  reviewApplication,
  reviewCategoryRequest,
} from '~/server/applications.server'
import { DomainError, isDomainError } from '~/server/errors.server'
import { readFeedbackPage } from '~/server/feedback.server'
import { flashFailure, pageFailure } from '~/server/http/domain-errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireAdmin } from '~/server/permissions.server'
import { decideReports, listReportGroups } from '~/server/reports.server'
import { addUser, changeRole, deleteUser, listAudit, listUsers } from '~/server/users.server'

/**
 * /admin — the admin console (docs/product.md: Admin): tabs Pending Creators, Reports,
 * User Management and Feedback in the URL (`?tab=`), a Fix Portfolio Issues
 * button, and the audit trail under User Management. Admins only: signed out
 * goes to /login, anyone else gets 403 — and Postgres refuses them the data
 * anyway. Every action is a plain form post answered with a redirect and a
 * flash; deleting a user and removing content ask first (`?confirm=<id>`).
 */

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireAdmin(request, context)
  const url = new URL(request.url)
  const tab = adminTab(url.searchParams.get('tab'))
  const confirm = url.searchParams.get('confirm')
  const search = url.searchParams.get('q') ?? ''
  const cursor = url.searchParams.get('after')
  const status = reportStatus(url.searchParams.get('status'))
  // The notes typed before Reject… (the no-JS confirmation carries them over).
  const notes = (url.searchParams.get('reviewNotes') ?? '').slice(0, 2000)
  const base = { tab, confirm, search, cursor, status, notes }
  try {
    switch (tab) {
      case 'creators': {
        const [applications, categoryRequests] = await Promise.all([
          listPendingApplications(claims),
          listCategoryRequests(claims),
        ])
        return jsonWithHeaders({ ...base, applications, categoryRequests }, 200, headers)
      }
      case 'reports':
        return jsonWithHeaders({ ...base, groups: await listReportGroups(claims, { status }) }, 200, headers)
      case 'users': {
        const [users, audit] = await Promise.all([listUsers(claims, { search, cursor }), listAudit(claims)])
        return jsonWithHeaders({ ...base, users, audit }, 200, headers)
      }
      case 'feedback':
        return jsonWithHeaders({ ...base, feedback: await readFeedbackPage(claims, { cursor }) }, 200, headers)
    }
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    console.warn(`[admin] loading ${tab} failed:`, error instanceof Error ? error.message : error)
    return jsonWithHeaders({ ...base, loadError: ADMIN_LOAD_FAILURES[tab] }, 200, headers)
  }
}

/** Where a form goes back to: the tab it was posted from (and the reports filter). */
function backTo(form: FormData): string {
  const { tab, filter } = formFields(form, ['tab', 'filter'] as const)
  const params = new URLSearchParams({ tab: adminTab(tab) })
  if (adminTab(tab) === 'reports' && filter) params.set('status', reportStatus(filter))
  return `/admin?${params.toString()}`
}

function invalid(message: string): never {
  throw new DomainError('invalid', message)
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireAdmin(request, context)
  const form = await request.formData()
  const parsedIntent = adminIntentSchema.safeParse(form.get('intent'))
  if (!parsedIntent.success) throw data(ADMIN_MESSAGES.unknownAction, { status: 400, headers })
  const intent = parsedIntent.data
  const back = backTo(form)
  const success = (message: string) => redirectWithFlash(back, { kind: 'success', message }, headers)
  try {
    switch (intent) {
      case 'review': {
        const input = reviewSchema.safeParse(formFields(form, ['applicationId', 'approved', 'reviewNotes'] as const))
        if (!input.success) invalid(input.error.issues[0]!.message)
        const outcome = await reviewApplication({ claims }, input.data)
        return success(ADMIN_MESSAGES[outcome])
      }
      case 'review-category': {
        const input = reviewCategorySchema.safeParse(formFields(form, ['creatorId', 'categoryId', 'approved'] as const))
        if (!input.success) invalid(input.error.issues[0]!.message)
        return success(ADMIN_MESSAGES[await reviewCategoryRequest(claims, input.data)])
      }
      case 'decide-report': {
        const input = decideReportSchema.safeParse(formFields(form, ['contentType', 'contentId', 'status'] as const))
        if (!input.success) invalid(ADMIN_MESSAGES.reportNotFound)
        return success(await decideReports(claims, input.data))
      }
      case 'add-user': {
        const input = addUserSchema.safeParse(formFields(form, ['username', 'email', 'password', 'role'] as const))
        if (!input.success) {
          // 'Please fill in all required fields' only when one is empty; otherwise what is wrong, at its field.
          const errors = fieldErrors(input.error)
          const missing = ['username', 'email', 'password', 'role'].some((name) => !String(form.get(name) ?? '').trim())
          throw new DomainError('invalid', missing ? ADMIN_MESSAGES.fillRequired : Object.values(errors)[0]!, errors)
        }
        await addUser(claims, input.data)
        return success(ADMIN_MESSAGES.userAdded)
      }
      case 'delete-user': {
        await deleteUser(claims, formFields(form, ['userId'] as const).userId)
        return success(ADMIN_MESSAGES.userDeleted)
      }
      case 'change-role': {
        const input = changeRoleSchema.safeParse(formFields(form, ['userId', 'role'] as const))
        if (!input.success) invalid(input.error.issues[0]!.message)
        await changeRole(claims, input.data.userId, input.data.role)
        return success(ADMIN_MESSAGES.roleChanged)
      }
      case 'fix-portfolios':
        return success(fixedMessage(await fixPortfolios(claims)))
    }
  } catch (error) {
    if (isDomainError(error)) {
      if (error.status === 403) throw data(error.message, { status: 403, headers })
      if (intent === 'add-user') return pageFailure(error, { intent, values: addUserValues(form) }, headers)
      return flashFailure(error, back, headers)
    }
    console.warn(`[admin] ${intent} failed:`, error instanceof Error ? error.message : error)
    if (intent === 'add-user') {
      return jsonWithHeaders({ intent, values: addUserValues(form), error: ADMIN_ACTION_FAILURES[intent] }, 500, headers)
    }
    return redirectWithFlash(back, { kind: 'error', message: ADMIN_ACTION_FAILURES[intent] }, headers)
  }
}

export default function AdminConsole() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const addUserResult = actionData && 'intent' in actionData && actionData.intent === 'add-user' ? actionData : undefined

  return (
    <Page>
      <PageHeader
        title="Admin Dashboard"
        subtitle="Review creators, handle reports, manage users and read feedback."
        actions={
          <Form method="post">
            <input type="hidden" name="tab" value={loaded.tab} />
            <SubmitButton variant="secondary" name="intent" value="fix-portfolios" pendingLabel="Fixing…">
              Fix Portfolio Issues
            </SubmitButton>
          </Form>
        }
      />
      <AdminTabs current={loaded.tab} />
      <section aria-labelledby={ADMIN_PANEL_HEADING_ID} className="mt-6">
        <h2 id={ADMIN_PANEL_HEADING_ID} tabIndex={-1} className="sr-only">
          {ADMIN_TAB_LABELS[loaded.tab]}
        </h2>
        {'loadError' in loaded && loaded.loadError ? (
          <Alert tone="error" title={loaded.loadError}>
            Please try again in a moment.
          </Alert>
        ) : 'applications' in loaded ? (
          <PendingCreators
            applications={loaded.applications}
            categoryRequests={loaded.categoryRequests}
            confirm={loaded.confirm}
            notes={loaded.notes}
          />
        ) : 'groups' in loaded ? (
          <ReportsPanel groups={loaded.groups} status={loaded.status} confirm={loaded.confirm} />
        ) : 'users' in loaded ? (
          <>
            <UsersPanel
              page={loaded.users}
              search={loaded.search}
              cursor={loaded.cursor}
              confirm={loaded.confirm}
              addUser={
                addUserResult
                  ? {
                      formError: addUserResult.formError,
                      fieldErrors: addUserResult.fieldErrors,
                      values: addUserResult.values,
                    }
                  : undefined
              }
            />
            <AuditList entries={loaded.audit} />
          </>
        ) : 'feedback' in loaded ? (
          <FeedbackPanel page={loaded.feedback} cursor={loaded.cursor} />
        ) : null}
      </section>
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: loaderData ? `${ADMIN_TAB_LABELS[loaderData.tab]} · Admin Dashboard — Lumen` : 'Admin Dashboard — Lumen' },
]

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <StatusCard
        title="Access denied"
        message={`${ADMIN_MESSAGES.forbidden} If you think you should have access, ask an admin.`}
        action={{ href: '/feed', label: 'Back to Feed' }}
      />
    )
  }
  const status = isRouteErrorResponse(error) ? `error ${error.status}` : 'something went wrong'
  return (
    <StatusCard
      title="Something went wrong"
      message={`The admin console could not be loaded (${status}). Please try again in a moment.`}
      action={{ href: '/admin', label: 'Reload' }}
    />
  )
}
