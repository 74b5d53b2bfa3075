import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import { PLAYBACK_RATES } from '~/lib/playback-rate'
import type { OwnProfile } from '~/lib/creator-types'
import { getAccount } from '../accounts.server'
import { DomainError } from '../errors.server'
import { getOwnProfile } from '../profiles.server'
import { API_MESSAGES } from '~/lib/schemas/api'
import type { ApiCaller } from './caller.server'
import type { Endpoint } from './openapi.server'
import { UserSchema } from './schemas.server'
import { accountShape } from './shapes.server'

extendZodWithOpenApi(z)

/**
 * The player preferences of one's own profile in the /api (ADR 0043): GET
 * /users/profile reads them with the user object; PUT /users/profile (the
 * edit-profile form's twin, app/server/api/users.server.ts) sets them with
 * `playbackRate` and `captionsOn`. Private: only their owner reads them.
 */
export const PlayerPreferencesSchema = z
  .object({
    playbackRate: z
      .number()
      .openapi({ enum: [...PLAYBACK_RATES], description: 'The speed the players start at: 0.5 to 2 by 0.25' }),
    captionsOn: z.boolean().openapi({ description: 'Captions on by default in the players' }),
  })
  .openapi('PlayerPreferences')

export const OwnProfileSchema = z
  .object({ user: UserSchema, preferences: PlayerPreferencesSchema })
  .openapi('OwnProfile', { description: 'Your user object and your player preferences' })

export function preferencesShape(profile: Pick<OwnProfile, 'playbackRate' | 'captionsOn'>): z.infer<typeof PlayerPreferencesSchema> {
  return { playbackRate: profile.playbackRate, captionsOn: profile.captionsOn }
}

/** GET /users/profile: your user object and your player preferences. */
export async function ownProfileThroughApi(caller: ApiCaller): Promise<z.infer<typeof OwnProfileSchema>> {
  const [account, profile] = await Promise.all([getAccount(caller.claims), getOwnProfile(caller.claims)])
  if (!account) throw new DomainError('unauthenticated', API_MESSAGES.badToken)
  return { user: accountShape(account), preferences: preferencesShape(profile) }
}

export const PROFILE_PREFERENCE_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/users/profile',
    tag: 'Users',
    access: 'bearer',
    summary: 'Your user object and your player preferences (playback speed, captions on by default)',
    ok: { status: 200, schema: OwnProfileSchema, description: 'Yours only: nobody else reads your preferences' },
    errors: [401],
  },
]
