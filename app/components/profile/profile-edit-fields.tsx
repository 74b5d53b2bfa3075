import type { FieldErrors } from '~/lib/forms'
import { useEffect, useId, useState } from 'react'
import { CategoryChecklist } from '~/components/signup/category-checklist'
import { PortfolioField } from '~/components/signup/portfolio-field'
import { checkWithSchema, FieldChecks, FieldError, TextAreaField, TextField, useLiveError } from '~/components/ui/field'
import { editProfileSchema } from '~/lib/schemas/creators'
import { UserAvatar } from '~/components/user-avatar'
import { PlaybackSpeedField } from './playback-speed-field'
import type { OwnProfile } from '~/lib/creator-types'

export const CAPTIONS_ON_LABEL = 'Show captions by default'

/**
 * The fields of Edit Profile: picture (with a preview once chosen),
 * username, bio, email read-only, and for creators their categories (with
 * each one's review status) and a new portfolio. Everything here is inside
 * the edit form, so nothing here may render a form of its own.
 */
export function ProfileEditFields({
  profile,
  values,
  fieldErrors,
}: {
  profile: OwnProfile
  values?: { username: string; bio: string; categories: string[]; captionsOn: boolean; playbackRate?: string }
  fieldErrors: FieldErrors
}) {
  const pictureId = useId()
  const picture = useLiveError(fieldErrors.picture)
  const [preview, setPreview] = useState<string | null>(null)
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview])
  const creator = profile.role === 'creator'
  const statusOf = new Map(profile.categories.map((category) => [category.id, category.status]))
  const pending = profile.categories.filter((category) => category.status !== 'approved')
  return (
    <FieldChecks check={checkProfileField}>
      <div className="flex items-center gap-4">
        {preview ? (
          <img src={preview} alt="Preview of your new avatar" className="h-20 w-20 rounded-full object-cover ring-2 ring-white" />
        ) : (
          <UserAvatar user={profile} size="lg" label={`Current picture of ${profile.username}`} />
        )}
        <div ref={picture.ref} onChange={picture.markStale} className="flex min-w-0 flex-1 flex-col gap-1.5">
          <label htmlFor={pictureId} className="text-sm font-medium text-ink-800">
            Profile picture
          </label>
          <input
            id={pictureId}
            name="picture"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif"
            aria-describedby={picture.error ? `${pictureId}-hint ${pictureId}-error` : `${pictureId}-hint`}
            aria-invalid={picture.error ? true : undefined}
            className="block w-full text-sm text-ink-700 file:mr-3 file:rounded-full file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-brand-700"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              setPreview(file ? URL.createObjectURL(file) : null)
            }}
          />
          <p id={`${pictureId}-hint`} className="text-caption">
            JPEG, PNG, WebP or GIF, up to 5MB. We store a fresh copy without its hidden metadata (location, camera).
          </p>
          {picture.error ? <FieldError id={`${pictureId}-error`}>{picture.error}</FieldError> : null}
        </div>
      </div>
      <TextField
        label="Username"
        name="username"
        required
        autoComplete="username"
        defaultValue={values?.username ?? profile.username}
        error={fieldErrors.username}
      />
      <TextAreaField
        label="Bio"
        name="bio"
        rows={4}
        maxLength={500}
        defaultValue={values?.bio ?? profile.bio}
        error={fieldErrors.bio}
      />
      <TextField
        label="Email"
        name="email-readonly"
        type="email"
        value={profile.email}
        readOnly
        disabled
        hint="Your email cannot be changed here."
      />
      <div className="flex items-start gap-3 rounded-xl bg-ink-50 px-4 py-3 ring-1 ring-inset ring-ink-200">
        <input
          id={`${pictureId}-captions`}
          name="captionsOn"
          type="checkbox"
          defaultChecked={values?.captionsOn ?? profile.captionsOn}
          aria-describedby={`${pictureId}-captions-hint`}
          className="mt-0.5 h-4 w-4 rounded border-ink-300 text-brand-600 focus:ring-brand-600"
        />
        <div>
          <label htmlFor={`${pictureId}-captions`} className="text-sm font-medium text-ink-800">
            {CAPTIONS_ON_LABEL}
          </label>
          <p id={`${pictureId}-captions-hint`} className="text-caption">
            Videos and sparks with captions start with them showing. The CC button still turns them off. Only you see this
            setting.
          </p>
        </div>
      </div>
      <PlaybackSpeedField value={values?.playbackRate ?? profile.playbackRate} error={fieldErrors.playbackRate} />
      {creator ? (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-ink-50 px-4 py-3 ring-1 ring-inset ring-ink-200">
            <p className="text-sm text-ink-800" data-testid="verification-status">
              Verification status: <strong>{profile.isVerified ? 'Verified' : 'Pending review'}</strong>
            </p>
            {/* No Refresh button here: a form may not sit inside this form (the HTML parser would end the
                edit form at its end and leave Save changes outside it); the banner above has Check Status. */}
          </div>
          <CategoryChecklist defaultChecked={values?.categories ?? [...statusOf.keys()]} error={fieldErrors.categories} />
          {pending.length > 0 ? (
            <p className="text-caption -mt-3" data-testid="pending-categories">
              Waiting for an admin: {pending.map((category) => `${category.name} (${category.status})`).join(', ')}. New
              categories are offered on upload once approved.
            </p>
          ) : null}
          <PortfolioField
            defaultType={profile.portfolio?.type ?? 'document'}
            typeError={fieldErrors.portfolioType}
            fileError={fieldErrors.portfolio}
          />
        </>
      ) : null}
    </FieldChecks>
  )
}

/** The username and bio are checked again with the shared schema as they change. */
const checkProfileField = checkWithSchema(editProfileSchema)
