import { z } from 'zod'
import { formatDuration } from '~/lib/format'

/**
 * Chapters of a video (ADR 0042): a list of (start, title) in time order. The rules are
 * Postgres's too (public.chapters_are_valid on public.videos.chapters): none, or 3 to 100
 * chapters, the first at 0:00, each at least 10 seconds long — the last one too, against the
 * video's length when it is known — with a title of 1 to 100 characters.
 *
 * Two ways in: explicit rows (the edit page, the API), where a broken rule is a field
 * error; and "0:00 Intro" lines in a description at upload, YouTube's way, where lines
 * that do not make a valid list are simply not chapters.
 */

export const CHAPTER_RULES = { min: 3, max: 100, minSeconds: 10, titleMax: 100, startMax: 86_400 } as const

export const CHAPTER_MESSAGES = {
  tooFew: 'Add at least 3 chapters, or none',
  tooMany: 'A video can have at most 100 chapters',
  firstAtZero: 'The first chapter must start at 0:00',
  badTime: 'Enter a time such as 1:05 or 1:02:03',
  timeRequired: 'Enter when the chapter starts',
  titleRequired: 'Please give the chapter a title',
  titleTooLong: 'Please keep chapter titles under 100 characters',
  tooShort: 'Each chapter must start at least 10 seconds after the one before',
  pastEnd: 'The last chapter must start at least 10 seconds before the video ends',
  unsupported: 'Please remove unsupported characters',
  saved: 'Chapters saved',
  notYourVideo: 'You can only edit your own videos',
} as const

export interface Chapter {
  /** Whole seconds from the start. */
  start: number
  title: string
}

/** "1:05" → 65, "1:02:03" → 3723, "0:00" → 0, "75" → 75; null for anything else. */
export function parseClock(text: string): number | null {
  const value = text.trim()
  const match = /^(?:(\d{1,2}):)?(\d{1,3}):(\d{2})$/.exec(value)
  if (match) {
    const [, hours, minutes, seconds] = match
    if (Number(seconds) > 59 || (hours !== undefined && Number(minutes) > 59)) return null
    return Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds)
  }
  return /^\d{1,5}$/.test(value) ? Number(value) : null
}

/** 65 → "1:05", 3723 → "1:02:03". */
export const formatClock = formatDuration

// Control characters (a newline, a tab, NUL) are not part of a title; Postgres refuses them too.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

const chapterSchema = z.object({
  start: z
    .number({ required_error: CHAPTER_MESSAGES.timeRequired, invalid_type_error: CHAPTER_MESSAGES.badTime })
    .int(CHAPTER_MESSAGES.badTime)
    .min(0, CHAPTER_MESSAGES.badTime)
    .max(CHAPTER_RULES.startMax, CHAPTER_MESSAGES.badTime),
  title: z
    .string({ required_error: CHAPTER_MESSAGES.titleRequired, invalid_type_error: CHAPTER_MESSAGES.titleRequired })
    .trim()
    .min(1, CHAPTER_MESSAGES.titleRequired)
    .max(CHAPTER_RULES.titleMax, CHAPTER_MESSAGES.titleTooLong)
    .refine((title) => !CONTROL.test(title), CHAPTER_MESSAGES.unsupported),
})

/**
 * A whole list of chapters, with the list's rules; `durationSeconds` (when known) holds the
 * last chapter to 10 seconds too. Issues have paths `[index, 'start' | 'title']` or `[]` for
 * the list.
 */
export function chaptersSchema(durationSeconds: number | null = null) {
  return z
    .array(chapterSchema, { invalid_type_error: CHAPTER_MESSAGES.tooFew })
    .max(CHAPTER_RULES.max, CHAPTER_MESSAGES.tooMany)
    .superRefine((chapters, context) => {
      if (chapters.length === 0) return
      if (chapters.length < CHAPTER_RULES.min) context.addIssue({ code: 'custom', message: CHAPTER_MESSAGES.tooFew })
      if (chapters[0]!.start !== 0) context.addIssue({ code: 'custom', path: [0, 'start'], message: CHAPTER_MESSAGES.firstAtZero })
      for (let index = 1; index < chapters.length; index++) {
        if (chapters[index]!.start < chapters[index - 1]!.start + CHAPTER_RULES.minSeconds) {
          context.addIssue({ code: 'custom', path: [index, 'start'], message: CHAPTER_MESSAGES.tooShort })
        }
      }
      const last = chapters.length - 1
      if (durationSeconds !== null && chapters[last]!.start > durationSeconds - CHAPTER_RULES.minSeconds) {
        context.addIssue({ code: 'custom', path: [last, 'start'], message: CHAPTER_MESSAGES.pastEnd })
      }
    })
}

/** Field errors of a refused list: `chapters` for the list, `chapters.<index>.start|title` for a row. */
export type ChapterErrors = Record<string, string>

export function chapterErrors(error: z.ZodError): ChapterErrors {
  const errors: ChapterErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.length >= 2 ? `chapters.${issue.path[0]}.${issue.path[1]}` : 'chapters'
    errors[key] ??= issue.message
  }
  return errors
}

/** A row as typed on the edit page: the time as text ("1:05") and the title. */
export interface ChapterRow {
  start: string
  title: string
}

/**
 * Typed rows → the list to check: empty rows are dropped; a time that is not one is kept
 * as NaN so that the schema names that row. Rows are kept in the order typed (the rules
 * ask for time order, so a row out of order is that row's error, not silently moved).
 */
export function chaptersFromRows(rows: readonly ChapterRow[]): { chapters: Chapter[]; rows: ChapterRow[] } {
  const kept = rows.filter((row) => row.start.trim() || row.title.trim())
  return {
    rows: kept,
    chapters: kept.map((row) => ({
      start: row.start.trim() ? (parseClock(row.start) ?? Number.NaN) : Number.NaN,
      title: row.title,
    })),
  }
}

// "0:00 Intro", "1:02:03 - Wrap-up", "12:30 | Questions": a time at the start of a line, then the title.
const LINE = /^\s*((?:\d{1,2}:)?\d{1,3}:\d{2})\s*(?:[-–—:|.)]\s*)?(\S.*)$/

/** Every "0:00 Intro" line of a text, in order (not yet checked against the rules). */
export function chapterLines(text: string): Chapter[] {
  const found: Chapter[] = []
  for (const line of text.split(/\r?\n/)) {
    const match = LINE.exec(line)
    if (!match) continue
    const start = parseClock(match[1]!)
    const title = match[2]!.trim()
    if (start !== null && title) found.push({ start, title })
  }
  return found
}

/**
 * YouTube's way: the description's "0:00 Intro" lines are the chapters when together they
 * keep the rules; otherwise the video has none (a description is free text, never refused
 * for its timestamps).
 */
export function chaptersFromDescription(description: string, durationSeconds: number | null = null): Chapter[] {
  const parsed = chaptersSchema(durationSeconds).safeParse(chapterLines(description))
  return parsed.success ? parsed.data : []
}

/** The chapter playing at `seconds` (the last one started), or -1 before the first. */
export function chapterIndexAt(chapters: readonly Chapter[], seconds: number): number {
  let index = -1
  for (let i = 0; i < chapters.length; i++) {
    if (chapters[i]!.start <= seconds) index = i
    else break
  }
  return index
}
