import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import type { VideoNote, VideoNotesGroup } from '~/lib/schemas/notes'
import type { Endpoint } from './openapi.server'

extendZodWithOpenApi(z)

/**
 * The notes calls of the /api (their rows in the OpenAPI table come from
 * here): private timestamped notes through the same domain functions as
 * the pages (app/server/notes.server.ts). Only the learner's own, always.
 */
const id = z.string().uuid().openapi({ description: 'A uuid' })
const timestamp = z.string().openapi({ description: 'ISO 8601 date and time' })

export const NoteSchema = z
  .object({
    _id: id,
    videoId: id,
    at: z.number().int().min(0).openapi({ description: 'The moment, in whole seconds' }),
    text: z.string(),
    link: z.string().openapi({ description: 'The video page at that moment (a path with `?t=`)' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Note', { description: 'One of your notes (private to you)' })

export const NoteBody = z
  .object({
    at: z
      .union([z.number(), z.string()])
      .openapi({ description: 'The moment: seconds (7) or a clock ("0:07", "1:02:03"); past the video’s end is its end' }),
    text: z.string().openapi({ description: '1 to 2000 characters' }),
  })
  .openapi('NoteBody')

export const NotesByVideoSchema = z
  .array(
    z.object({
      video: z.object({ _id: id, title: z.string(), creator: z.string().openapi({ description: 'The creator’s username' }) }),
      notes: z.array(NoteSchema),
    }),
  )
  .openapi('NotesByVideo', { description: 'Your notes by video, the video noted most recently first; each video’s by moment' })

export const NOTE_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/videos/{id}/notes',
    tag: 'Notes',
    access: 'bearer',
    summary: 'Your notes on a video, by moment (nobody else’s, ever)',
    ok: { status: 200, schema: z.object({ notes: z.array(NoteSchema) }), description: 'Your notes' },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/videos/{id}/notes',
    tag: 'Notes',
    access: 'bearer',
    summary: 'Add a note at a moment of a video you can watch',
    body: NoteBody,
    ok: { status: 201, schema: z.object({ note: NoteSchema }), description: 'The note as saved' },
    errors: [400, 401, 404],
  },
  {
    method: 'put',
    path: '/notes/{id}',
    tag: 'Notes',
    access: 'bearer',
    summary: 'Change one of your notes (its text and moment); someone else’s is 404',
    body: NoteBody,
    ok: { status: 200, schema: z.object({ note: NoteSchema }), description: 'The note as saved' },
    errors: [400, 401, 404],
  },
  {
    method: 'delete',
    path: '/notes/{id}',
    tag: 'Notes',
    access: 'bearer',
    summary: 'Delete one of your notes; someone else’s is 404',
    ok: { status: 200, schema: z.object({ message: z.string() }), description: 'Deleted' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/notes/export',
    tag: 'Notes',
    access: 'bearer',
    summary: 'Your notes as a Markdown file (`videoId`: one video’s), each time a link to that moment (`?t=`)',
    query: z.object({ videoId: z.string().optional() }),
    ok: { status: 200, binary: 'text/markdown', description: 'A Markdown attachment (Content-Disposition names the file)' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/users/{id}/notes',
    tag: 'Notes',
    access: 'bearer',
    summary: 'Every note of yours, by video; only your own',
    ok: { status: 200, schema: NotesByVideoSchema, description: 'Your notes by video' },
    errors: [401, 403, 404],
  },
]

/** One note in the API's spelling. */
export function noteShape(note: VideoNote): z.infer<typeof NoteSchema> {
  return {
    _id: note.id,
    videoId: note.videoId,
    at: note.atSeconds,
    text: note.body,
    link: `/video/${note.videoId}?t=${note.atSeconds}`,
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  }
}

export function notesByVideoShape(groups: VideoNotesGroup[]): z.infer<typeof NotesByVideoSchema> {
  return groups.map((group) => ({
    video: { _id: group.video.id, title: group.video.title, creator: group.video.creator },
    notes: group.notes.map(noteShape),
  }))
}
