import { z } from 'zod'
import { issueErrors, type FormFailure } from '~/lib/forms'
import { LIMITS } from '~/lib/catalog'
import { UUID_PATTERN } from '../ids'
import { VIDEO_EXTENSIONS } from './upload'

/**
 * The create-quote form (docs/product.md, Screens; Rules and messages: Quote), shared by the
 * page and the server, which checks everything again — the fields here, the
 * response video by its content in app/server/quotes.server.ts. Limits
 * follow `public.quotes`.
 */
export const QUOTE_MESSAGES = {
  videoIdRequired: 'Original video ID is required',
  textRequired: 'Please enter your quote text',
  videoRequired: 'Please select a video file',
  videoNotVideo: 'Please select a valid video file',
  videoTooLarge: 'Video file is too large. Please select a file under 100MB',
  noVideo: 'No video selected to quote',
  loadFailed: 'Failed to load the video',
  textTooLong: 'Please keep your quote under 2,000 characters',
  typeRequired: 'Please choose Text Comment or Video Response',
  badMoment: 'Please pick a moment within the video',
  unsupported: 'Please remove unsupported characters',
  sourceMissing: 'We could not find your uploaded video. Please choose the file and upload it again.',
  created: 'Quote created successfully!',
  loadQuotesFailed: 'Failed to load your quotes',
  deleteFailed: 'Failed to delete quote',
} as const

/** docs/product.md, Rules and messages: 'Failed to create quote: {server error}'. */
export function createFailedMessage(serverError: string): string {
  return `Failed to create quote: ${serverError}`
}

export const QUOTE_TYPES = [
  { value: 'text', label: 'Text Comment', hint: 'Share a thought in words.' },
  { value: 'video', label: 'Video Response', hint: 'Answer with a video of your own.' },
] as const
export type QuoteType = (typeof QUOTE_TYPES)[number]['value']

export const QUOTE_TEXT_MAX = 2000
/** public.quotes.moment_seconds: at most a day in. */
const MOMENT_MAX = 86_400

const noNul = (value: string) => !value.includes('\u0000')

export const quoteSchema = z
  .object({
    videoId: z
      .string({ required_error: QUOTE_MESSAGES.videoIdRequired, invalid_type_error: QUOTE_MESSAGES.videoIdRequired })
      .trim()
      .min(1, QUOTE_MESSAGES.videoIdRequired),
    type: z.enum(['text', 'video'], { errorMap: () => ({ message: QUOTE_MESSAGES.typeRequired }) }),
    text: z
      .string()
      .optional()
      .transform((value) => (value ?? '').trim())
      .pipe(z.string().max(QUOTE_TEXT_MAX, QUOTE_MESSAGES.textTooLong).refine(noNul, QUOTE_MESSAGES.unsupported)),
    // Empty: the whole video. Otherwise seconds, as the player's current time gives them.
    moment: z
      .string()
      .optional()
      .transform((value, context) => {
        const raw = (value ?? '').trim()
        if (!raw) return null
        const seconds = Number(raw)
        if (!Number.isFinite(seconds) || seconds < 0 || seconds > MOMENT_MAX) {
          context.addIssue({ code: 'custom', message: QUOTE_MESSAGES.badMoment })
          return z.NEVER
        }
        return Math.round(seconds * 1000) / 1000
      }),
  })
  .superRefine((value, context) => {
    if (value.type === 'text' && !value.text)
      context.addIssue({ code: 'custom', path: ['text'], message: QUOTE_MESSAGES.textRequired })
  })

export type QuoteInput = z.output<typeof quoteSchema>
export type QuoteField = 'videoId' | 'type' | 'text' | 'moment' | 'video'
export type QuoteErrors = Partial<Record<QuoteField | 'form', string>>

/** The text fields of a submitted form, as typed, to parse and to show again after a refusal. */
export interface QuoteValues {
  videoId: string
  type: string
  text: string
  moment: string
}

export function quoteFormValues(form: FormData): QuoteValues {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  return { videoId: text('videoId'), type: text('type') || 'text', text: text('text'), moment: text('moment') }
}

/** The first message for each field. */
export function quoteErrors(error: z.ZodError): QuoteErrors {
  return issueErrors(error) as QuoteErrors
}

/** What the browser can tell of a chosen response video before sending it (the server reads its content). */
export function checkResponseFile(file: { size: number; type: string } | null): string | null {
  if (!file || file.size === 0) return QUOTE_MESSAGES.videoRequired
  if (file.type && !file.type.startsWith('video/')) return QUOTE_MESSAGES.videoNotVideo
  if (file.size > LIMITS.videoBytes) return QUOTE_MESSAGES.videoTooLarge
  return null
}

/** Object names are generated, never the user's file name: `<uid>/quotes/<uuid>.<ext>`. */
export function responseObjectName(userId: string, objectId: string, extension: string): string {
  return `${userId}/quotes/${objectId}.${extension}`
}

/** Whether `name` is an object name this user's response upload could have made (own folder, generated name). */
export function isOwnResponseObjectName(name: string, userId: string): boolean {
  const pattern = new RegExp(`^${UUID_PATTERN}/quotes/${UUID_PATTERN}\\.(${VIDEO_EXTENSIONS.join('|')})$`)
  return pattern.test(name) && name.startsWith(`${userId}/`)
}

/** `?t=` of a link to the original: whole seconds are enough to find the moment. */
export function momentParam(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? '' : `?t=${Math.floor(seconds)}`
}

/** Reads `?t=` back: a non-negative number of seconds, or null. */
export function parseMoment(raw: string | null | undefined): number | null {
  if (!raw) return null
  const seconds = Number(raw)
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= MOMENT_MAX ? seconds : null
}

/** What the page gets back from a submission (with JavaScript: the fetcher's data). */
export type QuoteActionData =
  | { ok: true; quoteId: string; videoId: string }
  | (FormFailure<QuoteValues> & { formError: string })
