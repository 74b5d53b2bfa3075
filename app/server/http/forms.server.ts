import { readFile } from 'node:fs/promises'
import { CAPTION_LIMITS, CAPTION_MESSAGES } from '../../../media/captions'
import { LIMITS } from '~/lib/catalog'
import { AUTH_MESSAGES, PORTFOLIO_MAX_BYTES } from '~/lib/schemas/auth'
import { PICTURE_MAX_BYTES } from '~/lib/schemas/creators'
import { QUOTE_MESSAGES } from '~/lib/schemas/quote'
import { UPLOAD_MESSAGES } from '~/lib/schemas/upload'
import { inspectPortfolio, type ReceivedPortfolio } from '../accounts.server'
import { discardBody, receiveMultipart, type ReceivedFile, type ReceivedForm } from './multipart.server'

/**
 * The multipart forms Lumen reads, with their limits: the upload form
 * (a video up to 100 MB and a thumbnail up to 5 MB), the create-quote form
 * (a response video up to 100 MB) and the sign-up form (a creator's portfolio). Files go to temporary files; call `dispose()`.
 */

/** Past this in all, an upload is not a browser with a big file but someone wasting our bandwidth. */
const UPLOAD_ABANDON_BYTES = 1024 * 1024 * 1024

export function receiveUploadForm(request: Request) {
  return receiveMultipart(request, {
    // `captions`: an optional WebVTT or SRT file (ADR 0019), checked by its content in createUpload.
    files: { video: LIMITS.videoBytes, thumbnail: LIMITS.thumbnailBytes, captions: CAPTION_LIMITS.maxBytes },
    abandonBytes: UPLOAD_ABANDON_BYTES,
    tooLargeMessage: UPLOAD_MESSAGES.videoTooLarge,
    formName: 'upload form',
    maxTextFieldBytes: 64 * 1024,
    maxTextFields: 32,
  })
}

/** The create-quote form: text fields and, without JavaScript, the response video (up to 100 MB). */
export function receiveQuoteForm(request: Request) {
  return receiveMultipart(request, {
    files: { video: LIMITS.videoBytes },
    abandonBytes: UPLOAD_ABANDON_BYTES,
    tooLargeMessage: QUOTE_MESSAGES.videoTooLarge,
    formName: 'quote form',
    maxTextFieldBytes: 16 * 1024,
    maxTextFields: 16,
  })
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
  const received = await receiveSignupMultipart(request)
  const file = received.files.portfolio
  try {
    const portfolio = file ? { ...file, info: await inspectPortfolio(file) } : null
    return { form: received.form, portfolio, dispose: received.dispose }
  } catch (error) {
    await received.dispose()
    throw error
  }
}

function receiveSignupMultipart(request: Request): Promise<ReceivedForm<'portfolio'>> {
  return receiveMultipart(request, {
    files: { portfolio: PORTFOLIO_MAX_BYTES },
    // Past twice the largest portfolio the upload is not worth reading to the end for a friendly answer.
    abandonBytes: 2 * PORTFOLIO_MAX_BYTES,
    tooLargeMessage: AUTH_MESSAGES.portfolioFarTooLarge,
    formName: 'sign-up form',
    maxTextFieldBytes: 16 * 1024,
    maxTextFields: 64,
  })
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
  const received = await receiveMultipart(request, {
    files: { [names.picture]: PICTURE_MAX_BYTES, [names.portfolio]: PORTFOLIO_MAX_BYTES },
    abandonBytes: 2 * PORTFOLIO_MAX_BYTES,
    tooLargeMessage: AUTH_MESSAGES.portfolioFarTooLarge,
    formName: 'profile form',
    maxTextFieldBytes: 16 * 1024,
    maxTextFields: 64,
  })
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

/** The /api upload form (POST /api/videos/upload-cloudinary): the same limits, the spec's field names. */
export function receiveApiUploadForm(request: Request) {
  return receiveMultipart(request, {
    files: { videoFile: LIMITS.videoBytes, thumbnailFile: LIMITS.thumbnailBytes },
    abandonBytes: UPLOAD_ABANDON_BYTES,
    tooLargeMessage: UPLOAD_MESSAGES.videoTooLarge,
    formName: 'upload form',
    maxTextFieldBytes: 64 * 1024,
    maxTextFields: 32,
  })
}

/** The /api quote form (POST /api/quotes/upload-cloudinary): the create-quote form's limit, the spec's field names. */
export function receiveApiQuoteForm(request: Request) {
  return receiveMultipart(request, {
    files: { videoFile: LIMITS.videoBytes },
    abandonBytes: UPLOAD_ABANDON_BYTES,
    tooLargeMessage: QUOTE_MESSAGES.videoTooLarge,
    formName: 'quote form',
    maxTextFieldBytes: 16 * 1024,
    maxTextFields: 16,
  })
}

/** A caption file (ADR 0019): small, so its bytes are read whole once received. */
export async function receiveCaptionForm(request: Request): Promise<{
  form: FormData
  file: { bytes: Uint8Array; name: string } | null
  tooLarge: boolean
}> {
  const received = await receiveMultipart(request, {
    files: { file: CAPTION_LIMITS.maxBytes },
    abandonBytes: 8 * CAPTION_LIMITS.maxBytes,
    tooLargeMessage: CAPTION_MESSAGES.tooLarge,
    formName: 'captions form',
    maxTextFieldBytes: 4 * 1024,
    maxTextFields: 8,
  })
  try {
    const part = received.files.file
    if (!part || part.size === 0) return { form: received.form, file: null, tooLarge: false }
    if (part.tooLarge || !part.path) return { form: received.form, file: null, tooLarge: true }
    return { form: received.form, file: { bytes: new Uint8Array(await readFile(part.path)), name: part.name }, tooLarge: false }
  } finally {
    await received.dispose()
  }
}
