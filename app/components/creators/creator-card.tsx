import { Link } from '@remix-run/react'
import { ROLE_LABELS, UserAvatar } from '~/components/user-avatar'
import type { CreatorCard } from '~/lib/creator-types'
import { formatCount, truncate } from '~/lib/format'
import { CREATORS_BIO_CHARS } from '~/lib/schemas/creators'
import { FollowButton } from './follow-button'

/** A badge saying what a person is (Creator or Admin), or "You" on one's own card. */
export function PersonBadge({ label, tone }: { label: string; tone: 'brand' | 'admin' | 'self' | 'pending' }) {
  const tones = {
    brand: 'bg-brand-50 text-brand-700 ring-brand-200',
    pending: 'bg-amber-50 text-amber-900 ring-amber-200',
    admin: 'bg-spark-300/30 text-ink-900 ring-spark-400/60',
    self: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  } as const
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tones[tone]}`}
    >
      {label}
    </span>
  )
}

/**
 * One creator on Discover Creators: picture, username, badge, bio cut to 100
 * characters, video count, Follow / Following (or "You" on one's own card),
 * View Profile and View Videos. A creator still pending review (listed to
 * admins only) says so.
 */
export function CreatorCardView({ creator, signedIn }: { creator: CreatorCard; signedIn: boolean }) {
  const href = `/creator/${creator.id}`
  return (
    <article
      className="card flex h-full flex-col gap-4 p-5"
      data-creator-card={creator.id}
      aria-labelledby={`creator-${creator.id}`}
    >
      <div className="flex items-start gap-3">
        <UserAvatar user={creator} size="md" />
        <div className="min-w-0 flex-1">
          <h2 id={`creator-${creator.id}`} className="truncate text-base font-semibold text-ink-900">
            <Link to={href} className="hover:text-brand-700">
              {creator.username}
            </Link>
          </h2>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <PersonBadge label={ROLE_LABELS[creator.role]} tone={creator.role === 'admin' ? 'admin' : 'brand'} />
            {creator.role === 'creator' && !creator.isVerified ? <PersonBadge label="Pending review" tone="pending" /> : null}
            <span className="text-caption">{formatCount(creator.videoCount, 'video')}</span>
          </div>
        </div>
        {creator.isSelf ? (
          <PersonBadge label="You" tone="self" />
        ) : (
          <FollowButton creatorId={creator.id} username={creator.username} isFollowing={creator.isFollowed} signedIn={signedIn} />
        )}
      </div>
      <p className="text-body flex-1">{creator.bio ? truncate(creator.bio, CREATORS_BIO_CHARS) : 'No bio yet.'}</p>
      <div className="flex flex-wrap gap-2">
        <Link to={href} className="btn-secondary min-h-10 px-4 text-sm" aria-label={`View profile of ${creator.username}`}>
          View Profile
        </Link>
        <Link
          to={`${href}?tab=videos#videos`}
          className="btn-secondary min-h-10 px-4 text-sm"
          aria-label={`View videos of ${creator.username}`}
        >
          View Videos
        </Link>
      </div>
    </article>
  )
}
