import { z } from 'zod'
import { requireCaller } from '~/server/api/caller.server'
import { noteShape } from '~/server/api/notes.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { deleteNote, updateNote } from '~/server/notes.server'

/** PUT /api/notes/:id — changes one of the caller's notes (`{ at, text }`); DELETE — removes it. Someone else's: 404. */
const api = apiRoute({
  PUT: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = await readBody(request, z.record(z.unknown()))
    return { note: noteShape(await updateNote(caller.claims, params.id ?? '', body)) }
  },
  DELETE: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const { message } = await deleteNote(caller.claims, params.id ?? '')
    return { message }
  },
})
export const loader = api.loader
export const action = api.action
