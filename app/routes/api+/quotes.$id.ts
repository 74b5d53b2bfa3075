import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { optionalCaller, requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { quoteShape } from '~/server/api/shapes.server'
import { deleteQuote, getQuote } from '~/server/quotes.server'

/** GET /api/quotes/:id — one quote with its original; DELETE — its author or an admin (docs/product.md, Permissions; Rules and messages). */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    return quoteShape(await getQuote(caller?.claims ?? null, params.id ?? ''))
  },
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp, VIDEO_MESSAGES.loginToDeleteQuote)
    return { message: await deleteQuote(caller.claims, params.id ?? '') }
  },
})
export const loader = api.loader
export const action = api.action
