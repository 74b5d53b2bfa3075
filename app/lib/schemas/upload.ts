import { z } from 'zod'
import { issueErrors, type FormFailure } from '~/lib/forms'
import { CATEGORY_IDS, DEFAULT_CATEGORY, LIMITS } from '~/lib/catalog'
import { UUID_PATTERN } from '../ids'

/**
 * The upload form (docs/product.md, Screens; Rules and messages), shared by the page and the
 * server, which checks everything again whatever the browser did: the
 * fields here, the files by their content in app/server/upload.server.ts.
 * Limits follow `public.videos` and `public.quotes`.
 */
export const UPLOAD_MESSAGES = {
  videoRequired: 'Please select a video file',
  noVideoProvided: 'No video file provided',
  titleRequired: 'Please enter a title',
  titleTooLong: 'Please keep the title under 200 characters',
  descriptionRequired: 'Please enter a description',
  descriptionTooLong: 'Please keep the description under 5,000 characters',
  destinationRequired: 'Please choose where your video goes',
  categoryRequired: 'Please choose a category',
  thumbnailRequired: 'Please upload a thumbnail',
  thumbnailNotImage: 'Please select a valid image file (JPEG, PNG, WebP or GIF)',
  videoNotVideo: 'Please select a valid video file',
  videoTooLarge: 'Video file is too large. Maximum size is 100MB',
  thumbnailTooLarge: 'Thumbnail file is too large. Maximum size is 5MB',
  thoughtsTooLong: 'Please keep your thoughts under 2,000 characters',
  unsupported: 'Please remove unsupported characters',
  categoryNotAllowed: 'You cannot publish in this category yet. Please choose one of your approved categories.',
  sourceMissing: 'We could not find your uploaded video. Please choose the file and upload it again.',
  success: 'Video uploaded successfully! Redirecting...',
  cannotRedirect: 'Upload successful but cannot redirect to video page. Please check your uploads in the dashboard.',
  network: 'Network error. Please check your connection and try again.',
  timeout: 'Upload timed out. Please try again with a smaller file or check your connection.',
  failed: 'Failed to upload video',
  unexpected: 'An unexpected error occurred during upload',
  notCreator: 'Only verified creators can upload videos. You can quote a video instead.',
  unverified: 'Your creator account is waiting for verification. You can upload as soon as an admin approves it.',
  sparkNotice: 'Sparks should be under 60 seconds.',
} as const

export function serverErrorMessage(status: number): string {
  return `Server error: ${status}`
}

/** docs/product.md, Limits and timers: the upload may take up to 30 minutes. */
export const UPLOAD_TIMEOUT_MS = 1_800_000
/** docs/product.md, Limits and timers: the product goes to the video 1.5 s after the success message. */
export const UPLOAD_REDIRECT_MS = 1_500

export const DESTINATIONS = [
  { value: 'video', label: 'Feed - Long Form Educational Content' },
  { value: 'spark', label: 'Sparks - Short Educational Clips' },
] as const
export type Destination = (typeof DESTINATIONS)[number]['value']

export const VISIBILITIES = [
  { value: 'public', label: 'Public', hint: 'Anyone on Lumen can find and watch it.' },
  { value: 'private', label: 'Private', hint: 'Only you (and Lumen admins) can see it.' },
] as const

/** Containers the server reads (media/probe.ts); the object name keeps one of these extensions. */
export const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'mov', 'webm', 'mkv', 'avi', 'ts'] as const
export const VIDEO_ACCEPT = 'video/*'
export const THUMBNAIL_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif'

const TITLE_MAX = 200
const DESCRIPTION_MAX = 5000
const THOUGHTS_MAX = 2000

// Postgres text cannot hold a NUL byte: refuse it with a clear message instead of a 500.
const noNul = (value: string) => !value.includes('\u0000')

export const uploadSchema = z.object({
  title: z
    .string({ required_error: UPLOAD_MESSAGES.titleRequired, invalid_type_error: UPLOAD_MESSAGES.titleRequired })
    .trim()
    .min(1, UPLOAD_MESSAGES.titleRequired)
    .max(TITLE_MAX, UPLOAD_MESSAGES.titleTooLong)
    .refine(noNul, UPLOAD_MESSAGES.unsupported),
  description: z
    .string({ required_error: UPLOAD_MESSAGES.descriptionRequired, invalid_type_error: UPLOAD_MESSAGES.descriptionRequired })
    .trim()
    .min(1, UPLOAD_MESSAGES.descriptionRequired)
    .max(DESCRIPTION_MAX, UPLOAD_MESSAGES.descriptionTooLong)
    .refine(noNul, UPLOAD_MESSAGES.unsupported),
  type: z.enum(['video', 'spark'], { errorMap: () => ({ message: UPLOAD_MESSAGES.destinationRequired }) }),
  // docs/product.md, Data: no category defaults to 'other'.
  category: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || DEFAULT_CATEGORY)
    .pipe(z.enum(CATEGORY_IDS, { errorMap: () => ({ message: UPLOAD_MESSAGES.categoryRequired }) })),
  visibility: z
    .enum(['public', 'private'])
    .optional()
    .transform((value) => value !== 'private'),
  thoughts: z
    .string()
    .trim()
    .max(THOUGHTS_MAX, UPLOAD_MESSAGES.thoughtsTooLong)
    .refine(noNul, UPLOAD_MESSAGES.unsupported)
    .optional()
    .transform((value) => value || null),
})

export type UploadInput = z.output<typeof uploadSchema>
export type UploadField = keyof z.input<typeof uploadSchema> | 'video' | 'thumbnail' | 'captions' | 'lessonId' | 'lessonAt'
export type UploadErrors = Partial<Record<UploadField | 'form', string>>

/** The text fields of a submitted form, as typed, to parse and to show again after a refusal. */
export interface UploadValues {
  title: string
  description: string
  type: string
  category: string
  visibility: string
  thoughts: string
  /** A spark's lesson and moment (ADR 0050; app/lib/schemas/spark-lesson.ts), as typed; '' for none. */
  lessonId?: string
  lessonAt?: string
}

export function uploadFormValues(form: FormData): UploadValues {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  return {
    title: text('title'),
    description: text('description'),
    type: text('type'),
    category: text('category'),
    visibility: text('visibility'),
    thoughts: text('thoughts'),
    lessonId: text('lessonId'),
    lessonAt: text('lessonAt'),
  }
}

/** The first message for each field. */
export function uploadErrors(error: z.ZodError): UploadErrors {
  return issueErrors(error) as UploadErrors
}

/** What the browser can tell about a chosen file before sending it (the server looks at its content). */
export interface ChosenFile {
  size: number
  type: string
  name: string
}

export function checkVideoFile(file: ChosenFile | null): string | null {
  if (!file || file.size === 0) return UPLOAD_MESSAGES.videoRequired
  if (file.size > LIMITS.videoBytes) return UPLOAD_MESSAGES.videoTooLarge
  if (file.type && !file.type.startsWith('video/')) return UPLOAD_MESSAGES.videoNotVideo
  return null
}

export function checkThumbnailFile(file: ChosenFile | null): string | null {
  if (!file || file.size === 0) return UPLOAD_MESSAGES.thumbnailRequired
  if (file.size > LIMITS.thumbnailBytes) return UPLOAD_MESSAGES.thumbnailTooLarge
  // SVG is an image type too, but it can carry script: only bitmaps.
  if (!THUMBNAIL_ACCEPT.split(',').includes(file.type)) return UPLOAD_MESSAGES.thumbnailNotImage
  return null
}

/** A spark is under 60 seconds; the browser warns from the file's own duration, the server (ffprobe) decides. */
export function sparkTooLong(durationSeconds: number | null): boolean {
  return durationSeconds !== null && durationSeconds >= LIMITS.sparkSeconds
}

/** The server's words for the same refusal (media/validate-upload.ts). */
export function sparkTooLongMessage(durationSeconds: number): string {
  const shown = Math.max(LIMITS.sparkSeconds, Math.floor(durationSeconds))
  return `Sparks must be under 60 seconds. This video is ${shown} seconds long.`
}

/** The extension of the generated object name: from the file's name or type when it is one we read, else mp4. */
export function videoExtension(file: Pick<ChosenFile, 'name' | 'type'>): string {
  const fromName = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase()
  if (fromName && (VIDEO_EXTENSIONS as readonly string[]).includes(fromName)) return fromName
  const byType: Record<string, string> = {
    'video/quicktime': 'mov',
    'video/webm': 'webm',
    'video/x-matroska': 'mkv',
    'video/x-msvideo': 'avi',
    'video/mp2t': 'ts',
  }
  return byType[file.type] ?? 'mp4'
}

/** Object names are generated, never the user's file name: `<uid>/videos/<uuid>.<ext>`. */
export function videoObjectName(userId: string, objectId: string, extension: string): string {
  return `${userId}/videos/${objectId}.${extension}`
}

/** Whether `name` is an object name this user's upload could have made (own folder, generated name). */
export function isOwnVideoObjectName(name: string, userId: string): boolean {
  const pattern = new RegExp(`^${UUID_PATTERN}/videos/${UUID_PATTERN}\\.(${VIDEO_EXTENSIONS.join('|')})$`)
  return pattern.test(name) && name.startsWith(`${userId}/`)
}

/** What the page gets back from a submission (with JavaScript: the fetcher's data): the new video, or the one form failure. */
export type UploadActionData = { ok: true; videoId: string } | FormFailure<UploadValues>

/** createUpload's errors (`form` is the message for the whole form) as the form failure's parts. */
export function uploadFailureParts(errors: UploadErrors): Pick<FormFailure<UploadValues>, 'formError' | 'fieldErrors'> {
  const { form, ...fieldErrors } = errors
  return { ...(form ? { formError: form } : {}), ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}) }
}

/** A failure's parts as the upload form shows them: one map, `form` for the whole form. */
export function uploadErrorsOf(failure: Pick<FormFailure<UploadValues>, 'formError' | 'fieldErrors'>): UploadErrors {
  return { ...(failure.fieldErrors ?? {}), ...(failure.formError ? { form: failure.formError } : {}) }
}
