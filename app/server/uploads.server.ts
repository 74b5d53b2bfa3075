import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { CATEGORIES, DEFAULT_CATEGORY, LIMITS } from '~/lib/catalog'
import { isUuid } from '~/lib/ids'
import {
  isOwnVideoObjectName,
  UPLOAD_MESSAGES,
  uploadErrors,
  uploadSchema,
  VIDEO_EXTENSIONS,
  videoObjectName,
  type UploadErrors,
  type UploadValues,
} from '~/lib/schemas/upload'
import { CAPTION_MESSAGES, CaptionFileError, parseCaptionFile } from '../../media/captions'
import { reencodeThumbnail, validateImageFile } from '../../media/validate-image'
import { validateVideoFile } from '../../media/validate-upload'
import { chaptersFromDescription } from '~/lib/schemas/chapters'
import { CAPTION_FORM_MESSAGES, captionTrackSchema, languageName } from '~/lib/schemas/captions'
import { writeTrack, type TrackToWrite } from '../../db/caption-tracks'
import { asCaller, type JwtClaims } from './db.server'
import { canUseCategory } from './permissions.server'
import { addTextQuote } from './quotes.server'
import { isDomainError } from './errors.server'
import { checkSparkLesson, lessonRefusedByPostgres } from './spark-lessons.server'
import type { SparkLessonInput } from '~/lib/schemas/spark-lesson'
import { downloadUpload, removeStored, storeFile, type StoredObject } from './upload-objects.server'
import type { Supabase } from './supabase.server'

/**
 * Uploads (docs/product.md, Screens; States; Rules and messages): which categories an uploader may
 * use, and creating the video — checked here whatever the browser did.
 * (Who may upload: permissions.server.ts; reading the multipart form:
 * http/multipart.server.ts.)
 *
 * Two ways in, one set of checks:
 * - With JavaScript the browser sends the video to Storage itself
 *   (tus-js-client, resumable) into `uploads/<uid>/videos/<uuid>.<ext>`,
 *   then posts the form with that object's name and the thumbnail.
 * - Without it the form posts the video itself (multipart); the route streams it
 *   to a temporary file, never held in memory, and it is stored as the user.
 *
 * Either way the video is judged by its content (magic bytes and ffprobe),
 * the thumbnail re-encoded, the fields and the category checked, and only
 * then is the row inserted as the caller (its trigger queues the media
 * job). A refused or failed upload leaves no row and no file: whatever was
 * stored is removed again, as the user (their own folder).
 */

/** Who uploads: their verified claims, and their Supabase client (Storage as the user). */
export interface Uploader {
  claims: JwtClaims
  supabase: Supabase
}

export interface CategoryOption {
  value: string
  label: string
}

/**
 * The categories offered (docs/product.md, States), as `public.can_use_category`
 * answers for the caller — the rule the insert policy applies: a creator's
 * approved ones, else all they asked for that were not rejected; admins any;
 * 'Other' (the default) always, listed last.
 */
export async function uploadCategories(caller: JwtClaims): Promise<CategoryOption[]> {
  const rows = await asCaller(caller, (tx) =>
    tx.selectFrom('categories').select('id').where(sql<boolean>`public.can_use_category(id)`).execute(),
  )
  const allowed = new Set(rows.map((row) => row.id))
  const other = CATEGORIES.find((category) => category.id === DEFAULT_CATEGORY)!
  return CATEGORIES.filter((category) => allowed.has(category.id) && category.id !== DEFAULT_CATEGORY)
    .concat(other)
    .map((category) => ({ value: category.id, label: category.name }))
}

// ─── Creating the video ──────────────────────────────────────────────────────

/** A file the route received into a temporary file (see http/multipart.server.ts). */
export interface UploadedFile {
  /** Null when it was larger than its limit: nothing past the limit was kept. */
  path: string | null
  size: number
  tooLarge: boolean
}

/** The upload form as plain data: its text fields and the files that came with it. */
export interface UploadInput {
  values: UploadValues
  /** The object the browser already uploaded with tus (`uploads/<uid>/videos/<uuid>.<ext>`), if it names one. */
  sourcePath: string | null
  video: UploadedFile | null
  thumbnail: UploadedFile | null
  /** An optional caption file (ADR 0019): WebVTT or SRT, in `language` (default `en`). */
  captions?: { file: UploadedFile; name: string; language: string } | null
}

export type UploadResult =
  | { ok: true; videoId: string }
  | { ok: false; status: 400 | 413; errors: UploadErrors; values: UploadValues }

/**
 * Checks a received upload form and, when everything holds, stores the
 * files and inserts the video (and the uploader's optional thoughts as its
 * first quote) as the caller. Refusals come back as field errors with the
 * spec's messages; nothing stays behind after a refusal or a failure.
 */
export async function createUpload(uploader: Uploader, received: UploadInput): Promise<UploadResult> {
  const { claims, supabase } = uploader
  const userId = claims.sub
  const { values } = received
  const sentSource = received.sourcePath || null
  const work = await mkdtemp(path.join(tmpdir(), 'lumen-upload-check-'))
  const stored: StoredObject[] = []
  let committed = false

  const refuse = (errors: UploadErrors, status: 400 | 413 = 400): UploadResult => ({ ok: false, status, errors, values })

  try {
    // The browser's upload, when it names one: only a generated name in the caller's own folder,
    // and not one a video already uses (removing it on a refusal would break that video).
    let source: string | null = null
    if (!received.video && sentSource && isOwnVideoObjectName(sentSource, userId)) {
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

    // Captions, by their content: the same parser and messages as the captions page; a
    // refused file refuses the whole upload (nothing stored), a good one is written with the video.
    let captions: TrackToWrite | null = null
    const sentCaptions = received.captions
    if (sentCaptions && (sentCaptions.file.size > 0 || sentCaptions.file.tooLarge)) {
      const language = captionTrackSchema.safeParse({ language: sentCaptions.language || 'en' })
      if (sentCaptions.file.tooLarge || !sentCaptions.file.path) errors.captions = CAPTION_MESSAGES.tooLarge
      else if (!language.success) errors.captions = language.error.issues[0]?.message ?? CAPTION_FORM_MESSAGES.languageInvalid
      else {
        try {
          const cues = await parseCaptionFile(await readFile(sentCaptions.file.path), sentCaptions.name)
          const tag = language.data.language
          captions = { videoId: '', language: tag, label: languageName(tag), source: 'upload', cues }
        } catch (error) {
          if (!(error instanceof CaptionFileError)) throw error
          errors.captions = error.message
        }
      }
    }

    if (parsed.success && !(await canUseCategory(claims, parsed.data.category))) {
      errors.category = UPLOAD_MESSAGES.categoryNotAllowed
    }
    // A spark's lesson (ADR 0050): one of the creator's own long-form videos, the moment within it.
    let lesson: SparkLessonInput = { lessonId: null, lessonAtSeconds: null }
    if (parsed.success && (values.lessonId?.trim() || values.lessonAt?.trim())) {
      try {
        lesson = await asCaller(claims, (tx) =>
          checkSparkLesson(
            tx,
            { creatorId: userId, type: parsed.data.type },
            { lessonId: values.lessonId, lessonAt: values.lessonAt },
          ),
        )
      } catch (error) {
        if (!isDomainError(error) || !error.fieldErrors) throw error
        Object.assign(errors, error.fieldErrors)
      }
    }
    const tooLarge = errors.video === UPLOAD_MESSAGES.videoTooLarge || errors.thumbnail === UPLOAD_MESSAGES.thumbnailTooLarge
    if (Object.keys(errors).length || !parsed.success) return refuse(errors, tooLarge ? 413 : 400)
    const input = parsed.data

    // The video by its content: the posted file, or the browser's upload fetched back as the user.
    let videoFile = received.video?.path ?? null
    if (!videoFile && source) {
      const fetched = await downloadUpload(supabase, source, path.join(work, 'source'), LIMITS.videoBytes)
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
      source = videoObjectName(userId, randomUUID(), extension)
      stored.push({ bucket: 'uploads', name: source })
      await storeFile(supabase, 'uploads', source, videoFile!, mime.startsWith('video/') ? mime : 'video/mp4')
    }

    // The published thumbnail is our own re-encode: a JPEG with no metadata (EXIF, GPS) left.
    const thumbnailJpeg = path.join(work, 'thumbnail.jpg')
    await reencodeThumbnail(thumbnail!.path!, thumbnailJpeg)
    const thumbnailPath = `${userId}/${videoId}.jpg`
    stored.push({ bucket: 'thumbnails', name: thumbnailPath })
    await storeFile(supabase, 'thumbnails', thumbnailPath, thumbnailJpeg, 'image/jpeg')

    try {
      await asCaller(claims, async (tx) => {
        await tx
          .insertInto('videos')
          .values({
            id: videoId,
            creator_id: userId,
            title: input.title,
            description: input.description,
            category_id: input.category,
            type: input.type,
            is_public: input.visibility,
            source_path: source,
            thumbnail_path: thumbnailPath,
            lesson_id: lesson.lessonId,
            lesson_at_seconds: lesson.lessonAtSeconds,
            // "0:00 Intro" lines in the description are its chapters when they keep the rules (ADR 0042).
            chapters: JSON.stringify(chaptersFromDescription(input.description, validation.probe.durationSeconds ?? null)),
          })
          .execute()
        if (input.thoughts) await addTextQuote(tx, videoId, input.thoughts)
        // In the same transaction: the video never exists without the captions it was sent with.
        if (captions) await writeTrack(tx, { ...captions, videoId })
      })
    } catch (error) {
      // The insert policy's check: the category is not (or no longer) one this creator may use.
      if ((error as { code?: unknown }).code === '42501') return refuse({ category: UPLOAD_MESSAGES.categoryNotAllowed })
      // The lesson changed since it was checked (deleted, shortened): Postgres's own refusal, as a field error.
      const refusedLesson = lessonRefusedByPostgres(error)
      if (refusedLesson) return refuse(refusedLesson.fieldErrors ?? {})
      throw error
    }
    committed = true
    return { ok: true, videoId }
  } finally {
    if (!committed) await removeStored(supabase, stored)
    await rm(work, { recursive: true, force: true })
  }
}

async function videoUsesSource(claims: JwtClaims, source: string): Promise<boolean> {
  const row = await asCaller(claims, (tx) =>
    tx.selectFrom('videos').select('id').where('source_path', '=', source).executeTakeFirst(),
  )
  return Boolean(row)
}

// ─── After the upload ────────────────────────────────────────────────────────

/** The caller's own video just uploaded, for the success page (null when it is not theirs or gone). */
export async function uploadedVideo(claims: JwtClaims, id: string): Promise<{ id: string; title: string } | null> {
  if (!isUuid(id)) return null
  const row = await asCaller(claims, (tx) =>
    tx.selectFrom('videos').select(['id', 'title']).where('id', '=', id).where('creator_id', '=', claims.sub).executeTakeFirst(),
  )
  return row ?? null
}
