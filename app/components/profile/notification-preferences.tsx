import { Form } from '@remix-run/react'
import { SubmitButton } from '~/components/ui/submit-button'
import {
  CHANNEL_SHORT_LABELS,
  NOTIFICATION_CHANNELS,
  typesForRole,
  type NotificationPreference,
} from '~/lib/notification-preferences'

export const NOTIFICATION_PREFERENCES_ID = 'notification-preferences'

/**
 * Edit Profile's "Notifications" card: for each type the user can receive, in
 * the app only, by email at once, or in a daily digest. Its own plain form
 * (outside the profile form) posting to /notifications/preferences, which
 * redirects back here with a flash: it works without JavaScript.
 */
export function NotificationPreferences({ preferences, role }: { preferences: NotificationPreference[]; role: string }) {
  const shown = new Set(typesForRole(role))
  const rows = preferences.filter((entry) => shown.has(entry.type))
  return (
    <section
      id={NOTIFICATION_PREFERENCES_ID}
      aria-labelledby={`${NOTIFICATION_PREFERENCES_ID}-title`}
      className="card mt-6 flex scroll-mt-20 flex-col gap-4 p-6"
    >
      <div>
        <h2 id={`${NOTIFICATION_PREFERENCES_ID}-title`} className="text-lg font-semibold text-ink-900">
          Notifications
        </h2>
        <p className="text-caption mt-1">
          Everything shows in the app. Choose what also comes by email, at once or in one daily digest. Every email has a link to
          stop it.
        </p>
      </div>
      <Form method="post" action="/notifications/preferences" className="flex flex-col gap-4">
        {rows.map((entry) => (
          <fieldset key={entry.type} className="flex flex-col gap-2">
            <legend className="mb-1.5 text-sm font-medium text-ink-800">{entry.label}</legend>
            <div className="grid grid-cols-3 gap-2">
              {NOTIFICATION_CHANNELS.map((channel) => (
                <label
                  key={channel}
                  className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl px-3 py-2 ring-1 ring-inset ring-ink-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-2 has-[:checked]:ring-inset has-[:checked]:ring-brand-500"
                >
                  <input
                    type="radio"
                    name={entry.type}
                    value={channel}
                    defaultChecked={entry.channel === channel}
                    className="h-4 w-4 shrink-0 border-ink-300 text-brand-600 focus:ring-brand-600"
                  />
                  <span className="text-sm text-ink-900">{CHANNEL_SHORT_LABELS[channel]}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        <div className="flex justify-end">
          <SubmitButton pendingLabel="Saving">Save notification settings</SubmitButton>
        </div>
      </Form>
    </section>
  )
}
