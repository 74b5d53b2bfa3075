import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import {
  NOTE_MESSAGES,
  noteSchema,
  notesFileName,
  notesMarkdown,
  type VideoNote,
  type VideoNotesGroup,
} from '~/lib/schemas/notes'
import { asCaller, type JwtClaims } from './db.server'
import { DomainError, isPermissionError } from './errors.server'

/**
 * Private timestamped notes (ADR 0044): a learner's notes at
 * moments of the videos they can see. Row-level security keeps them private
 * (public.video_notes: only the learner reads, adds, changes and removes
 * their own); every function here runs as the caller. The video page, the
 * profile's Notes tab, the Markdown export and their /api twins all call these.
 */

export interface NoteRow {
  id: string
  video_id: string
  at_seconds: number
  body: string
  created_at: Date | string
  updated_at: Date | string
}

const iso = (value: Date | string) => new Date(value).toISOString()

export function toNote(row: NoteRow): VideoNote {
  return {
    id: row.id,
    videoId: row.video_id,
    atSeconds: Number(row.at_seconds),
    body: row.body,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }
}

/** The input's refusal, with the field at fault. */
function parseNote(input: unknown) {
  const parsed = noteSchema.safeParse(input)
  if (parsed.success) return parsed.data
  const fieldErrors: Partial<Record<'at' | 'text', string>> = {}
  for (const issue of parsed.error.issues) {
    const name = issue.path[0] === 'at' ? 'at' : 'text'
    fieldErrors[name] ??= issue.message
  }
  throw new DomainError('invalid', fieldErrors.text ?? fieldErrors.at ?? NOTE_MESSAGES.badBody, fieldErrors)
}

/** The caller's notes on one video, by moment (none for a visitor or a video they cannot see). */
export async function listVideoNotes(claims: JwtClaims | null, videoId: string): Promise<VideoNote[]> {
  if (!claims || !isUuid(videoId)) return []
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<NoteRow>`
      select n.id, n.video_id, n.at_seconds, n.body, n.created_at, n.updated_at
        from public.video_notes n
        join public.videos v on v.id = n.video_id
       where n.user_id = ${claims.sub}::uuid and n.video_id = ${videoId}::uuid
       order by n.at_seconds, n.created_at, n.id
    `.execute(tx)
    return rows.map(toNote)
  })
}

/**
 * Adds a note (`{ at, text }`: seconds or a clock like "1:23", and the text)
 * to a video the caller can see; a moment past the video's end is its end.
 * Throws invalid (with field errors) or not_found.
 */
export async function addNote(claims: JwtClaims, videoId: string, input: unknown): Promise<VideoNote> {
  const note = parseNote(input)
  if (!isUuid(videoId)) throw new DomainError('not_found', NOTE_MESSAGES.videoNotFound)
  try {
    const row = await asCaller(claims, async (tx) => {
      const { rows } = await sql<NoteRow>`
        insert into public.video_notes (video_id, at_seconds, body)
        select v.id, least(${note.at}::int, coalesce(floor(v.duration_seconds)::int, ${note.at}::int)), ${note.text}
          from public.videos v
         where v.id = ${videoId}::uuid
        returning id, video_id, at_seconds, body, created_at, updated_at
      `.execute(tx)
      return rows[0]
    })
    if (!row) throw new DomainError('not_found', NOTE_MESSAGES.videoNotFound)
    return toNote(row)
  } catch (error) {
    if (isPermissionError(error)) throw new DomainError('not_found', NOTE_MESSAGES.videoNotFound)
    throw error
  }
}

/** Changes one of the caller's notes (`{ at, text }`). Throws invalid or not_found (someone else's is not found). */
export async function updateNote(claims: JwtClaims, noteId: string, input: unknown): Promise<VideoNote> {
  const note = parseNote(input)
  if (!isUuid(noteId)) throw new DomainError('not_found', NOTE_MESSAGES.noteNotFound)
  const row = await asCaller(claims, async (tx) => {
    const { rows } = await sql<NoteRow>`
      update public.video_notes n
         set body = ${note.text},
             at_seconds = least(${note.at}::int, coalesce(
               (select floor(v.duration_seconds)::int from public.videos v where v.id = n.video_id), ${note.at}::int)),
             updated_at = now()
       where n.id = ${noteId}::uuid and n.user_id = ${claims.sub}::uuid
      returning n.id, n.video_id, n.at_seconds, n.body, n.created_at, n.updated_at
    `.execute(tx)
    return rows[0]
  })
  if (!row) throw new DomainError('not_found', NOTE_MESSAGES.noteNotFound)
  return toNote(row)
}

/** Removes one of the caller's notes; returns the video it was on. Throws not_found (someone else's too). */
export async function deleteNote(claims: JwtClaims, noteId: string): Promise<{ videoId: string; message: string }> {
  if (!isUuid(noteId)) throw new DomainError('not_found', NOTE_MESSAGES.noteNotFound)
  const row = await asCaller(claims, async (tx) => {
    const { rows } = await sql<{ video_id: string }>`
      delete from public.video_notes where id = ${noteId}::uuid and user_id = ${claims.sub}::uuid returning video_id
    `.execute(tx)
    return rows[0]
  })
  if (!row) throw new DomainError('not_found', NOTE_MESSAGES.noteNotFound)
  return { videoId: row.video_id, message: NOTE_MESSAGES.deleted }
}

type GroupRow = NoteRow & { title: string; creator: string }

/**
 * Every note of the caller, by video — the video noted most recently first,
 * each video's notes by moment — on videos they can still see (`videoId`:
 * that video's only).
 */
export async function listMyNotes(claims: JwtClaims, options: { videoId?: string } = {}): Promise<VideoNotesGroup[]> {
  if (options.videoId !== undefined && !isUuid(options.videoId)) return []
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<GroupRow>`
      select n.id, n.video_id, n.at_seconds, n.body, n.created_at, n.updated_at, v.title, p.username as creator
        from public.video_notes n
        join public.videos v on v.id = n.video_id
        join public.profiles p on p.id = v.creator_id
       where n.user_id = ${claims.sub}::uuid
         ${options.videoId ? sql`and n.video_id = ${options.videoId}::uuid` : sql``}
       order by max(n.updated_at) over (partition by n.video_id) desc, n.video_id, n.at_seconds, n.created_at, n.id
    `.execute(tx)
    const groups: VideoNotesGroup[] = []
    for (const row of rows) {
      let group = groups.at(-1)
      if (!group || group.video.id !== row.video_id) {
        group = { video: { id: row.video_id, title: row.title, creator: row.creator }, notes: [] }
        groups.push(group)
      }
      group.notes.push(toNote(row))
    }
    return groups
  })
}

/**
 * The caller's notes as a Markdown file (every video's, or one video's:
 * `videoId`), each note's time a link to that moment on `siteUrl`. A video
 * the caller cannot see is not_found.
 */
export async function exportNotes(
  claims: JwtClaims,
  options: { videoId?: string | null; siteUrl: string; now?: Date },
): Promise<{ fileName: string; markdown: string }> {
  const videoId = options.videoId || undefined
  let groups: VideoNotesGroup[]
  let title: string | null = null
  if (videoId) {
    if (!isUuid(videoId)) throw new DomainError('not_found', NOTE_MESSAGES.videoNotFound)
    const video = await asCaller(claims, async (tx) => {
      const { rows } = await sql<{ id: string; title: string; creator: string }>`
        select v.id, v.title, p.username as creator
          from public.videos v join public.profiles p on p.id = v.creator_id
         where v.id = ${videoId}::uuid
      `.execute(tx)
      return rows[0]
    })
    if (!video) throw new DomainError('not_found', NOTE_MESSAGES.videoNotFound)
    title = video.title
    const found = await listMyNotes(claims, { videoId })
    groups = found.length ? found : [{ video, notes: [] }]
  } else {
    groups = await listMyNotes(claims)
  }
  return { fileName: notesFileName(title), markdown: notesMarkdown(groups, options.siteUrl, options.now ?? new Date()) }
}

/** The download's headers: Markdown, as an attachment with a safe (ASCII, quoted) file name, never cached. */
export function markdownDownloadHeaders(fileName: string): Record<string, string> {
  const safe = fileName.replace(/[^\w.-]/g, '_')
  return {
    'Content-Type': 'text/markdown; charset=utf-8',
    'Content-Disposition': `attachment; filename="${safe}"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  }
}
