import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { NotificationList } from '~/components/notifications/notification-list'
import { StatusCard } from '~/components/status-card'
import { Page, PageHeader } from '~/components/ui/page'
import { NOTIFICATION_MESSAGES } from '~/lib/notifications'
import { DomainError, isDomainError } from '~/server/errors.server'
import { flashFailure } from '~/server/http/domain-errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { listNotifications, markNotificationsRead } from '~/server/notifications.server'
import { requireUser } from '~/server/permissions.server'

/** /notifications — the signed-in user's notifications, newest first, grouped by day, paged by `cursor`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const cursor = new URL(request.url).searchParams.get('cursor')
  const page = await listNotifications(claims, { cursor })
  return jsonWithHeaders({ page, cursor }, 200, headers, { 'Cache-Control': 'no-store' })
}

/**
 * Plain form posts: `intent=read` with an `id` marks one read, `intent=read-all`
 * all of them; back to the page either way (post/redirect/get), so the bell's
 * count follows.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const form = await request.formData()
  const intent = form.get('intent')
  const id = form.get('id')
  const back = '/notifications'
  try {
    if (intent === 'read-all') {
      await markNotificationsRead(claims, { all: true })
      return redirectWithFlash(back, { kind: 'success', message: NOTIFICATION_MESSAGES.markedAllRead }, headers)
    }
    if (intent === 'read' && typeof id === 'string') {
      await markNotificationsRead(claims, { ids: [id] })
      return redirectWithHeaders(back, headers)
    }
    throw new DomainError('invalid', NOTIFICATION_MESSAGES.badRequest)
  } catch (error) {
    if (isDomainError(error)) return flashFailure(error, back, headers)
    throw error
  }
}

export default function NotificationsPage() {
  const { page, cursor } = useLoaderData<typeof loader>()
  return (
    <Page width="narrow">
      <PageHeader
        title="Notifications"
        subtitle={page.unread > 0 ? `${page.unread} unread` : 'You’re all caught up.'}
        actions={
          page.unread > 0 ? (
            <Form method="post">
              <input type="hidden" name="intent" value="read-all" />
              <button type="submit" className="btn-secondary">
                Mark all as read
              </button>
            </Form>
          ) : null
        }
      />
      <NotificationList page={page} cursor={cursor} />
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'Notifications — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Your notifications could not be loaded"
      message="Please try again in a moment."
      action={{ href: '/notifications', label: 'Try Again' }}
    />
  )
}
