import { Form } from '@remix-run/react'
import { RadioCards } from '~/components/ui/radio-cards'
import { SubmitButton } from '~/components/ui/submit-button'
import {
  CHANNEL_SHORT_LABELS,
  NOTIFICATION_CHANNELS,
  typesForRole,
  type NotificationPreference,
} from '~/lib/notification-preferences'

export const NOTIFICATION_PREFERENCES_ID = 'notification-preferences'

const CHANNEL_OPTIONS = NOTIFICATION_CHANNELS.map((channel) => ({ value: channel, label: CHANNEL_SHORT_LABELS[channel] }))

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
          <RadioCards
            key={entry.type}
            legend={entry.label}
            name={entry.type}
            options={CHANNEL_OPTIONS}
            defaultChecked={entry.channel}
            errorId={`${NOTIFICATION_PREFERENCES_ID}-${entry.type}-error`}
          />
        ))}
        <div className="flex justify-end">
          <SubmitButton pendingLabel="Saving">Save notification settings</SubmitButton>
        </div>
      </Form>
    </section>
  )
}
