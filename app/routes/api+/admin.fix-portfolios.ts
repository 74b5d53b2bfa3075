import { fixedMessage } from '~/lib/schemas/admin'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { fixPortfolios } from '~/server/applications.server'

/** POST /api/admin/fix-portfolios — `{ fixedCount }` (docs/product.md, The JSON API). */
const api = apiRoute({
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const fixedCount = await fixPortfolios(caller.claims)
    return { fixedCount, message: fixedMessage(fixedCount) }
  },
})
export const loader = api.loader
export const action = api.action
