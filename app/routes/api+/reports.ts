import { requireCaller } from '~/server/api/caller.server'
import { apiReport } from '~/server/api/moderation.server'
import { apiRoute, json, readBody } from '~/server/api/route.server'
import { reportShape } from '~/server/api/shapes.server'
import { listReports } from '~/server/reports.server'
import { z } from 'zod'

/** POST /api/reports — report content; GET — every report for admins, one's own for others (docs/product.md, The JSON API). */
const api = apiRoute({
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return json(await apiReport(caller, await readBody(request, z.unknown())), 201)
  },
  GET: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    return (await listReports(caller.claims)).map(reportShape)
  },
})
export const loader = api.loader
export const action = api.action
