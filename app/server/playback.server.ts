import { sql } from 'kysely'
import { PLAYBACK_RATE_MESSAGES, parsePlaybackRate, type PlaybackRate } from '~/lib/playback-rate'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { asCaller, type JwtClaims } from './db.server'
import { DomainError } from './errors.server'

/**
 * The learner's playback speed (ADR 0043): the speed every player starts at,
 * kept in `profiles.playback_rate` — private, read through
 * `public.profile_playback_rate()`, written as the caller under the profiles
 * update policy. A visitor has none (null): their browser remembers theirs.
 */
export async function getPlaybackRate(claims: JwtClaims | null): Promise<PlaybackRate | null> {
  if (!claims) return null
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<{ rate: number }>`select public.profile_playback_rate() as rate`.execute(tx)
    return parsePlaybackRate(rows[0]?.rate) ?? 1
  })
}

/** Saves the caller's speed; anything but a step from 0.5× to 2× is refused with a field error (`playbackRate`). */
export async function setPlaybackRate(claims: JwtClaims | null, value: unknown): Promise<PlaybackRate> {
  if (!claims) throw new DomainError('unauthenticated', CREATOR_MESSAGES.signInToEdit)
  const rate = parsePlaybackRate(value)
  if (rate === null) {
    throw new DomainError('invalid', PLAYBACK_RATE_MESSAGES.invalid, { playbackRate: PLAYBACK_RATE_MESSAGES.invalid })
  }
  const updated = await asCaller(claims, (tx) =>
    tx.updateTable('profiles').set({ playback_rate: rate }).where('id', '=', claims.sub).executeTakeFirst(),
  )
  if (Number(updated.numUpdatedRows) !== 1) throw new DomainError('not_found', CREATOR_MESSAGES.signInToEdit)
  return rate
}
