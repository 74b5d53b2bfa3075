import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminLoadError } from '~/components/admin/admin-tabs'
import { ReportsPanel } from '~/components/admin/reports-panel'
import { ADMIN_MESSAGES, adminTitle, decideReportSchema, formFields, reportStatus } from '~/lib/schemas/admin'
import { DomainError } from '~/server/errors.server'
import { adminAction, loadAdminTab } from '~/server/http/admin-console.server'
import { decideReports, listReportGroups } from '~/server/reports.server'

/**
 * /admin/reports — reported videos and quotes, grouped by item, filtered by status (pending by
 * default): mark reviewed, dismiss, or remove the content (asking first).
 */
export const handle = { adminTab: 'reports' }

export function loader(args: LoaderFunctionArgs) {
  return loadAdminTab(args, 'reports', async (claims, url) => {
    const status = reportStatus(url.searchParams.get('status'))
    return { status, groups: await listReportGroups(claims, { status }) }
  })
}

export function action(args: ActionFunctionArgs) {
  return adminAction(
    args,
    ['decide-report'],
    (form) => {
      const { filter } = formFields(form, ['filter'] as const)
      return filter ? `/admin/reports?status=${reportStatus(filter)}` : '/admin/reports'
    },
    async (_intent, { claims, form }) => {
      const input = decideReportSchema.safeParse(formFields(form, ['contentType', 'contentId', 'status'] as const))
      if (!input.success) throw new DomainError('invalid', ADMIN_MESSAGES.reportNotFound)
      return decideReports(claims, input.data)
    },
  )
}

export default function ReportsTab() {
  const loaded = useLoaderData<typeof loader>()
  if (loaded.loadError !== null) return <AdminLoadError message={loaded.loadError} />
  return <ReportsPanel groups={loaded.groups} status={loaded.status} confirm={loaded.confirm} />
}

export const meta: MetaFunction = () => [{ title: adminTitle('reports') }]
