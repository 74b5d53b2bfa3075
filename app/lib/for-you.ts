import type { FormFailure } from './forms'
/**
 * The sparks feeds as the pages name them (ADR 0045): `?feed=following`
 * picks Following; anything else, or nothing, is For You.
 */
export const SPARK_FEEDS = ['for-you', 'following'] as const
export type SparkFeed = (typeof SPARK_FEEDS)[number]

export function parseSparkFeed(value: string | null | undefined): SparkFeed {
  return value === 'following' ? 'following' : 'for-you'
}

/** The query a feed adds to a sparks URL: nothing for For You (the default). */
export function feedParams(feed: SparkFeed): Record<string, string> {
  return feed === 'following' ? { feed: 'following' } : {}
}

export const SPARK_FEED_LABELS: Record<SparkFeed, string> = { 'for-you': 'For You', following: 'Following' }

export const NOT_INTERESTED_MESSAGES = {
  done: 'Got it: you will see fewer clips like this.',
  doneCreator: 'Got it: you will see fewer clips like this, and fewer from this creator.',
  failed: 'Could not save that. Please try again.',
} as const

/** What POST /sparks-reels answers a script for `intent=not-interested`. */
export type NotInterestedActionData =
  | { ok: true; intent: 'not-interested'; targetId: string; message: string }
  | (FormFailure & { intent: 'not-interested'; targetId: string; formError: string })
