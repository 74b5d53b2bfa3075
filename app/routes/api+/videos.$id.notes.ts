import { z } from 'zod'
import { NOTE_MESSAGES } from '~/lib/schemas/notes'
import { requireCaller } from '~/server/api/caller.server'
import { noteShape } from '~/server/api/notes.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { DomainError } from '~/server/errors.server'
import { addNote, listVideoNotes } from '~/server/notes.server'
import { canSeeVideo } from '~/server/videos.server'

/**
 * GET /api/videos/:id/notes — the caller's notes on the video, by moment (`{ notes }`);
 * POST — adds one (`{ at, text }`), answering 201 `{ note }`. Private to the caller.
 */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const id = params.id ?? ''
    // A video the caller cannot see is 404, as everywhere.
    if (!(await canSeeVideo(caller.claims, id))) throw new DomainError('not_found', NOTE_MESSAGES.videoNotFound)
    return { notes: (await listVideoNotes(caller.claims, id)).map(noteShape) }
  },
  POST: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = await readBody(request, z.record(z.unknown()))
    const note = await addNote(caller.claims, params.id ?? '', body)
    return Response.json({ note: noteShape(note) }, { status: 201, headers: { 'Cache-Control': 'no-store' } })
  },
})
export const loader = api.loader
export const action = api.action
