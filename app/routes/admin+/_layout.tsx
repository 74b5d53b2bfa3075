import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, isRouteErrorResponse, Outlet, useMatches, useRouteError } from '@remix-run/react'
import { AdminTabs } from '~/components/admin/admin-tabs'
import { StatusCard } from '~/components/status-card'
import { ADMIN_PANEL_HEADING_ID } from '~/components/ui/confirm-action'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { ADMIN_MESSAGES, ADMIN_TAB_LABELS, adminTab, adminTabPath, fixedMessage, type AdminTab } from '~/lib/schemas/admin'
import { fixPortfolios } from '~/server/applications.server'
import { adminAction } from '~/server/http/admin-console.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireAdmin } from '~/server/permissions.server'

/**
 * /admin — the admin console (docs/product.md: Admin): a route per tab (Pending Creators at
 * /admin, then /admin/reports, /admin/users, /admin/feedback; ADR 0061), each with its own loader
 * and action, inside this layout: the header with Fix Portfolio Issues, the tabs as links, and
 * the panel's heading, which takes the focus when the row a dialog acted on is gone.
 */

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { headers } = await requireAdmin(request, context)
  return jsonWithHeaders({}, 200, headers)
}

/** Fix Portfolio Issues, from any tab: back to the tab it was pressed on. */
export function action(args: ActionFunctionArgs) {
  return adminAction(
    args,
    ['fix-portfolios'],
    (form) => adminTabPath(adminTab(String(form.get('tab') ?? ''))),
    async (_intent, { claims }) => fixedMessage(await fixPortfolios(claims)),
  )
}

/** The tab a child route is (its `handle.adminTab`); none on the portfolio redirect. */
function useCurrentTab(): AdminTab | undefined {
  return useMatches()
    .map((match) => (match.handle as { adminTab?: AdminTab } | undefined)?.adminTab)
    .find(Boolean)
}

export default function AdminConsole() {
  const tab = useCurrentTab()
  return (
    <Page>
      <PageHeader
        title="Admin Dashboard"
        subtitle="Review creators, handle reports, manage users and read feedback."
        actions={
          <Form method="post" action="/admin">
            <input type="hidden" name="tab" value={tab ?? 'creators'} />
            <SubmitButton variant="secondary" name="intent" value="fix-portfolios" pendingLabel="Fixing…">
              Fix Portfolio Issues
            </SubmitButton>
          </Form>
        }
      />
      <AdminTabs current={tab} />
      <section aria-labelledby={ADMIN_PANEL_HEADING_ID} className="mt-6">
        <h2 id={ADMIN_PANEL_HEADING_ID} tabIndex={-1} className="sr-only">
          {tab ? ADMIN_TAB_LABELS[tab] : 'Admin'}
        </h2>
        <Outlet />
      </section>
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'Admin Dashboard — Lumen' }]

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
