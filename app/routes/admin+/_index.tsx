import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminLoadError } from '~/components/admin/admin-tabs'
import { PendingCreators } from '~/components/admin/pending-creators'
import {
  adminTab,
  adminTabPath,
  adminTitle,
  formFields,
  reviewCategorySchema,
  reviewSchema,
  ADMIN_MESSAGES,
} from '~/lib/schemas/admin'
import {
  listCategoryRequests,
  listPendingApplications,
  reviewApplication,
  reviewCategoryRequest,
} from '~/server/applications.server'
import { DomainError } from '~/server/errors.server'
import { adminAction, loadAdminTab } from '~/server/http/admin-console.server'

/**
 * /admin — Pending Creators, the console's first tab: creators' applications with their
 * portfolios, approve or reject (with notes), and requests for more categories. Links written
 * before the tabs were routes (`/admin?tab=reports`) are sent to the tab's own address.
 */
export const handle = { adminTab: 'creators' }

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url)
  const legacy = url.searchParams.get('tab')
  if (legacy !== null) {
    url.searchParams.delete('tab')
    const query = url.searchParams.toString()
    throw redirect(`${adminTabPath(adminTab(legacy))}${query ? `?${query}` : ''}`, 301)
  }
  return loadAdminTab(args, 'creators', async (claims) => {
    const [applications, categoryRequests] = await Promise.all([listPendingApplications(claims), listCategoryRequests(claims)])
    // The notes typed before Reject… (the no-JS confirmation carries them over).
    return { applications, categoryRequests, notes: (url.searchParams.get('reviewNotes') ?? '').slice(0, 2000) }
  })
}

export function action(args: ActionFunctionArgs) {
  return adminAction(
    args,
    ['review', 'review-category'],
    () => '/admin',
    async (intent, { claims, form }) => {
      if (intent === 'review') {
        const input = reviewSchema.safeParse(formFields(form, ['applicationId', 'approved', 'reviewNotes'] as const))
        if (!input.success) throw new DomainError('invalid', input.error.issues[0]!.message)
        return ADMIN_MESSAGES[await reviewApplication({ claims }, input.data)]
      }
      const input = reviewCategorySchema.safeParse(formFields(form, ['creatorId', 'categoryId', 'approved'] as const))
      if (!input.success) throw new DomainError('invalid', input.error.issues[0]!.message)
      return ADMIN_MESSAGES[await reviewCategoryRequest(claims, input.data)]
    },
  )
}

export default function PendingCreatorsTab() {
  const loaded = useLoaderData<typeof loader>()
  if (loaded.loadError !== null) return <AdminLoadError message={loaded.loadError} />
  return (
    <PendingCreators
      applications={loaded.applications}
      categoryRequests={loaded.categoryRequests}
      confirm={loaded.confirm}
      notes={loaded.notes}
    />
  )
}

export const meta: MetaFunction = () => [{ title: adminTitle('creators') }]
