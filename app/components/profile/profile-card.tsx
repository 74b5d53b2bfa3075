import { Form, Link } from '@remix-run/react'
import { ROLE_LABELS, UserAvatar, type ShellRole } from '~/components/user-avatar'
import { CheckStatusForm } from '~/components/verification-banner'
import type { OwnProfile } from '~/lib/creator-types'

const badgeTones: Record<ShellRole, string> = {
  user: 'bg-ink-100 text-ink-700 ring-ink-200',
  creator: 'bg-brand-50 text-brand-700 ring-brand-200',
  admin: 'bg-spark-300/30 text-ink-900 ring-spark-400/60',
}

export function RoleBadge({ role }: { role: ShellRole }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${badgeTones[role]}`}
    >
      {ROLE_LABELS[role]}
    </span>
  )
}

const categoryTones = {
  approved: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  pending: 'bg-amber-50 text-amber-900 ring-amber-200',
  rejected: 'bg-red-50 text-red-800 ring-red-200',
} as const

/** The Profile tab: picture, username, role, email, bio, categories, verification status with Refresh, Edit Profile, Logout. */
export function ProfileCard({ profile, showVerification = true }: { profile: OwnProfile; showVerification?: boolean }) {
  return (
    <section aria-label="Profile card" className="card overflow-hidden">
      <div aria-hidden="true" className="h-24 bg-gradient-to-br from-brand-600 via-brand-700 to-ink-900" />
      <div className="px-6 pb-6">
        <div className="-mt-10 flex items-end justify-between gap-4">
          <UserAvatar user={profile} size="lg" label={`Profile picture of ${profile.username}`} />
          <div className="flex flex-wrap justify-end gap-2">
            <Link to="/profile/edit" className="btn-primary min-h-10 px-4">
              Edit Profile
            </Link>
            <Form method="post" action="/logout">
              <button type="submit" className="btn-secondary min-h-10 px-4">
                Logout
              </button>
            </Form>
          </div>
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <p className="text-title break-all">{profile.username}</p>
          <RoleBadge role={profile.role} />
        </div>
        {profile.bio ? <p className="text-body mt-2 whitespace-pre-line">{profile.bio}</p> : null}
        <dl className="mt-4 grid gap-3 text-sm">
          <div>
            <dt className="text-caption">Email</dt>
            <dd className="break-all font-medium text-ink-900">{profile.email}</dd>
          </div>
          <div>
            <dt className="text-caption">Account type</dt>
            <dd className="font-medium text-ink-900">{ROLE_LABELS[profile.role]}</dd>
          </div>
          {profile.role === 'creator' && profile.categories.length > 0 ? (
            <div>
              <dt className="text-caption">Content categories</dt>
              <dd className="mt-1 flex flex-wrap gap-1.5">
                {profile.categories.map((category) => (
                  <span
                    key={category.id}
                    className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${categoryTones[category.status]}`}
                  >
                    {category.name}
                    {category.status === 'approved' ? '' : ` · ${category.status}`}
                  </span>
                ))}
              </dd>
            </div>
          ) : null}
          {profile.role !== 'user' ? (
            <div>
              <dt className="text-caption">Your public page</dt>
              <dd>
                <Link to={`/creator/${profile.id}`} className="font-medium text-brand-700 hover:underline">
                  View as others see it
                </Link>
              </dd>
            </div>
          ) : null}
        </dl>
        {profile.role === 'creator' && showVerification ? <VerificationStatus verified={profile.isVerified} /> : null}
      </div>
    </section>
  )
}

/** Creators see whether an admin has verified them, and can ask again (docs/product.md: Profile, Refresh). */
export function VerificationStatus({ verified }: { verified: boolean }) {
  return (
    <div
      className={`mt-5 flex flex-wrap items-center justify-between gap-3 rounded-xl px-4 py-3 ring-1 ring-inset ${
        verified ? 'bg-emerald-50 ring-emerald-200' : 'bg-spark-300/15 ring-spark-400/50'
      }`}
    >
      <div>
        <p className="text-sm font-semibold text-ink-900">Verification status</p>
        <p className="text-sm text-ink-700" data-testid="verification-status">
          {verified ? 'Verified creator — you can upload content.' : 'Pending review by an admin.'}
        </p>
      </div>
      {verified ? null : <CheckStatusForm label="Refresh" />}
    </div>
  )
}
