import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { ownProfileThroughApi } from '~/server/api/preferences.server'
import { updateProfileThroughApi } from '~/server/api/users.server'
import { discardUploadBody } from '~/server/http/forms.server'

/**
 * GET /api/users/profile — your user object and player preferences (ADR 0043).
 * PUT /api/users/profile — multipart username, bio, categories, profilePicture, portfolioFile, playbackRate,
 * captionsOn (the edit page's save).
 */
const api = apiRoute({
  GET: async ({ request, clientIp }) => ownProfileThroughApi(await requireCaller(request, clientIp)),
  PUT: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp, CREATOR_MESSAGES.signInToEdit).catch(async (error: unknown) => {
      await discardUploadBody(request)
      throw error
    })
    return updateProfileThroughApi(caller, request)
  },
})
export const loader = api.loader
export const action = api.action
