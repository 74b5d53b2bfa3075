import { API_MESSAGES } from '~/lib/schemas/api'
import { requireCaller } from '~/server/api/caller.server'
import { requireAdmin } from '~/server/api/moderation.server'
import { apiRoute } from '~/server/api/route.server'
import { deleteUser } from '~/server/users.server'

/** DELETE /api/admin/users/:id — a user and everything they own; never the admin's own row (403). */
const api = apiRoute({
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireAdmin(caller)
    await deleteUser(caller.claims, params.id ?? '')
    return { message: API_MESSAGES.userDeleted }
  },
})
export const loader = api.loader
export const action = api.action
