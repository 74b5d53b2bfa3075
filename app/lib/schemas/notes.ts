import { z } from 'zod'
import type { FormFailure } from '../forms'
import { formatDuration } from '~/lib/format'

/**
 * Private timestamped notes: a learner's notes at moments of a video (the
 * video page's Notes, the profile's Notes tab, the Markdown export and the
 * /api twins). Shared by the routes, the services and the components.
 */
export const NOTE_MESSAGES = {
  badBody: 'Please write a note',
  bodyTooLong: 'Notes can be at most 2000 characters',
  badMoment: 'Please give a moment like 1:23',
  videoNotFound: 'Video not found',
  noteNotFound: 'Note not found',
  added: 'Note added',
  saved: 'Note saved',
  deleted: 'Note deleted',
  addFailed: 'Failed to add your note',
  saveFailed: 'Failed to save your note',
  deleteFailed: 'Failed to delete your note',
  loadFailed: 'Failed to load your notes',
  unknownAction: 'Unknown action',
  ownNotesOnly: 'You can only see your own notes',
} as const

export const NOTE_BODY_MAX = 2000
/** The latest moment a note can be at (a day, as the database checks). */
export const NOTE_MOMENT_MAX = 86_400

/**
 * A moment as people write it — `7`, `0:07`, `1:02:03` — in whole seconds,
 * or null when it is not one (or past a day).
 */
export function parseNoteMoment(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isInteger(raw) && raw >= 0 && raw <= NOTE_MOMENT_MAX ? raw : null
  if (typeof raw !== 'string') return null
  const text = raw.trim()
  if (!/^\d{1,5}(:\d{1,2}){0,2}$/.test(text)) return null
  const parts = text.split(':').map(Number)
  if (parts.slice(1).some((part) => part > 59)) return null
  const seconds = parts.reduce((total, part) => total * 60 + part, 0)
  return seconds <= NOTE_MOMENT_MAX ? seconds : null
}

/** Seconds as the page shows and the form takes them: 7 → "0:07", 3723 → "1:02:03". */
export const noteClock = (seconds: number) => formatDuration(seconds)

/** A note's input: `at` (seconds, or a clock like "1:23") and `text`. */
export const noteSchema = z.object({
  at: z.unknown().transform((value, context) => {
    const seconds = parseNoteMoment(value)
    if (seconds === null) {
      context.addIssue({ code: z.ZodIssueCode.custom, message: NOTE_MESSAGES.badMoment })
      return z.NEVER
    }
    return seconds
  }),
  text: z
    .string({ invalid_type_error: NOTE_MESSAGES.badBody, required_error: NOTE_MESSAGES.badBody })
    .transform((value) => value.replace(/\r\n?/g, '\n').trim())
    .pipe(z.string().min(1, NOTE_MESSAGES.badBody).max(NOTE_BODY_MAX, NOTE_MESSAGES.bodyTooLong)),
})
export type NoteInput = z.infer<typeof noteSchema>

/** One note as the pages and the API get it. */
export interface VideoNote {
  id: string
  videoId: string
  atSeconds: number
  body: string
  createdAt: string
  updatedAt: string
}

/** A video's notes, for the Notes tab and the export. */
export interface VideoNotesGroup {
  video: { id: string; title: string; creator: string }
  notes: VideoNote[]
}

/** The page action's answer (with JavaScript: the fetcher's data). */
export type NoteActionData =
  | { ok: true; intent: NoteIntent; noteId: string | null; message: string }
  | (FormFailure<{ at: string; text: string }> & { intent: NoteIntent | null; noteId: string | null; formError: string })

export const NOTE_INTENTS = ['note-add', 'note-edit', 'note-delete'] as const
export type NoteIntent = (typeof NOTE_INTENTS)[number]

/**
 * The Markdown export: one heading per video, each note a bullet whose time
 * links to that moment (`/video/<id>?t=<seconds>`) on `siteUrl`. A note's
 * own lines stay under its bullet (indented), so Markdown in it cannot
 * break the list.
 */
export function notesMarkdown(groups: VideoNotesGroup[], siteUrl: string, exportedAt: Date): string {
  const base = siteUrl.replace(/\/+$/, '')
  const lines: string[] = ['# My notes', '', `Exported from Lumen on ${exportedAt.toISOString().slice(0, 10)}.`]
  if (groups.length === 0) lines.push('', 'No notes yet.')
  for (const group of groups) {
    const videoUrl = `${base}/video/${group.video.id}`
    lines.push('', `## [${escapeInline(group.video.title)}](${videoUrl})`, '', `By ${escapeInline(group.video.creator)}`, '')
    for (const note of group.notes) {
      const [first = '', ...rest] = note.body.split('\n')
      lines.push(`- [${noteClock(note.atSeconds)}](${videoUrl}?t=${note.atSeconds}) ${first}`.trimEnd())
      for (const line of rest) lines.push(line ? `  ${line}` : '')
    }
  }
  return `${lines.join('\n')}\n`
}

/** The download's file name: `lumen-notes.md`, or `lumen-notes-<title>.md` for one video (ASCII only). */
export function notesFileName(videoTitle?: string | null): string {
  if (!videoTitle) return 'lumen-notes.md'
  const slug = videoTitle
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug ? `lumen-notes-${slug}.md` : 'lumen-notes.md'
}

/** Brackets and the like in a title or a name would break a heading's link. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>#]/g, (match) => `\\${match}`).replace(/\s+/g, ' ')
}
