/**
 * The shapes of creators, follows and the profile as pages render them
 * (made by app/server/creators|follows|profiles.server.ts): plain data,
 * importable anywhere.
 */
/** A person's role (the shell's ShellRole). */
export type PersonRole = 'user' | 'creator' | 'admin'

export interface CreatorCard {
  id: string
  username: string
  role: PersonRole
  isVerified: boolean
  bio: string
  avatarUrl: string | null
  /** Public, ready videos and sparks. */
  videoCount: number
  /** Whether the signed-in caller follows them (false for visitors). */
  isFollowed: boolean
  /** The caller's own card ("You" instead of Follow). */
  isSelf: boolean
}

export interface CreatorPageData extends CreatorCard {
  followers: number
  following: number
  joinedAt: string
}

export interface CreatorListPage {
  items: CreatorCard[]
  /** How many creators there are, or match the search (the count badge). */
  total: number
  nextCursor: string | null
}

export interface FollowState {
  isFollowing: boolean
  /** The creator's follower count after the change (count of rows). */
  followers: number
}

/** A person the caller follows (Profile, Following tab). */
export interface FollowedCreator {
  id: string
  username: string
  role: PersonRole
  bio: string
  avatarUrl: string | null
}

export interface FollowingPage {
  items: FollowedCreator[]
  nextCursor: string | null
}

export type CategoryStatus = 'pending' | 'approved' | 'rejected'

/** The caller's own profile, private fields included (Profile tab, Edit Profile). */
export interface OwnProfile {
  id: string
  email: string
  username: string
  role: PersonRole
  isVerified: boolean
  bio: string
  avatarUrl: string | null
  fieldOfInterest: string | null
  concentration: string | null
  portfolio: { type: 'video' | 'image' | 'document' } | null
  categories: { id: string; name: string; status: CategoryStatus }[]
  joinedAt: string
  /** Captions on by default in the players (ADR 0019; private to the user). */
  captionsOn: boolean
  /** The speed the players start at, 0.5 to 2 by 0.25 (ADR 0043; private to the user). */
  playbackRate: number
}

/** One of the caller's reports and where it stands (Profile, My Reports). */
export interface MyReport {
  id: string
  contentType: 'video' | 'quote' | 'comment'
  contentId: string
  /** The content's title or an excerpt while the caller can still see it; null once gone. */
  label: string | null
  /** Where to see it (the video page), when there is one. */
  href: string | null
  reason: string
  details: string
  status: 'pending' | 'reviewed' | 'dismissed' | 'removed'
  createdAt: string
  reviewedAt: string | null
}
