import { Link } from '@remix-run/react'
import { ROLE_LABELS, UserAvatar } from '~/components/user-avatar'
import type { CreatorPageData } from '~/lib/creator-types'
import { formatNumber } from '~/lib/format'
import { PersonBadge } from './creator-card'
import { FollowButton } from './follow-button'

/** A creator page's header: picture, username, badge, bio, counts and Follow/Unfollow (not on one's own page). */
export function CreatorHeader({ creator, signedIn }: { creator: CreatorPageData; signedIn: boolean }) {
  const stats = [
    { label: 'Followers', value: creator.followers, testId: 'followers-count' },
    { label: 'Following', value: creator.following, testId: 'following-count' },
    { label: 'Videos', value: creator.videoCount, testId: 'videos-count' },
  ]
  return (
    <section aria-labelledby="creator-name" className="card overflow-hidden">
      <div aria-hidden="true" className="h-24 bg-gradient-to-br from-brand-600 via-brand-700 to-ink-900" />
      <div className="px-6 pb-6">
        <div className="-mt-10 flex items-end justify-between gap-4">
          <UserAvatar user={creator} size="lg" label={`Profile picture of ${creator.username}`} />
          {creator.isSelf ? (
            <Link to="/profile" className="btn-secondary min-h-10 px-4 text-sm">
              Your profile
            </Link>
          ) : (
            <FollowButton
              creatorId={creator.id}
              username={creator.username}
              isFollowing={creator.isFollowed}
              signedIn={signedIn}
              variant="page"
            />
          )}
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <h1 id="creator-name" className="text-title break-all">
            {creator.username}
          </h1>
          <PersonBadge label={ROLE_LABELS[creator.role]} tone={creator.role === 'admin' ? 'admin' : 'brand'} />
        </div>
        {creator.bio ? <p className="text-body mt-2 whitespace-pre-line">{creator.bio}</p> : null}
        <dl className="mt-5 grid grid-cols-3 gap-2 text-center">
          {stats.map((stat) => (
            <div key={stat.label} className="rounded-xl bg-ink-50 px-2 py-3 ring-1 ring-inset ring-ink-200/70">
              <dt className="text-caption">{stat.label}</dt>
              <dd className="text-lg font-semibold tabular-nums text-ink-900" data-testid={stat.testId}>
                {formatNumber(stat.value)}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  )
}

/** Tabs of a page as links (`?tab=…`), so each works and can be linked without JavaScript. */
export function TabLinks<T extends string>({
  label,
  tabs,
  current,
  href,
}: {
  label: string
  tabs: readonly { id: T; label: string }[]
  current: T
  href: (tab: T) => string
}) {
  return (
    <nav aria-label={label}>
      <ul className="flex w-fit max-w-full flex-wrap gap-1 rounded-3xl bg-white p-1 ring-1 ring-ink-200/80">
        {tabs.map((tab) => (
          <li key={tab.id} className="shrink-0">
            <Link
              to={href(tab.id)}
              preventScrollReset
              aria-current={tab.id === current ? 'page' : undefined}
              className={`flex min-h-11 items-center justify-center whitespace-nowrap rounded-full px-4 text-sm font-semibold transition-colors ${
                tab.id === current ? 'bg-brand-600 text-white' : 'text-ink-700 hover:bg-ink-100'
              }`}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
