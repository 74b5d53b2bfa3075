import { ADMIN_MESSAGES } from '~/lib/schemas/admin'
import { requireCaller } from '~/server/api/caller.server'
import { requireAdmin, reviewBody } from '~/server/api/moderation.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { reviewApplication } from '~/server/applications.server'

/** PUT /api/admin/creator-applications/:id `{ approved, reviewNotes }` — approve or reject (docs/product.md, The JSON API). */
const api = apiRoute({
  PUT: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireAdmin(caller)
    const body = await readBody(request, reviewBody)
    const status = await reviewApplication(caller, {
      applicationId: params.id ?? '',
      approved: body.approved,
      reviewNotes: body.reviewNotes,
    })
    return { status, message: status === 'approved' ? ADMIN_MESSAGES.approved : ADMIN_MESSAGES.rejected }
  },
})
export const loader = api.loader
export const action = api.action
