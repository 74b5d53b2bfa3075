import { z } from 'zod'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { setFollow } from '~/server/follows.server'

const followBody = z.object({ follow: z.boolean({ invalid_type_error: 'follow must be true or false' }).optional() })

/** POST /api/users/follow/:id — toggles following (or sets `follow`); `{ isFollowing, isFollowed, followers }`. */
const api = apiRoute({
  POST: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp, CREATOR_MESSAGES.loginToFollow)
    const { follow } = await readBody(request, followBody)
    const state = await setFollow(caller.claims, params.id ?? '', follow)
    return { isFollowing: state.isFollowing, isFollowed: state.isFollowing, followers: state.followers }
  },
})
export const loader = api.loader
export const action = api.action
