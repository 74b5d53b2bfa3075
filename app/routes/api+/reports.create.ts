import { requireCaller } from '~/server/api/caller.server'
import { apiReport } from '~/server/api/moderation.server'
import { apiRoute, json, readBody } from '~/server/api/route.server'
import { z } from 'zod'

/** POST /api/reports/create — the second variant of POST /api/reports (docs/product.md, The JSON API). */
const api = apiRoute({
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return json(await apiReport(caller, await readBody(request, z.unknown())), 201)
  },
})
export const loader = api.loader
export const action = api.action
