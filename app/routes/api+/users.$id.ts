import { getAccount } from '~/server/accounts.server'
import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { accountShape, creatorProfileShape } from '~/server/api/shapes.server'
import { getCreator } from '~/server/creators.server'

/**
 * GET /api/users/:id — one's own user object (with email), or a creator's or
 * admin's public page (followers, following, videos; never an email); a
 * learner has no public page: 404 'Creator Not Found', as /creator/:id.
 */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const id = params.id ?? ''
    if (caller && id === caller.user.id) {
      const account = await getAccount(caller.claims)
      if (account) return accountShape(account)
    }
    return creatorProfileShape(await getCreator(caller?.claims ?? null, id))
  },
})
export const loader = api.loader
export const action = api.action
