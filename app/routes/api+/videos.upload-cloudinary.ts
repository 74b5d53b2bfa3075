import { requireCaller } from '~/server/api/caller.server'
import { apiRoute, json } from '~/server/api/route.server'
import { uploadThroughApi } from '~/server/api/videos.server'
import { discardUploadBody } from '~/server/http/forms.server'

/** POST /api/videos/upload-cloudinary — multipart upload (verified creators and admins), the page's checks. */
const api = apiRoute({
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp).catch(async (error: unknown) => {
      await discardUploadBody(request)
      throw error
    })
    return json(await uploadThroughApi(caller, request), 201)
  },
})
export const loader = api.loader
export const action = api.action
