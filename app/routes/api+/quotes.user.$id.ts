import { API_MESSAGES } from '~/lib/schemas/api'
import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { quoteShape } from '~/server/api/shapes.server'
import { DomainError } from '~/server/errors.server'
import { profileExists } from '~/server/profiles.server'
import { listUserQuotes } from '~/server/quotes.server'

/** GET /api/quotes/user/:id — a user's quotes of videos the caller can see, newest first (My Quotes for oneself). */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const claims = caller?.claims ?? null
    const id = params.id ?? ''
    if (!(await profileExists(claims, id))) throw new DomainError('not_found', API_MESSAGES.userNotFound)
    return (await listUserQuotes(claims, id)).map(quoteShape)
  },
})
export const loader = api.loader
export const action = api.action
