import { requireCaller } from '~/server/api/caller.server'
import { createQuoteThroughApi } from '~/server/api/quotes.server'
import { apiRoute, json } from '~/server/api/route.server'
import { discardUploadBody } from '~/server/http/forms.server'

/** POST /api/quotes/upload-cloudinary — a text quote or a video response (the create-quote page's checks). */
const api = apiRoute({
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp).catch(async (error: unknown) => {
      await discardUploadBody(request)
      throw error
    })
    return json(await createQuoteThroughApi(caller, request), 201)
  },
})
export const loader = api.loader
export const action = api.action
