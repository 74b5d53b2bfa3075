import { NOTE_MESSAGES } from '~/lib/schemas/notes'
import { requireCaller } from '~/server/api/caller.server'
import { notesByVideoShape } from '~/server/api/notes.server'
import { apiRoute } from '~/server/api/route.server'
import { requireSelf } from '~/server/api/users.server'
import { listMyNotes } from '~/server/notes.server'

/** GET /api/users/:id/notes — every note of one's own, by video. Someone else's: 403. */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    await requireSelf(caller, params.id ?? '', NOTE_MESSAGES.ownNotesOnly)
    return notesByVideoShape(await listMyNotes(caller.claims))
  },
})
export const loader = api.loader
export const action = api.action
