import { randomUUID } from 'node:crypto'
import { createWriteStream, openAsBlob } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { finished, pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { unstable_parseMultipartFormData, type UploadHandler } from '@remix-run/node'
import { sql } from 'kysely'
import { CATEGORIES, DEFAULT_CATEGORY, LIMITS } from '~/lib/catalog'
import {
  isOwnVideoObjectName,
  UPLOAD_MESSAGES,
  uploadErrors,
  uploadFormValues,
  uploadSchema,
  VIDEO_EXTENSIONS,
  videoObjectName,
  type UploadErrors,
  type UploadValues,
} from '~/lib/schemas/upload'
import { validateImageFile, reencodeThumbnail } from '../../media/validate-image'
import { validateVideoFile } from '../../media/validate-upload'
import { asCaller, type JwtClaims } from './db.server'
import { redirectWithFlash } from './flash.server'
import { requireUser, type SignedInSession } from './session.server'
import type { LumenLoadContext, Supabase } from './supabase.server'

/**
 * Uploads (spec sections 2, 4, 5 and 8): who may upload, which categories
 * they may use, receiving the form, and creating the video — checked here
 * whatever the browser did.
 *
 * Two ways in, one set of checks:
 * - With JavaScript the browser sends the video to Storage itself
 *   (tus-js-client, resumable) into `uploads/<uid>/videos/<uuid>.<ext>`,
 *   then posts the form with that object's name and the thumbnail.
 * - Without it the form posts the video itself (multipart); it is streamed
 *   to a temporary file, never held in memory, and stored as the user.
 *
 * Either way the video is judged by its content (magic bytes and ffprobe),
 * the thumbnail re-encoded, the fields and the category checked, and only
 * then is the row inserted as the caller (its trigger queues the media
 * job). A refused or failed upload leaves no row and no file: whatever was
 * stored is removed again, as the user (their own folder).
 */

export type UploadSession = SignedInSession

/**
 * The visitor, when they may upload: verified creators and admins. Others
 * are sent away with a flash — learners to the feed (they can quote a video
 * instead), creators still waiting for verification to their profile.
 */
export async function requireUploader(
  request: Request,
  context: Partial<LumenLoadContext> | undefined,
  options: { verify?: boolean } = {},
): Promise<UploadSession> {
  const session = await requireUser(request, context, options)
  const { user, headers } = session
  if (user.role === 'admin' || (user.role === 'creator' && user.isVerified)) return session
  if (user.role === 'creator') {
    throw await redirectWithFlash('/profile?verification=required', { kind: 'info', message: UPLOAD_MESSAGES.unverified }, headers)
  }
  throw await redirectWithFlash('/feed', { kind: 'info', message: UPLOAD_MESSAGES.notCreator }, headers)
}

export interface CategoryOption {
  value: string
  label: string
}

/**
 * The categories offered (spec section 4): a creator's approved ones, else
 * all they asked for that were not rejected; admins any; 'Other' (the
 * default) always. The same rule as `public.can_use_category`, which the
 * database applies on insert.
 */
export async function uploadCategories(session: UploadSession): Promise<CategoryOption[]> {
  const other = CATEGORIES.find((category) => category.id === DEFAULT_CATEGORY)!
  const options = (ids: string[]) =>
    CATEGORIES.filter((category) => ids.includes(category.id) && category.id !== DEFAULT_CATEGORY)
      .concat(other)
      .map((category) => ({ value: category.id, label: category.name }))
  if (session.user.role === 'admin') return options(CATEGORIES.map((category) => category.id))
  const rows = await asCaller(session.claims, (tx) =>
    tx
      .selectFrom('creator_categories')
      .select(['category_id', 'status'])
      .where('creator_id', '=', session.user.id)
      .execute(),
  )
  const approved = rows.filter((row) => row.status === 'approved').map((row) => row.category_id)
  const requested = rows.filter((row) => row.status !== 'rejected').map((row) => row.category_id)
  return options(approved.length ? approved : requested)
}

// ─── Receiving the form ──────────────────────────────────────────────────────

/** A file part of the form, in a temporary file unless it was too large to keep. */
export interface ReceivedFile {
  /** The temporary file (null when the part was larger than its limit: nothing past it was kept). */
  path: string | null
  size: number
  tooLarge: boolean
}

export interface ReceivedUploadForm {
  form: FormData
  video: ReceivedFile | null
  thumbnail: ReceivedFile | null
  /** Removes the temporary files. Always call it (finally). */
  dispose(): Promise<void>
}

export class UnreadableUploadError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415,
  ) {
    super(message)
  }
}

const FILE_LIMITS = { video: LIMITS.videoBytes, thumbnail: LIMITS.thumbnailBytes } as const
/**
 * Past its limit a file is no longer written anywhere, but the rest of the
 * request is still read (and dropped) so the browser gets the answer; a
 * connection closed mid-upload would show it a network error instead. Past
 * this the sender is not a browser with a big file but someone wasting our
 * bandwidth, and the connection is cut.
 */
const ABANDON_BYTES = 1024 * 1024 * 1024
const MAX_TEXT_FIELD_BYTES = 64 * 1024
const MAX_TEXT_FIELDS = 32

/**
 * Reads the multipart upload form: text fields into a FormData, the `video`
 * and `thumbnail` parts streamed into temporary files up to their limits
 * (100 MB and 5 MB) plus one byte, which is how a part is known to be too
 * large without keeping it.
 */
export async function receiveUploadForm(request: Request): Promise<ReceivedUploadForm> {
  const contentType = request.headers.get('Content-Type') ?? ''
  if (!contentType.startsWith('multipart/form-data')) {
    throw new UnreadableUploadError('The upload form must be sent as multipart/form-data', 415)
  }
  if (Number(request.headers.get('Content-Length') ?? 0) > ABANDON_BYTES) {
    throw new UnreadableUploadError(UPLOAD_MESSAGES.videoTooLarge, 413)
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'lumen-upload-'))
  const dispose = () => rm(dir, { recursive: true, force: true })
  const files: { video: ReceivedFile | null; thumbnail: ReceivedFile | null } = { video: null, thumbnail: null }
  let textFields = 0
  let total = 0

  const count = (bytes: number) => {
    total += bytes
    if (total > ABANDON_BYTES) throw new UnreadableUploadError(UPLOAD_MESSAGES.videoTooLarge, 413)
  }

  const handler: UploadHandler = async ({ name, filename, data }) => {
    if (filename === undefined) {
      if (++textFields > MAX_TEXT_FIELDS) throw new UnreadableUploadError('Too many form fields', 400)
      return readText(data, count)
    }
    // A file input left empty still sends a part, with no name and no bytes.
    if ((name !== 'video' && name !== 'thumbnail') || files[name] || !filename) {
      await drain(data, count)
      return undefined
    }
    files[name] = await receiveFile(data, path.join(dir, name), FILE_LIMITS[name], count)
    return undefined
  }

  try {
    const form = await unstable_parseMultipartFormData(request, handler)
    return { form, video: files.video, thumbnail: files.thumbnail, dispose }
  } catch (error) {
    await dispose()
    if (error instanceof UnreadableUploadError) throw error
    throw new UnreadableUploadError('The form could not be read. Please try again.', 400)
  }
}

async function receiveFile(
  data: AsyncIterable<Uint8Array>,
  file: string,
  limit: number,
  count: (bytes: number) => void,
): Promise<ReceivedFile> {
  const out = createWriteStream(file)
  const written = finished(out)
  let size = 0
  try {
    for await (const chunk of data) {
      count(chunk.byteLength)
      const keep = Math.max(0, Math.min(chunk.byteLength, limit + 1 - size))
      size += chunk.byteLength
      if (keep > 0 && !out.write(keep === chunk.byteLength ? chunk : chunk.subarray(0, keep))) {
        await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), written])
      }
    }
    out.end()
    await written
  } catch (error) {
    out.destroy()
    await written.catch(() => undefined)
    throw error
  }
  const tooLarge = size > limit
  if (tooLarge) await rm(file, { force: true })
  return { path: tooLarge ? null : file, size, tooLarge }
}

async function readText(data: AsyncIterable<Uint8Array>, count: (bytes: number) => void): Promise<string> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of data) {
    count(chunk.byteLength)
    size += chunk.byteLength
    if (size > MAX_TEXT_FIELD_BYTES) throw new UnreadableUploadError('A form field is too long', 413)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function drain(data: AsyncIterable<Uint8Array>, count: (bytes: number) => void): Promise<void> {
  for await (const chunk of data) count(chunk.byteLength)
}

/**
 * Reads and drops what is left of a request body (bounded), so that a
 * browser still sending a large form receives the answer — a redirect to
 * sign in, say — instead of a reset connection.
 */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return
  let total = 0
  try {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength
      if (total > ABANDON_BYTES) return
    }
  } catch {
    // The client went away: nothing to answer.
  }
}

// ─── Creating the video ──────────────────────────────────────────────────────

export type UploadResult =
  | { ok: true; videoId: string }
  | { ok: false; status: 400 | 413; errors: UploadErrors; values: UploadValues }

interface StoredObject {
  bucket: 'uploads' | 'thumbnails'
  name: string
}

/**
 * Checks a received upload form and, when everything holds, stores the
 * files and inserts the video (and the uploader's optional thoughts as its
 * first quote) as the caller. Refusals come back as field errors with the
 * spec's messages; nothing stays behind after a refusal or a failure.
 */
export async function createUpload(session: UploadSession, received: ReceivedUploadForm): Promise<UploadResult> {
  const { user, claims, supabase } = session
  const values = uploadFormValues(received.form)
  const sourceField = received.form.get('sourcePath')
  const sentSource = typeof sourceField === 'string' && sourceField ? sourceField : null
  const work = await mkdtemp(path.join(tmpdir(), 'lumen-upload-check-'))
  const stored: StoredObject[] = []
  let committed = false

  const refuse = (errors: UploadErrors, status: 400 | 413 = 400): UploadResult => ({ ok: false, status, errors, values })

  try {
    // The browser's upload, when it names one: only a generated name in the caller's own folder,
    // and not one a video already uses (removing it on a refusal would break that video).
    let source: string | null = null
    if (!received.video && sentSource && isOwnVideoObjectName(sentSource, user.id)) {
      if (await videoUsesSource(claims, sentSource)) return refuse({ video: UPLOAD_MESSAGES.sourceMissing })
      source = sentSource
      stored.push({ bucket: 'uploads', name: source })
    }

    // Cheap checks first: the fields, the presence and size of the files, the thumbnail, the category.
    const errors: UploadErrors = {}
    const parsed = uploadSchema.safeParse(values)
    if (!parsed.success) Object.assign(errors, uploadErrors(parsed.error))

    if (received.video) {
      if (received.video.tooLarge) errors.video = UPLOAD_MESSAGES.videoTooLarge
      else if (received.video.size === 0) errors.video = UPLOAD_MESSAGES.videoRequired
    } else if (!sentSource) {
      errors.video = UPLOAD_MESSAGES.noVideoProvided
    } else if (!source) {
      errors.video = UPLOAD_MESSAGES.sourceMissing
    }

    const thumbnail = received.thumbnail
    if (!thumbnail || thumbnail.size === 0) errors.thumbnail = UPLOAD_MESSAGES.thumbnailRequired
    else if (thumbnail.tooLarge || !thumbnail.path) errors.thumbnail = UPLOAD_MESSAGES.thumbnailTooLarge
    else {
      const image = await validateImageFile(thumbnail.path)
      if (!image.ok) errors.thumbnail = image.message
    }

    if (parsed.success && !(await canUseCategory(claims, parsed.data.category))) {
      errors.category = UPLOAD_MESSAGES.categoryNotAllowed
    }
    const tooLarge = errors.video === UPLOAD_MESSAGES.videoTooLarge || errors.thumbnail === UPLOAD_MESSAGES.thumbnailTooLarge
    if (Object.keys(errors).length || !parsed.success) return refuse(errors, tooLarge ? 413 : 400)
    const input = parsed.data

    // The video by its content: the posted file, or the browser's upload fetched back as the user.
    let videoFile = received.video?.path ?? null
    if (!videoFile && source) {
      const fetched = await downloadUpload(supabase, source, path.join(work, 'source'))
      if (fetched === 'missing') return refuse({ video: UPLOAD_MESSAGES.sourceMissing })
      if (fetched === 'too-large') return refuse({ video: UPLOAD_MESSAGES.videoTooLarge }, 413)
      videoFile = fetched
    }
    const validation = await validateVideoFile(videoFile!, { type: input.type, maxBytes: LIMITS.videoBytes })
    if (!validation.ok) return refuse({ video: validation.message })

    const videoId = randomUUID()
    if (!source) {
      const { ext, mime } = validation.probe.fileType
      const extension = (VIDEO_EXTENSIONS as readonly string[]).includes(ext) ? ext : ext === 'mts' ? 'ts' : 'mp4'
      source = videoObjectName(user.id, randomUUID(), extension)
      stored.push({ bucket: 'uploads', name: source })
      await storeFile(supabase, 'uploads', source, videoFile!, mime.startsWith('video/') ? mime : 'video/mp4')
    }

    // The published thumbnail is our own re-encode: a JPEG with no metadata (EXIF, GPS) left.
    const thumbnailJpeg = path.join(work, 'thumbnail.jpg')
    await reencodeThumbnail(thumbnail!.path!, thumbnailJpeg)
    const thumbnailPath = `${user.id}/${videoId}.jpg`
    stored.push({ bucket: 'thumbnails', name: thumbnailPath })
    await storeFile(supabase, 'thumbnails', thumbnailPath, thumbnailJpeg, 'image/jpeg')

    try {
      await asCaller(claims, async (tx) => {
        await tx
          .insertInto('videos')
          .values({
            id: videoId,
            creator_id: user.id,
            title: input.title,
            description: input.description,
            category_id: input.category,
            type: input.type,
            is_public: input.visibility,
            source_path: source,
            thumbnail_path: thumbnailPath,
          })
          .execute()
        if (input.thoughts) {
          await tx.insertInto('quotes').values({ video_id: videoId, type: 'text', body: input.thoughts }).execute()
        }
      })
    } catch (error) {
      // The insert policy's check: the category is not (or no longer) one this creator may use.
      if ((error as { code?: unknown }).code === '42501') return refuse({ category: UPLOAD_MESSAGES.categoryNotAllowed })
      throw error
    }
    committed = true
    return { ok: true, videoId }
  } finally {
    if (!committed) await removeStored(supabase, stored)
    await rm(work, { recursive: true, force: true })
  }
}

/** The database's own rule (the insert policy applies it again). */
async function canUseCategory(claims: JwtClaims, category: string): Promise<boolean> {
  const row = await asCaller(claims, (tx) =>
    sql<{ allowed: boolean }>`select public.can_use_category(${category}) as allowed`.execute(tx),
  )
  return row.rows[0]?.allowed === true
}

async function videoUsesSource(claims: JwtClaims, source: string): Promise<boolean> {
  const row = await asCaller(claims, (tx) =>
    tx.selectFrom('videos').select('id').where('source_path', '=', source).executeTakeFirst(),
  )
  return Boolean(row)
}

/** Streams an object of the caller's `uploads` folder to `file`, stopping past the size limit. */
async function downloadUpload(supabase: Supabase, name: string, file: string): Promise<string | 'missing' | 'too-large'> {
  const { data, error } = await supabase.storage.from('uploads').download(name).asStream()
  if (error || !data) return 'missing'
  let received = 0
  let tooLarge = false
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length
      if (received > LIMITS.videoBytes) {
        tooLarge = true
        callback(new Error('larger than the upload limit'))
      } else callback(null, chunk)
    },
  })
  try {
    await pipeline(Readable.fromWeb(data as WebReadableStream), limit, createWriteStream(file))
  } catch (error) {
    if (tooLarge) return 'too-large'
    throw error
  }
  return file
}

/** Stores a file as the caller, streamed from disk (a file-backed Blob is read as it is sent). */
async function storeFile(supabase: Supabase, bucket: StoredObject['bucket'], name: string, file: string, contentType: string) {
  const body = await openAsBlob(file, { type: contentType })
  const { error } = await supabase.storage.from(bucket).upload(name, body, { contentType, upsert: false })
  if (error) throw new Error(`could not store ${bucket}/${name}: ${error.message}`)
}

/** Removes what a refused or failed upload stored (the caller's own folder: their right to delete). */
async function removeStored(supabase: Supabase, stored: StoredObject[]) {
  for (const bucket of ['uploads', 'thumbnails'] as const) {
    const names = stored.filter((object) => object.bucket === bucket).map((object) => object.name)
    if (!names.length) continue
    const { error } = await supabase.storage.from(bucket).remove(names)
    if (error) console.warn(`[upload] could not remove ${names.join(', ')} from ${bucket}: ${error.message}`)
  }
}

// ─── After the upload ────────────────────────────────────────────────────────

/** The caller's own video just uploaded, for the success page (null when it is not theirs or gone). */
export async function uploadedVideo(claims: JwtClaims, id: string): Promise<{ id: string; title: string } | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null
  const row = await asCaller(claims, (tx) =>
    tx
      .selectFrom('videos')
      .select(['id', 'title'])
      .where('id', '=', id)
      .where('creator_id', '=', claims.sub)
      .executeTakeFirst(),
  )
  return row ?? null
}
