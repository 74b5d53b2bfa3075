import { Link } from '@remix-run/react'
import { FollowButton } from '~/components/creators/follow-button'
import { UserAvatar } from '~/components/user-avatar'
import { EmptyState } from '~/components/video-grid'
import type { FollowingPage } from '~/lib/creator-types'
import { truncate } from '~/lib/format'
import { FOLLOWING_BIO_CHARS } from '~/lib/schemas/creators'

/** Profile, Following: each creator with a link to their page, bio cut to 60 characters, and Unfollow. */
export function FollowingList({ page, cursor }: { page: FollowingPage; cursor: string | null }) {
  if (page.items.length === 0 && !cursor) {
    return (
      <EmptyState
        title="You’re not following anyone yet"
        message="Follow creators to keep up with their new lessons."
        action={{ href: '/explore', label: 'Explore creators' }}
      />
    )
  }
  return (
    <div className="flex flex-col gap-4">
      <ul className="card divide-y divide-ink-100" aria-label="Creators you follow">
        {page.items.map((creator) => (
          <li key={creator.id} className="flex items-center gap-3 px-4 py-3" data-following={creator.id}>
            <UserAvatar user={creator} size="md" />
            <div className="min-w-0 flex-1">
              <Link to={`/creator/${creator.id}`} className="font-semibold text-ink-900 hover:text-brand-700">
                {creator.username}
              </Link>
              <p className="text-caption truncate">{creator.bio ? truncate(creator.bio, FOLLOWING_BIO_CHARS) : 'No bio yet.'}</p>
            </div>
            <FollowButton creatorId={creator.id} username={creator.username} isFollowing signedIn variant="list" />
          </li>
        ))}
      </ul>
      <div className="flex justify-center gap-3">
        {cursor ? (
          <Link to="/profile?tab=following" className="btn-secondary">
            First page
          </Link>
        ) : null}
        {page.nextCursor ? (
          <Link to={`/profile?tab=following&cursor=${encodeURIComponent(page.nextCursor)}`} className="btn-secondary" rel="next">
            More
          </Link>
        ) : null}
      </div>
    </div>
  )
}
