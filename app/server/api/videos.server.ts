import { CATEGORIES, DEFAULT_CATEGORY } from '~/lib/catalog'
import { API_MESSAGES, API_VIDEO_FILE_MISSING, DEFAULT_UPLOAD_TITLE } from '~/lib/schemas/api'
import { UPLOAD_MESSAGES, type UploadErrors, type UploadValues } from '~/lib/schemas/upload'
import type { VideoCardItem } from '~/lib/video-types'
import { DomainError } from '../errors.server'
import { FEED_PAGE_SIZE } from '../feed/lists.server'
import { SPARK_FEEDS, type SparkFeed } from '~/lib/for-you'
import type { RankedCard } from '../for-you.server'
import { discardUploadBody, receiveApiUploadForm } from '../http/forms.server'
import { proxyStorageObject } from '../http/media-proxy.server'
import { likedVideoIds } from '../likes.server'
import { canUpload } from '../permissions.server'
import { createUpload } from '../uploads.server'
import { supabaseSettings } from '../supabase.server'
import { getVideo } from '../videos.server'
import { lessonLinkOf } from '../spark-lessons.server'
import type { ApiCaller } from './caller.server'
import { videoCardShape, videoDetailShape } from './shapes.server'

/**
 * The video calls' API-only steps: reading the API's query and form
 * spellings into the domain's inputs, and the lists' `hasLiked`. The work
 * itself is the pages' own (feed, uploads, videos, likes).
 */

/** `GET /videos?type=&isSpark=&category=&search=&page=&limit=` → the list's options. */
export function videoQuery(url: URL, forced?: 'spark') {
  const params = url.searchParams
  const type = forced ?? (params.get('type') === 'spark' || params.get('isSpark') === 'true' ? 'spark' : 'video')
  const number = (name: string, fallback: number) => {
    const value = Number.parseInt(params.get(name) ?? '', 10)
    return Number.isFinite(value) && value > 0 ? value : fallback
  }
  return {
    type,
    category: categoryFilter(params.get('category')),
    search: params.get('search'),
    page: number('page', 1),
    limit: number('limit', FEED_PAGE_SIZE),
  } as const
}

/** `feed=for-you|following` (the ranked sparks feeds, ADR 0045); null without one; anything else is 400. */
export function sparkFeedQuery(url: URL): SparkFeed | null {
  const value = url.searchParams.get('feed')
  if (value === null) return null
  if ((SPARK_FEEDS as readonly string[]).includes(value)) return value as SparkFeed
  throw new DomainError('invalid', API_MESSAGES.unknownFeed, { feed: API_MESSAGES.unknownFeed })
}

/** `category=`: a name or slug of the fixed list; none, '' or 'All Categories' for every one; else 400. */
function categoryFilter(value: string | null): string | null {
  if (!value?.trim() || ['all', 'all categories'].includes(value.trim().toLowerCase())) return null
  return categoryId(value) ?? unknownCategory()
}

function unknownCategory(): never {
  throw new DomainError('invalid', API_MESSAGES.unknownCategory, { category: API_MESSAGES.unknownCategory })
}

/** A category by id or by its name (docs/product.md, Data names them); null for none or an unknown one. */
export function categoryId(value: string | null | undefined): string | null {
  const wanted = (value ?? '').trim().toLowerCase()
  if (!wanted) return null
  return CATEGORIES.find((category) => category.id === wanted || category.name.toLowerCase() === wanted)?.id ?? null
}

/** Listed videos in the API's shape, each with the caller's `hasLiked`. */
export async function videoList(caller: ApiCaller | null, items: VideoCardItem[]) {
  const liked = await likedVideoIds(
    caller?.claims ?? null,
    items.map((item) => item.id),
  )
  return items.map((item) => videoCardShape(item, liked.has(item.id)))
}

/** A ranked feed's clips in the API's video shape (docs/product.md, Data), each with the caller's `hasLiked` and why it is there. */
export async function rankedVideoList(caller: ApiCaller | null, items: RankedCard[]) {
  const shaped = await videoList(caller, items)
  return shaped.map((video, index) => ({ ...video, reason: items[index]!.reason }))
}

const FILE_FIELDS: Record<string, string> = { video: 'videoFile', thumbnail: 'thumbnailFile', visibility: 'isPublic' }

/**
 * POST /videos/upload-cloudinary: the page's upload (createUpload: every
 * check, the same messages, nothing left behind on a refusal) with section
 * 7's field names — `videoFile`, `thumbnailFile`, `title` (default
 * 'Untitled'), `description`, `category` (default 'other'), `type` or
 * `isSpark`, `isPublic`; an unknown category is 400. The files are streamed to temporary files, never
 * held in memory.
 */
export async function uploadThroughApi(caller: ApiCaller, request: Request) {
  if (!(await canUpload(caller.claims))) {
    await discardUploadBody(request)
    throw new DomainError('forbidden', caller.user.role === 'creator' ? UPLOAD_MESSAGES.unverified : UPLOAD_MESSAGES.notCreator)
  }
  const received = await receiveApiUploadForm(request)
  try {
    const text = (name: string) => {
      const value = received.form.get(name)
      return typeof value === 'string' ? value : ''
    }
    const values: UploadValues = {
      title: text('title').trim() || DEFAULT_UPLOAD_TITLE,
      description: text('description'),
      type: text('type') || (text('isSpark') === 'true' ? 'spark' : 'video'),
      category: text('category').trim() ? (categoryId(text('category')) ?? unknownCategory()) : DEFAULT_CATEGORY,
      visibility: text('isPublic') === 'false' ? 'private' : 'public',
      thoughts: '',
      lessonId: text('lessonId'),
      lessonAt: text('lessonAt'),
    }
    const result = await createUpload(caller, {
      values,
      sourcePath: null,
      video: received.files.videoFile ?? null,
      thumbnail: received.files.thumbnailFile ?? null,
    })
    if (!result.ok) throw uploadRefusal(result.errors, result.status)
    const video = await getVideo(caller.claims, result.videoId)
    if (!video) throw new Error(`the new video ${result.videoId} cannot be read back`)
    return videoDetailShape(video, await lessonLinkOf(caller.claims, video.id))
  } finally {
    await received.dispose()
  }
}

function uploadRefusal(errors: UploadErrors, status: 400 | 413): DomainError {
  const fieldErrors: Record<string, string> = {}
  for (const [field, message] of Object.entries(errors)) if (message) fieldErrors[FILE_FIELDS[field] ?? field] = message
  // The video's verdict first (the spec's 'No video file provided' when there is none), then the rest in form order.
  const message =
    errors.video ?? errors.thumbnail ?? errors.title ?? Object.values(errors).find(Boolean) ?? UPLOAD_MESSAGES.failed
  return new DomainError(status === 413 ? 'too_large' : 'invalid', message, fieldErrors)
}

const MEDIA_CACHE = 'private, max-age=31536000, immutable'

/**
 * GET/HEAD /videos/:id/stream — the MP4 rendition, as the caller: 401
 * without a token ('Please log in to watch this video.'), 404 when they
 * cannot see the video or it has no playable file yet, else the bytes
 * (Range: 206). Storage's own policy checks the caller again.
 */
export async function streamVideo(caller: ApiCaller | null, request: Request, id: string): Promise<Response> {
  if (!caller) throw new DomainError('unauthenticated', API_MESSAGES.loginToWatch)
  const video = await getVideo(caller.claims, id)
  if (!video || !video.mp4Path) throw new DomainError('not_found', API_VIDEO_FILE_MISSING)
  const answer = await proxyStorageObject(request, {
    route: 'authenticated/media',
    objectName: video.mp4Path,
    bearer: caller.token,
    contentType: 'video/mp4',
    // Until the ladder is complete this URL answers phase 1's MP4, then the top rung's (ADR 0025): revalidate meanwhile.
    cacheControl: video.moreQualitiesPending ? 'private, no-cache' : MEDIA_CACHE,
  })
  if (answer.status === 404) throw new DomainError('not_found', API_VIDEO_FILE_MISSING)
  return answer
}

/** GET/HEAD /videos/:id/thumbnail — the thumbnail of a video the caller (or a visitor) can see. */
export async function videoThumbnail(caller: ApiCaller | null, request: Request, id: string): Promise<Response> {
  const video = await getVideo(caller?.claims ?? null, id)
  if (!video || !video.thumbnailPath) throw new DomainError('not_found', API_MESSAGES.thumbnailMissing)
  if (/^https?:\/\//i.test(video.thumbnailPath)) return Response.redirect(video.thumbnailPath, 302)
  const answer = await proxyStorageObject(request, {
    route: 'public/thumbnails',
    objectName: video.thumbnailPath,
    bearer: caller?.token ?? supabaseSettings().anonKey,
    contentType: 'image/jpeg',
    cacheControl: 'private, max-age=300',
  })
  if (answer.status === 404) throw new DomainError('not_found', API_MESSAGES.thumbnailMissing)
  return answer
}
