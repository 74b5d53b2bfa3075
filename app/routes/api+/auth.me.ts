import { getAccount } from '~/server/accounts.server'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { accountShape } from '~/server/api/shapes.server'
import { DomainError } from '~/server/errors.server'
import { API_MESSAGES } from '~/lib/schemas/api'

/** GET /api/auth/me — the signed-in user (docs/product.md, The JSON API). */
const api = apiRoute({
  GET: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const account = await getAccount(caller.claims)
    if (!account) throw new DomainError('unauthenticated', API_MESSAGES.badToken)
    return accountShape(account)
  },
})
export const loader = api.loader
export const action = api.action
