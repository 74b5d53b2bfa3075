import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import type { FormFailure } from '~/lib/forms'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { ProfileEditFields } from '~/components/profile/profile-edit-fields'
import { NotificationPreferences } from '~/components/profile/notification-preferences'
import { StatusCard } from '~/components/status-card'
import { Alert } from '~/components/ui/alert'
import { Page, PageHeader } from '~/components/ui/page'
import { SubmitButton } from '~/components/ui/submit-button'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { DomainError, isDomainError } from '~/server/errors.server'
import { receiveProfileForm } from '~/server/http/forms.server'
import { pageFailure } from '~/server/http/domain-errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { getOwnProfile, updateProfile } from '~/server/profiles.server'
import { getNotificationPreferences } from '~/server/notification-preferences.server'
import type { ShellHandle } from '~/root'

/**
 * /profile/edit — Edit Profile (docs/product.md: Profile, Edit mode; PUT /users/profile):
 * picture, username, bio, email read-only, and for creators their content
 * categories (newly ticked ones go to admin review) and a new portfolio. A
 * multipart form that works without JavaScript; success goes back to the
 * profile with 'Profile updated successfully!', failure stays here with
 * the fields kept and either the field's own reason or, when no field is at
 * fault, 'Failed to update profile. Please try again.'.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const [profile, notificationPreferences] = await Promise.all([getOwnProfile(claims), getNotificationPreferences(claims)])
  return jsonWithHeaders({ profile, notificationPreferences }, 200, headers)
}

/** The form shows the creator's verification status: no pending banner over it. */
export const handle: ShellHandle = { showsVerification: () => true }

type EditValues = { username: string; bio: string; categories: string[]; captionsOn: boolean; playbackRate?: string }
type EditActionData = FormFailure<EditValues> & { formError: string; values: EditValues }

export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, supabase, headers } = await requireUser(request, context, { verify: true })
  let received: Awaited<ReturnType<typeof receiveProfileForm>> | null = null
  let values: EditValues = { username: '', bio: '', categories: [], captionsOn: false }
  try {
    received = await receiveProfileForm(request)
    const { form } = received
    values = {
      username: String(form.get('username') ?? ''),
      bio: String(form.get('bio') ?? ''),
      categories: form.getAll('categories').map(String),
      captionsOn: form.get('captionsOn') === 'on',
      ...(form.has('playbackRate') ? { playbackRate: String(form.get('playbackRate')) } : {}),
    }
    await updateProfile({ claims, supabase }, values, {
      picture: received.picture,
      portfolio: received.portfolio ? { ...received.portfolio, type: String(form.get('portfolioType') ?? '') } : null,
    })
    return redirectWithFlash('/profile', { kind: 'success', message: CREATOR_MESSAGES.profileUpdated }, headers)
  } catch (error) {
    const failure = isDomainError(error) ? error : new DomainError('unavailable', CREATOR_MESSAGES.profileFailed)
    if (!isDomainError(error)) console.warn('[profile] update failed:', error instanceof Error ? error.message : error)
    return pageFailure<EditValues>(new DomainError(failure.code, CREATOR_MESSAGES.profileFailed, failure.fieldErrors), { values }, headers)
  } finally {
    await received?.dispose()
  }
}

export default function EditProfile() {
  const { profile, notificationPreferences } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>() as EditActionData | undefined
  return (
    <Page width="narrow">
      <PageHeader title="Edit Profile" subtitle="What others see on your page, and what you teach." />
      <Form method="post" encType="multipart/form-data" className="card flex flex-col gap-5 p-6" noValidate={false}>
        {/* One message at a time: a field's own reason ("That username is taken…") stands alone. */}
        {failed && !Object.keys(failed.fieldErrors ?? {}).length ? <Alert tone="error">{failed.formError}</Alert> : null}
        <ProfileEditFields profile={profile} values={failed?.values} fieldErrors={failed?.fieldErrors ?? {}} />
        <div className="flex flex-wrap justify-end gap-2">
          <Link to="/profile" className="btn-secondary">
            Cancel
          </Link>
          <SubmitButton pendingLabel="Saving">Save changes</SubmitButton>
        </div>
      </Form>
      <NotificationPreferences preferences={notificationPreferences} role={profile.role} />
    </Page>
  )
}

export const meta: MetaFunction = () => [{ title: 'Edit Profile — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title={CREATOR_MESSAGES.profileFailed}
      message="Please try again in a moment."
      action={{ href: '/profile', label: 'Back to profile' }}
    />
  )
}
