import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminLoadError } from '~/components/admin/admin-tabs'
import { FeedbackPanel } from '~/components/admin/feedback-panel'
import { adminTitle } from '~/lib/schemas/admin'
import { readFeedbackPage } from '~/server/feedback.server'
import { loadAdminTab } from '~/server/http/admin-console.server'

/** /admin/feedback — what learners and creators sent from the feedback form, newest first, a page at a time. */
export const handle = { adminTab: 'feedback' }

export function loader(args: LoaderFunctionArgs) {
  return loadAdminTab(args, 'feedback', async (claims, url) => {
    const cursor = url.searchParams.get('after')
    return { cursor, feedback: await readFeedbackPage(claims, { cursor }) }
  })
}

export default function FeedbackTab() {
  const loaded = useLoaderData<typeof loader>()
  if (loaded.loadError !== null) return <AdminLoadError message={loaded.loadError} />
  return <FeedbackPanel page={loaded.feedback} cursor={loaded.cursor} />
}

export const meta: MetaFunction = () => [{ title: adminTitle('feedback') }]
