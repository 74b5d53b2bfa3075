import { readFile } from 'node:fs/promises'
import { CAPTION_LIMITS, CAPTION_MESSAGES } from '../../../media/captions'
import { LIMITS } from '~/lib/catalog'
import { AUTH_MESSAGES, PORTFOLIO_MAX_BYTES } from '~/lib/schemas/auth'
import { PICTURE_MAX_BYTES } from '~/lib/schemas/creators'
import { QUOTE_MESSAGES } from '~/lib/schemas/quote'
import { UPLOAD_MESSAGES } from '~/lib/schemas/upload'
import { inspectPortfolio, type ReceivedPortfolio } from '../accounts.server'
import { discardBody, receiveMultipart, type MultipartOptions, type ReceivedFile, type ReceivedForm } from './multipart.server'

/**
 * The multipart forms Lumen reads, with their limits, in one table: the upload form (a video up to
 * 100 MB, a thumbnail up to 5 MB, a caption file), the create-quote form (a response video up to
 * 100 MB), the sign-up form (a creator's portfolio), the edit-profile form, the caption form, and the
 * /api twins of the upload and quote forms (the spec's field names). Files go to temporary files;
 * call `dispose()`.
 */

/** Past this in all, an upload is not a browser with a big file but someone wasting our bandwidth. */
const UPLOAD_ABANDON_BYTES = 1024 * 1024 * 1024

/** One form's limits: its file fields and their sizes, where to stop reading, its 413 words and its name. */
export type FormSpec<F extends string> = MultipartOptions<F>

const uploadForm = {
  abandonBytes: UPLOAD_ABANDON_BYTES,
  tooLargeMessage: UPLOAD_MESSAGES.videoTooLarge,
  formName: 'upload form',
  maxTextFieldBytes: 64 * 1024,
  maxTextFields: 32,
}
const quoteForm = {
  abandonBytes: UPLOAD_ABANDON_BYTES,
  tooLargeMessage: QUOTE_MESSAGES.videoTooLarge,
  formName: 'quote form',
  maxTextFieldBytes: 16 * 1024,
  maxTextFields: 16,
}
// Past twice the largest portfolio a form is not worth reading to the end for a friendly answer.
const portfolioForm = {
  abandonBytes: 2 * PORTFOLIO_MAX_BYTES,
  tooLargeMessage: AUTH_MESSAGES.portfolioFarTooLarge,
  maxTextFieldBytes: 16 * 1024,
  maxTextFields: 64,
}

export const FORMS = {
  // `captions`: an optional WebVTT or SRT file (ADR 0019), checked by its content in createUpload.
  upload: { ...uploadForm, files: { video: LIMITS.videoBytes, thumbnail: LIMITS.thumbnailBytes, captions: CAPTION_LIMITS.maxBytes } },
  /** POST /api/videos/upload-cloudinary: the same limits, the spec's field names. */
  apiUpload: { ...uploadForm, files: { videoFile: LIMITS.videoBytes, thumbnailFile: LIMITS.thumbnailBytes } },
  /** Text fields and, without JavaScript, the response video. */
  quote: { ...quoteForm, files: { video: LIMITS.videoBytes } },
  /** POST /api/quotes/upload-cloudinary: the create-quote form's limit, the spec's field names. */
  apiQuote: { ...quoteForm, files: { videoFile: LIMITS.videoBytes } },
  signup: { ...portfolioForm, formName: 'sign-up form', files: { portfolio: PORTFOLIO_MAX_BYTES } },
  captions: {
    files: { file: CAPTION_LIMITS.maxBytes },
    abandonBytes: 8 * CAPTION_LIMITS.maxBytes,
    tooLargeMessage: CAPTION_MESSAGES.tooLarge,
    formName: 'captions form',
    maxTextFieldBytes: 4 * 1024,
    maxTextFields: 8,
  },
} satisfies Record<string, FormSpec<string>>

/** The edit-profile form, whose file fields are named by the caller (the page and PUT /users/profile differ). */
function profileForm<F extends string>(names: { picture: F; portfolio: F }): FormSpec<F> {
  return {
    ...portfolioForm,
    formName: 'profile form',
    files: { [names.picture]: PICTURE_MAX_BYTES, [names.portfolio]: PORTFOLIO_MAX_BYTES } as Record<F, number>,
  }
}

export type { ReceivedForm }

/** Reads a multipart form by its spec (`FORMS`). */
export function receiveForm<F extends string>(request: Request, spec: FormSpec<F>): Promise<ReceivedForm<F>> {
  return receiveMultipart(request, spec)
}

/** What is left of a refused upload's body is read and dropped, so the browser sees the answer. */
export function discardUploadBody(request: Request) {
  return discardBody(request, UPLOAD_ABANDON_BYTES)
}

export interface ReceivedSignupForm {
  form: FormData
  portfolio: ReceivedPortfolio | null
  /** Removes the temporary file. Always call it (finally). */
  dispose(): Promise<void>
}

/** The sign-up form, with the portfolio's type read from its content (magic bytes). */
export async function receiveSignupForm(request: Request): Promise<ReceivedSignupForm> {
  const received = await receiveForm(request, FORMS.signup)
  const file = received.files.portfolio
  try {
    const portfolio = file ? { ...file, info: await inspectPortfolio(file) } : null
    return { form: received.form, portfolio, dispose: received.dispose }
  } catch (error) {
    await received.dispose()
    throw error
  }
}

export interface ReceivedProfileForm {
  form: FormData
  picture: ReceivedFile | null
  portfolio: ReceivedPortfolio | null
  /** Removes the temporary files. Always call it (finally). */
  dispose(): Promise<void>
}

/**
 * The edit-profile form: a picture (5 MB) and, for creators, a portfolio;
 * types read from content. `names` are the file fields' names (the API's
 * PUT /users/profile calls them `profilePicture` and `portfolioFile`).
 */
export async function receiveProfileForm(
  request: Request,
  names: { picture: string; portfolio: string } = { picture: 'picture', portfolio: 'portfolio' },
): Promise<ReceivedProfileForm> {
  const received = await receiveForm(request, profileForm(names))
  try {
    const picture = received.files[names.picture]
    const portfolio = received.files[names.portfolio]
    return {
      form: received.form,
      picture: picture && (picture.size > 0 || picture.tooLarge) ? picture : null,
      portfolio: portfolio && portfolio.size > 0 ? { ...portfolio, info: await inspectPortfolio(portfolio) } : null,
      dispose: received.dispose,
    }
  } catch (error) {
    await received.dispose()
    throw error
  }
}

/** A caption file (ADR 0019): small, so its bytes are read whole once received. */
export async function receiveCaptionForm(request: Request): Promise<{
  form: FormData
  file: { bytes: Uint8Array; name: string } | null
  tooLarge: boolean
}> {
  const received = await receiveForm(request, FORMS.captions)
  try {
    const part = received.files.file
    if (!part || part.size === 0) return { form: received.form, file: null, tooLarge: false }
    if (part.tooLarge || !part.path) return { form: received.form, file: null, tooLarge: true }
    return { form: received.form, file: { bytes: new Uint8Array(await readFile(part.path)), name: part.name }, tooLarge: false }
  } finally {
    await received.dispose()
  }
}
