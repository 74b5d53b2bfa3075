import { ADMIN_MESSAGES } from '~/lib/schemas/admin'
import { requireCaller } from '~/server/api/caller.server'
import { addUserInput, requireAdmin } from '~/server/api/moderation.server'
import { apiRoute, json, readBody } from '~/server/api/route.server'
import { adminUserShape } from '~/server/api/shapes.server'
import { addUser, listUsers } from '~/server/users.server'
import { z } from 'zod'

/** GET /api/admin/users — newest first (`search`, `cursor`; the next cursor in X-Next-Cursor); POST — add a user. */
const api = apiRoute({
  GET: async ({ request, url, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const page = await listUsers(caller.claims, {
      search: url.searchParams.get('search') ?? '',
      cursor: url.searchParams.get('cursor'),
    })
    const headers: Record<string, string> = { 'Cache-Control': 'no-store' }
    if (page.next) headers['X-Next-Cursor'] = page.next
    return Response.json(page.users.map(adminUserShape), { headers })
  },
  POST: async ({ request, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireAdmin(caller)
    const input = addUserInput(await readBody(request, z.unknown()))
    const id = await addUser(caller.claims, input)
    return json(
      { message: ADMIN_MESSAGES.userAdded, user: { _id: id, username: input.username, email: input.email, role: input.role } },
      201,
    )
  },
})
export const loader = api.loader
export const action = api.action
