import { z } from 'zod'
import { CREATOR_CATEGORIES } from '~/lib/catalog'
import { AUTH_MESSAGES, bioField, USERNAME_PATTERN } from '~/lib/schemas/auth'

/**
 * Creators, follows and the profile (docs/product.md, Screens; Rules and messages; Limits and timers): the
 * spec's texts and limits, and the edit-profile form's schema, shared by the
 * pages, the services and a future /api.
 */
export const CREATOR_MESSAGES = {
  notFound: 'Creator Not Found',
  loadFailed: 'Failed to load creators. Please try again later.',
  loginToFollow: 'Please log in to follow creators',
  followFailed: 'Failed to update follow status',
  cannotFollowSelf: 'You cannot follow yourself',
  notFollowable: 'Only creators can be followed',
  likedFailed: 'Failed to load liked videos',
  followingFailed: 'Failed to load following',
  unfollowFailed: 'Failed to unfollow creator',
  reportsFailed: 'Failed to load your reports',
  profileUpdated: 'Profile updated successfully!',
  profileFailed: 'Failed to update profile. Please try again.',
  pictureNotImage: 'Please choose an image (JPEG, PNG, WebP or GIF) for your picture',
  pictureTooLarge: 'Picture is too large. Maximum size is 5MB',
  signInToEdit: 'Please log in to edit your profile',
} as const

/** Display truncation (docs/product.md, Limits and timers). */
export const CREATORS_BIO_CHARS = 100
export const FOLLOWING_BIO_CHARS = 60

/** Discover Creators cards per page. */
export const CREATORS_PAGE_SIZE = 12

/** Profile pictures (docs/product.md, portfolio hints: image 5MB; the avatars bucket's limit). */
export const PICTURE_MAX_BYTES = 5_242_880

const categoryIds = CREATOR_CATEGORIES.map((category) => category.id) as string[]

/** The edit-profile form (the picture and portfolio files are checked by content on the server). */
export const editProfileSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, AUTH_MESSAGES.usernameRequired)
    .refine((value) => !value || USERNAME_PATTERN.test(value), AUTH_MESSAGES.usernameFormat),
  bio: bioField,
  /** Ticked category ids (creators only); unknown ids are dropped. */
  categories: z
    .array(z.string())
    .default([])
    .transform((ids) => [...new Set(ids.filter((id) => categoryIds.includes(id)))]),
})

export type EditProfileInput = z.infer<typeof editProfileSchema>

/** The follow toggle's form: who, and the state asked for (so a double submit cannot undo itself). */
export const followSchema = z.object({
  creatorId: z.string().uuid(CREATOR_MESSAGES.notFound),
  follow: z.enum(['true', 'false']).transform((value) => value === 'true'),
})
