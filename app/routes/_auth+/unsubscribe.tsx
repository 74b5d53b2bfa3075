import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { StatusCard } from '~/components/status-card'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { CHANNEL_LABELS, NOTIFICATION_PREFERENCE_MESSAGES } from '~/lib/notification-preferences'
import { isDomainError } from '~/server/errors.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { readUnsubscribeToken, unsubscribe } from '~/server/notification-preferences.server'

/**
 * /unsubscribe?token=… — where an email's "Stop these emails" link leads. No
 * sign-in: the signed token names the user and the type (mail/unsubscribe-token.ts).
 * Opening the link changes nothing (mail scanners open links); the page asks,
 * and its button posts. A mail client's one-click unsubscribe (RFC 8058: POST
 * `List-Unsubscribe=One-Click` to the same address) is answered by the action
 * too, the token in the query. See docs/decisions/0046-notification-emails.md.
 */
const PREFERENCES = '/profile/edit#notification-preferences'

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const target = await readUnsubscribeToken(token)
  const headers = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' }
  if (!target) return jsonWithHeaders({ target: null, token: '' }, 400, headers)
  return jsonWithHeaders({ target: { label: target.label, channel: target.channel }, token }, 200, headers)
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => new FormData())
  const token = String(form.get('token') ?? new URL(request.url).searchParams.get('token') ?? '')
  try {
    const target = await unsubscribe(token)
    return jsonWithHeaders({ done: true as const, label: target.label, error: null }, 200, { 'Cache-Control': 'no-store' })
  } catch (error) {
    if (!isDomainError(error)) throw error
    return jsonWithHeaders({ done: false as const, label: null, error: error.message }, error.status)
  }
}

export default function Unsubscribe() {
  const { target, token } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  if (result?.done) {
    return (
      <StatusCard
        title="You're unsubscribed"
        message={`${NOTIFICATION_PREFERENCE_MESSAGES.unsubscribed} “${result.label}” now shows in the app only. You can turn emails on again in your notification settings.`}
        action={{ href: PREFERENCES, label: 'Notification settings' }}
      />
    )
  }
  if (!target || result?.done === false) {
    return (
      <StatusCard
        title="Unsubscribe link not valid"
        message={`${NOTIFICATION_PREFERENCE_MESSAGES.invalidLink} You can change every email setting in your notification settings.`}
        action={{ href: PREFERENCES, label: 'Notification settings' }}
      />
    )
  }
  const off = target.channel === 'in_app'
  return (
    <Page width="narrow">
      <PageHeader title="Stop these emails?" />
      <section className="card flex flex-col gap-4 p-6" aria-label="Unsubscribe">
        <p className="text-body">
          Emails about <strong>“{target.label}”</strong>: {CHANNEL_LABELS[target.channel].toLowerCase()} now.
          {off ? ' You get no emails about it already.' : ' Stop them, and see these notifications in the app only.'}
        </p>
        <Form method="post" className="flex flex-wrap items-center justify-end gap-3">
          <input type="hidden" name="token" value={token} />
          <Link to={PREFERENCES} className="btn-secondary">
            All notification settings
          </Link>
          <SubmitButton pendingLabel="Stopping">{off ? 'Confirm: no emails' : 'Stop these emails'}</SubmitButton>
        </Form>
      </section>
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'Unsubscribe — Lumen' }, { name: 'robots', content: 'noindex' }]
