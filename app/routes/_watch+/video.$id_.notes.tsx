import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { NOTE_INTENTS, NOTE_MESSAGES, parseNoteMoment, type NoteActionData, type NoteIntent } from '~/lib/schemas/notes'
import { field } from '~/lib/schemas/video'
import { isDomainError } from '~/server/errors.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders, redirectWithHeaders } from '~/server/http/responses.server'
import { addNote, deleteNote, updateNote } from '~/server/notes.server'
import { requireUser } from '~/server/permissions.server'

/**
 * /video/:id/notes — where the video page's Notes panel posts (`intent`:
 * note-add with `at` and `text`, note-edit with `noteId` too, note-delete
 * with `noteId`). The same domain functions as the /api twins. Scripted
 * submissions (`js=1`) get data back and the page's data reloads in place;
 * plain form posts go back to the video at the note's moment (`?t=`) with a
 * flash message. Nothing to show here: a visit goes to the video's notes.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { headers } = await requireUser(request, context)
  return redirectWithHeaders(`/video/${encodeURIComponent(params.id ?? '')}#notes`, headers)
}

const FAILURES: Record<NoteIntent, string> = {
  'note-add': NOTE_MESSAGES.addFailed,
  'note-edit': NOTE_MESSAGES.saveFailed,
  'note-delete': NOTE_MESSAGES.deleteFailed,
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const videoId = params.id ?? ''
  const here = `/video/${encodeURIComponent(videoId)}`
  const form = await request.formData()
  const scripted = form.get('js') === '1'
  const intent = NOTE_INTENTS.find((one) => one === field(form, 'intent')) ?? null
  const noteId = field(form, 'noteId') ?? null
  const values = { at: field(form, 'at') ?? '', text: field(form, 'text') ?? '' }
  const reply = (value: NoteActionData, status = 200) => jsonWithHeaders<NoteActionData>(value, status, headers)
  // Back to the video, at the moment the learner was at (so the player is where they left it).
  const back = (hash: string) => {
    const at = parseNoteMoment(values.at)
    return `${here}${at !== null ? `?t=${at}` : ''}#${hash}`
  }
  if (!intent) return reply({ ok: false, intent: null, noteId, formError: NOTE_MESSAGES.unknownAction }, 400)

  try {
    switch (intent) {
      case 'note-add': {
        const note = await addNote(claims, videoId, values)
        return scripted
          ? reply({ ok: true, intent, noteId: note.id, message: NOTE_MESSAGES.added })
          : redirectWithFlash(
              `${here}?t=${note.atSeconds}#note-${note.id}`,
              { kind: 'success', message: NOTE_MESSAGES.added },
              headers,
            )
      }
      case 'note-edit': {
        const note = await updateNote(claims, noteId ?? '', values)
        return scripted
          ? reply({ ok: true, intent, noteId: note.id, message: NOTE_MESSAGES.saved })
          : redirectWithFlash(
              `${here}?t=${note.atSeconds}#note-${note.id}`,
              { kind: 'success', message: NOTE_MESSAGES.saved },
              headers,
            )
      }
      case 'note-delete': {
        const { message } = await deleteNote(claims, noteId ?? '')
        return scripted
          ? reply({ ok: true, intent, noteId, message })
          : redirectWithFlash(`${here}#notes`, { kind: 'success', message }, headers)
      }
    }
  } catch (error) {
    if (isDomainError(error)) {
      if (scripted) {
        return reply({ ok: false, intent, noteId, formError: error.message, fieldErrors: error.fieldErrors, values }, error.status)
      }
      return redirectWithFlash(
        back(intent === 'note-add' ? 'notes' : `note-${noteId ?? ''}`),
        { kind: 'error', message: error.message },
        headers,
      )
    }
    console.warn(`[notes] ${intent} failed for ${videoId}:`, error instanceof Error ? error.message : error)
    if (scripted) return reply({ ok: false, intent, noteId, formError: FAILURES[intent], values }, 500)
    return redirectWithFlash(back('notes'), { kind: 'error', message: FAILURES[intent] }, headers)
  }
}
