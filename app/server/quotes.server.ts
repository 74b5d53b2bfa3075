import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { LIMITS } from '~/lib/catalog'
import { isUuid } from '~/lib/ids'
import { avatarUrl, mediaPathUrl, thumbnailUrl } from '~/lib/media-urls'
import type { QuotedVideo, QuoteResponseMedia, UserQuote } from '~/lib/quote-types'
import {
  isOwnResponseObjectName,
  QUOTE_MESSAGES,
  quoteErrors,
  quoteSchema,
  responseObjectName,
  type QuoteErrors,
  type QuoteValues,
} from '~/lib/schemas/quote'
import { VIDEO_EXTENSIONS } from '~/lib/schemas/upload'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { QuoteView, VideoCardItem } from '~/lib/video-types'
import { validateVideoFile } from '../../media/validate-upload'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError, isPermissionError } from './errors.server'
import { listVideos } from './feed/lists.server'
import { visibleVideo } from './permissions.server'
import { removeFiles } from './storage.server'
import { browserSupabaseUrl, type Supabase } from './supabase.server'
import { downloadUpload, removeStored, storeFile, type StoredObject } from './upload-objects.server'

/**
 * Quotes (docs/product.md: Data; Rules and messages): text and video responses to a
 * video, as the caller. Row-level security shows a video's quotes exactly
 * when the video is visible and lets the author or an admin delete
 * (`public.can_delete_quote`, asked here too for the Delete control).
 */

/**
 * Adds a text quote inside the caller's transaction — used by the upload,
 * whose "thoughts" become its first quote in the same transaction as the
 * video. `user_id` defaults to `auth.uid()`.
 */
export async function addTextQuote(tx: Tx, videoId: string, body: string): Promise<void> {
  await tx.insertInto('quotes').values({ video_id: videoId, type: 'text', body }).execute()
}

/** The quotes of a visible video, newest first (an empty list for a hidden one), skipping the newest `offset`. */
export async function listQuotes(claims: JwtClaims | null, videoId: string, limit = 100, offset = 0): Promise<QuoteView[]> {
  if (!isUuid(videoId)) return []
  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, videoId))) return []
    const rows = await tx
      .selectFrom('quotes')
      .innerJoin('profiles', 'profiles.id', 'quotes.user_id')
      .select(QUOTE_COLUMNS)
      .select(canDeleteColumn(claims))
      .where('quotes.video_id', '=', videoId)
      .orderBy('quotes.created_at', 'desc')
      .orderBy('quotes.id', 'desc')
      .limit(Math.min(Math.max(limit, 1), 500))
      .offset(Math.max(offset, 0))
      .execute()
    const liked = await likedByCaller(tx, claims, rows)
    return rows.map((row) => toQuoteView(row, liked))
  })
}

/** What every quote read selects (with `quotes` joined to its author's `profiles`). */
const QUOTE_COLUMNS = [
  'quotes.id',
  'quotes.video_id',
  'quotes.type',
  'quotes.body',
  'quotes.moment_seconds',
  'quotes.created_at',
  'quotes.like_count',
  'quotes.user_id',
  'quotes.response_status',
  'quotes.response_hls_path',
  'quotes.response_mp4_path',
  'quotes.response_poster_path',
  'profiles.username',
  'profiles.avatar_path',
  'profiles.role',
] as const

export interface QuoteRow {
  id: string
  video_id: string
  type: string
  body: string
  moment_seconds: string | number | null
  created_at: Date | string
  like_count: number
  user_id: string
  response_status: string | null
  response_hls_path: string | null
  response_mp4_path: string | null
  response_poster_path: string | null
  username: string
  avatar_path: string | null
  role: string
  can_delete: boolean
}

/** Whether the caller may delete each quote: the delete policy's own rule (public.can_delete_quote). */
function canDeleteColumn(claims: JwtClaims | null) {
  return claims ? sql<boolean>`public.can_delete_quote(quotes.user_id)`.as('can_delete') : sql<boolean>`false`.as('can_delete')
}

async function likedByCaller(tx: Tx, claims: JwtClaims | null, rows: { id: string }[]): Promise<Set<string>> {
  const liked = new Set<string>()
  if (!claims || !rows.length) return liked
  const likes = await tx
    .selectFrom('quote_likes')
    .select('quote_id')
    .where('user_id', '=', claims.sub)
    .where(
      'quote_id',
      'in',
      rows.map((row) => row.id),
    )
    .execute()
  for (const like of likes) liked.add(like.quote_id)
  return liked
}

export function toQuoteView(row: QuoteRow, liked: Set<string>): QuoteView {
  return {
    id: row.id,
    videoId: row.video_id,
    type: row.type as QuoteView['type'],
    body: row.body,
    moment: row.moment_seconds === null ? null : Number(row.moment_seconds),
    createdAt: new Date(row.created_at).toISOString(),
    likes: row.like_count,
    hasLiked: liked.has(row.id),
    creator: { id: row.user_id, username: row.username, avatarPath: row.avatar_path, role: row.role },
    response:
      row.type === 'video'
        ? {
            status: (row.response_status ?? 'processing') as 'processing' | 'ready' | 'failed',
            hlsPath: row.response_hls_path,
            mp4Path: row.response_mp4_path,
            posterPath: row.response_poster_path,
          }
        : null,
    canDelete: row.can_delete === true,
  }
}

/**
 * Deletes a quote as the caller: its author or an admin (the delete
 * policy decides), then its response files. Returns the spec's message.
 */
export async function deleteQuote(claims: JwtClaims | null, quoteId: string): Promise<string> {
  if (!claims) throw new DomainError('unauthenticated', VIDEO_MESSAGES.loginToDeleteQuote)
  if (!isUuid(quoteId)) throw new DomainError('not_found', VIDEO_MESSAGES.quoteNotFound)
  const deleted = await asCaller(claims, async (tx) => {
    const row = await tx
      .deleteFrom('quotes')
      .where('id', '=', quoteId)
      .returning(['id', 'response_source_path'])
      .executeTakeFirst()
    if (row) return row
    const exists = await tx.selectFrom('quotes').select('id').where('id', '=', quoteId).executeTakeFirst()
    throw exists
      ? new DomainError('forbidden', VIDEO_MESSAGES.notYourQuote)
      : new DomainError('not_found', VIDEO_MESSAGES.quoteNotFound)
  })
  await removeFiles(`quote ${quoteId} was deleted by its author or an admin`, {
    uploads: deleted.response_source_path ? [deleted.response_source_path] : [],
    mediaPrefix: `quotes/${quoteId}/`,
  })
  return VIDEO_MESSAGES.quoteDeleted
}

// ─── Creating a quote ────────────────────────────────────────────────────────

/** Who quotes: their verified claims, and their Supabase client (Storage as the user). */
export interface QuoteAuthor {
  claims: JwtClaims
  supabase: Supabase
}

/** A response video the route received into a temporary file (see http/forms.server.ts). */
export interface ReceivedResponse {
  /** Null when it was larger than the limit: nothing past the limit was kept. */
  path: string | null
  size: number
  tooLarge: boolean
}

export interface CreateQuoteInput {
  values: QuoteValues
  /** The object the browser already uploaded with tus (`uploads/<uid>/quotes/<uuid>.<ext>`), if it names one. */
  sourcePath: string | null
  /** The response video posted with the form (no JavaScript). */
  video: ReceivedResponse | null
}

/**
 * Creates a text quote or a video response as the caller (docs/product.md:
 * Data; Rules and messages). Any signed-in user may quote a video they can see —
 * the insert policy decides. A video response goes the way an upload does:
 * the browser's resumable upload (fetched back as the user) or the posted
 * file, judged by its content (ffprobe), stored in the author's `quotes/`
 * folder, and the row's trigger queues the media job; the response shows to
 * others once the worker made it ready. Refusals throw DomainError with the
 * spec's message and field errors; nothing stays behind after one.
 */
export async function createQuote(author: QuoteAuthor, input: CreateQuoteInput): Promise<{ quoteId: string; videoId: string }> {
  const { claims, supabase } = author
  const userId = claims.sub
  const sentSource = input.sourcePath || null
  const stored: StoredObject[] = []
  let committed = false
  const work = await mkdtemp(path.join(tmpdir(), 'lumen-quote-check-'))

  try {
    // The browser's upload, when it names one: a generated name in the caller's own folder, not one a quote uses.
    let source: string | null = null
    if (sentSource && isOwnResponseObjectName(sentSource, userId) && !(await responseInUse(claims, sentSource))) {
      source = sentSource
      stored.push({ bucket: 'uploads', name: source })
    }

    const parsed = quoteSchema.safeParse(input.values)
    const errors: QuoteErrors = parsed.success ? {} : quoteErrors(parsed.error)
    const type = parsed.success ? parsed.data.type : input.values.type
    if (type === 'video') {
      if (input.video) {
        if (input.video.tooLarge) errors.video = QUOTE_MESSAGES.videoTooLarge
        else if (input.video.size === 0) errors.video = QUOTE_MESSAGES.videoRequired
      } else if (!sentSource) errors.video = QUOTE_MESSAGES.videoRequired
      else if (!source) errors.video = QUOTE_MESSAGES.sourceMissing
    }
    if (!parsed.success || Object.keys(errors).length) throw refusal(errors)
    const quote = parsed.data

    const original = await originalVideo(claims, quote.videoId)
    if (!original) throw new DomainError('not_found', VIDEO_MESSAGES.notFound, { videoId: VIDEO_MESSAGES.notFound })
    if (quote.moment !== null && original.durationSeconds !== null && quote.moment > original.durationSeconds) {
      throw refusal({ moment: QUOTE_MESSAGES.badMoment })
    }

    let responsePath: string | null = null
    if (quote.type === 'video') {
      let file = input.video?.path ?? null
      if (!file && source) {
        const fetched = await downloadUpload(supabase, source, path.join(work, 'source'), LIMITS.videoBytes)
        if (fetched === 'missing') throw refusal({ video: QUOTE_MESSAGES.sourceMissing })
        if (fetched === 'too-large') throw refusal({ video: QUOTE_MESSAGES.videoTooLarge })
        file = fetched
      }
      const validation = await validateVideoFile(file!, { type: 'quote', maxBytes: LIMITS.videoBytes })
      if (!validation.ok) throw refusal({ video: validation.message })
      if (!source) {
        const { ext, mime } = validation.probe.fileType
        const extension = (VIDEO_EXTENSIONS as readonly string[]).includes(ext) ? ext : ext === 'mts' ? 'ts' : 'mp4'
        source = responseObjectName(userId, randomUUID(), extension)
        stored.push({ bucket: 'uploads', name: source })
        await storeFile(supabase, 'uploads', source, file!, mime.startsWith('video/') ? mime : 'video/mp4')
      }
      responsePath = source
    }

    let row: { id: string }
    try {
      row = await asCaller(claims, (tx) =>
        tx
          .insertInto('quotes')
          .values({
            video_id: quote.videoId,
            type: quote.type,
            body: quote.text,
            moment_seconds: quote.moment,
            response_source_path: responsePath,
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
      )
    } catch (error) {
      // The insert policy: the video is no longer one the caller can see.
      if (isPermissionError(error)) throw new DomainError('not_found', VIDEO_MESSAGES.notFound)
      throw error
    }
    committed = true
    return { quoteId: row.id, videoId: quote.videoId }
  } finally {
    if (!committed) await removeStored(supabase, stored)
    await rm(work, { recursive: true, force: true })
  }
}

/** A refusal with field errors: 413 for a file over the limit, else 400; the message is the first field's. */
function refusal(errors: QuoteErrors): DomainError {
  const order: (keyof QuoteErrors)[] = ['videoId', 'type', 'text', 'video', 'moment', 'form']
  const first = order.map((key) => errors[key]).find(Boolean) ?? QUOTE_MESSAGES.videoIdRequired
  return new DomainError(errors.video === QUOTE_MESSAGES.videoTooLarge ? 'too_large' : 'invalid', first, errors)
}

async function responseInUse(claims: JwtClaims, source: string): Promise<boolean> {
  const row = await asCaller(claims, (tx) =>
    tx.selectFrom('quotes').select('id').where('response_source_path', '=', source).executeTakeFirst(),
  )
  return Boolean(row)
}

// ─── The original video ──────────────────────────────────────────────────────

const ORIGINAL_COLUMNS = [
  'videos.id as original_id',
  'videos.title as original_title',
  'videos.thumbnail_path as original_thumbnail_path',
  'videos.hls_path as original_hls_path',
  'videos.mp4_path as original_mp4_path',
  'videos.status as original_status',
  'videos.duration_seconds as original_duration_seconds',
  'videos.creator_id as original_creator_id',
] as const

interface OriginalRow {
  original_id: string
  original_title: string
  original_thumbnail_path: string | null
  original_hls_path: string | null
  original_mp4_path: string | null
  original_status: string
  original_duration_seconds: string | number | null
  original_creator_id: string
  original_creator_username: string
}

function toQuotedVideo(row: OriginalRow): QuotedVideo {
  const supabaseUrl = browserSupabaseUrl()
  return {
    id: row.original_id,
    title: row.original_title,
    thumbnailUrl: thumbnailUrl(supabaseUrl, row.original_thumbnail_path),
    hlsUrl: mediaPathUrl(row.original_hls_path),
    mp4Url: mediaPathUrl(row.original_mp4_path),
    durationSeconds: row.original_duration_seconds === null ? null : Number(row.original_duration_seconds),
    playable: row.original_status === 'ready',
    creator: { id: row.original_creator_id, username: row.original_creator_username },
  }
}

/** The video to quote, as the create page shows it; null when it does not exist or the caller cannot see it. */
export async function originalVideo(claims: JwtClaims | null, videoId: string): Promise<QuotedVideo | null> {
  if (!isUuid(videoId)) return null
  const row = await asCaller(claims, (tx) =>
    tx
      .selectFrom('videos')
      .innerJoin('profiles as owner', 'owner.id', 'videos.creator_id')
      .select(ORIGINAL_COLUMNS)
      .select('owner.username as original_creator_username')
      .where('videos.id', '=', videoId)
      .executeTakeFirst(),
  )
  return row ? toQuotedVideo(row) : null
}

/** Videos and sparks to pick from when /create-quote has no `videoId` (the feed's own search, as the caller). */
export async function searchVideosToQuote(claims: JwtClaims, search: string | null): Promise<VideoCardItem[]> {
  const [videos, sparks] = await Promise.all([
    listVideos(claims, { type: 'video', search, limit: 8 }),
    listVideos(claims, { type: 'spark', search, limit: 4 }),
  ])
  return [...videos.items, ...sparks.items]
}

// ─── A user's quotes, one quote ──────────────────────────────────────────────

function userQuotesQuery(tx: Tx, claims: JwtClaims | null) {
  return tx
    .selectFrom('quotes')
    .innerJoin('profiles', 'profiles.id', 'quotes.user_id')
    .innerJoin('videos', 'videos.id', 'quotes.video_id')
    .innerJoin('profiles as owner', 'owner.id', 'videos.creator_id')
    .select(QUOTE_COLUMNS)
    .select(ORIGINAL_COLUMNS)
    .select('owner.username as original_creator_username')
    .select(canDeleteColumn(claims))
}

function toUserQuote(row: QuoteRow & OriginalRow, liked: Set<string>): UserQuote {
  const view = toQuoteView(row, liked)
  const supabaseUrl = browserSupabaseUrl()
  return {
    id: view.id,
    type: view.type,
    body: view.body,
    moment: view.moment,
    createdAt: view.createdAt,
    likes: view.likes,
    hasLiked: view.hasLiked,
    canDelete: view.canDelete,
    creator: {
      id: view.creator.id,
      username: view.creator.username,
      role: view.creator.role as UserQuote['creator']['role'],
      avatarUrl: avatarUrl(supabaseUrl, view.creator.avatarPath),
    },
    originalVideo: toQuotedVideo(row),
    response: view.response ? quoteResponseMedia(view.response) : null,
  }
}

/** A response's paths in bucket `media` as browser URLs. */
export function quoteResponseMedia(response: NonNullable<QuoteView['response']>): QuoteResponseMedia {
  return {
    status: response.status,
    hlsUrl: mediaPathUrl(response.hlsPath),
    mp4Url: mediaPathUrl(response.mp4Path),
    posterUrl: mediaPathUrl(response.posterPath),
  }
}

/**
 * A user's quotes, newest first, each with its original (docs/product.md: Profile → My
 * Quotes; GET /quotes/user/:id). Row-level security leaves out what the
 * caller may not see: quotes of hidden videos, and another user's responses
 * that are not ready yet.
 */
export function listUserQuotes(claims: JwtClaims | null, userId: string, limit = 100): Promise<UserQuote[]> {
  return listQuotesWithOriginal(claims, 'quotes.user_id', userId, limit)
}

/** A visible video's quotes, newest first, each with its original (GET /quotes/video/:id); [] for a hidden one. */
export function listVideoQuotes(claims: JwtClaims | null, videoId: string, limit = 100): Promise<UserQuote[]> {
  return listQuotesWithOriginal(claims, 'quotes.video_id', videoId, limit)
}

async function listQuotesWithOriginal(
  claims: JwtClaims | null,
  column: 'quotes.user_id' | 'quotes.video_id',
  id: string,
  limit: number,
): Promise<UserQuote[]> {
  if (!isUuid(id)) return []
  return asCaller(claims, async (tx) => {
    const rows = await userQuotesQuery(tx, claims)
      .where(column, '=', id)
      .orderBy('quotes.created_at', 'desc')
      .orderBy('quotes.id', 'desc')
      .limit(Math.min(Math.max(limit, 1), 500))
      .execute()
    const liked = await likedByCaller(tx, claims, rows)
    return rows.map((row) => toUserQuote(row, liked))
  })
}

/** The caller's own quotes (My Quotes). */
export function listMyQuotes(claims: JwtClaims, limit = 100): Promise<UserQuote[]> {
  return listUserQuotes(claims, claims.sub, limit)
}

/** One quote with its original (the side-by-side view); 404 'Quote not found' when the caller cannot see it. */
export async function getQuote(claims: JwtClaims | null, quoteId: string): Promise<UserQuote> {
  if (!isUuid(quoteId)) throw new DomainError('not_found', VIDEO_MESSAGES.quoteNotFound)
  return asCaller(claims, async (tx) => {
    const row = await userQuotesQuery(tx, claims).where('quotes.id', '=', quoteId).executeTakeFirst()
    if (!row) throw new DomainError('not_found', VIDEO_MESSAGES.quoteNotFound)
    return toUserQuote(row, await likedByCaller(tx, claims, [row]))
  })
}
