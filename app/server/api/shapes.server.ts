import type { z } from 'zod'
import type { FeedbackEntry } from '../feedback.server'
import type { Account } from '../accounts.server'
import type { AdminUser, PendingApplication } from '~/lib/admin-types'
import { categoryName } from '~/lib/catalog'
import { avatarUrl, mediaUrls, thumbnailUrl } from '~/lib/media-urls'
import type { CommentView, VideoCardItem, VideoDetail } from '~/lib/video-types'
import type { CreatorCard, CreatorPageData, FollowedCreator } from '~/lib/creator-types'
import type { DashboardStats, RecentUpload } from '~/lib/dashboard-types'
import type { UserQuote } from '~/lib/quote-types'
import type { WatchPosition } from '~/lib/schemas/progress'
import type { LessonLink } from '~/lib/schemas/spark-lesson'
import { browserSupabaseUrl } from '../supabase.server'
import type {
  AdminUserSchema,
  CommentSchema,
  CreatorApplicationSchema,
  CreatorProfileSchema,
  DashboardStatsSchema,
  FeedbackSchema,
  FollowingSchema,
  PersonSchema,
  PublicUserSchema,
  QuoteSchema,
  ReportSchema,
  UserSchema,
  VideoSchema,
} from './schemas.server'

/**
 * The one place the domain's data becomes the API's shapes (`_id`,
 * `creator: { _id, username, profilePicture }`, `likes` as a count,
 * `hasLiked`, `isSpark`, `thumbnailUrl`, `videoUrl`, `createdAt`, …). The
 * types come from the zod schemas the OpenAPI document is made of, so a
 * shape and its documentation cannot drift apart silently.
 */
type Person = z.infer<typeof PersonSchema>
type Video = z.infer<typeof VideoSchema>

const iso = (value: string | Date) => new Date(value).toISOString()

/** The API's media paths (docs/product.md, The JSON API) for locally hosted videos. */
export const apiMediaPaths = (id: string) => ({ stream: `/api/videos/${id}/stream`, thumbnail: `/api/videos/${id}/thumbnail` })

export function personShape(who: {
  id: string
  username: string
  avatarPath?: string | null
  avatarUrl?: string | null
}): Person {
  return {
    _id: who.id,
    username: who.username,
    profilePicture: who.avatarUrl !== undefined ? who.avatarUrl : avatarUrl(browserSupabaseUrl(), who.avatarPath),
  }
}

/** A listed video (feed, sparks, a creator's videos); `hasLiked` from the caller's likes of the page. */
/** A saved position (ADR 0034). */
export function watchPositionShape(position: WatchPosition) {
  return {
    position: position.positionSeconds,
    duration: position.durationSeconds,
    finished: position.finished,
    updatedAt: iso(position.updatedAt),
  }
}

export function videoCardShape(item: VideoCardItem, hasLiked: boolean): Video {
  const paths = apiMediaPaths(item.id)
  const videoUrl = item.mp4Url ? paths.stream : null
  return {
    _id: item.id,
    id: item.id,
    title: item.title,
    description: item.description,
    category: item.category.name,
    categoryId: item.category.id,
    categoryName: item.category.name,
    type: item.type,
    isSpark: item.type === 'spark',
    isPublic: item.isPublic,
    status: 'ready',
    url: videoUrl,
    videoUrl,
    hlsUrl: item.hlsUrl,
    thumbnail: item.thumbnailUrl ? paths.thumbnail : null,
    thumbnailUrl: item.thumbnailUrl,
    contentType: 'video/mp4',
    isCloudinaryHosted: false,
    creator: personShape({ id: item.creator.id, username: item.creator.username, avatarUrl: item.creator.avatarUrl }),
    likes: item.likeCount,
    hasLiked,
    views: item.viewCount,
    durationSeconds: item.durationSeconds,
    createdAt: iso(item.createdAt),
    uploadDate: iso(item.createdAt),
  }
}

/** One video as GET /videos/:id answers it. */
export function videoDetailShape(video: VideoDetail, lesson?: LessonLink | null): Video {
  const urls = mediaUrls(
    {
      id: video.id,
      hls_path: video.hlsPath,
      mp4_path: video.mp4Path,
      thumbnail_path: video.thumbnailPath,
      external_url: video.externalUrl,
    },
    browserSupabaseUrl(),
  )
  const paths = apiMediaPaths(video.id)
  const videoUrl = video.externalUrl ?? (urls.mp4Url ? paths.stream : null)
  return {
    _id: video.id,
    id: video.id,
    title: video.title,
    description: video.description,
    category: categoryName(video.categoryId),
    categoryId: video.categoryId,
    categoryName: categoryName(video.categoryId),
    type: video.type,
    isSpark: video.type === 'spark',
    isPublic: video.isPublic,
    status: video.status,
    url: videoUrl,
    videoUrl,
    hlsUrl: urls.hlsUrl,
    thumbnail: video.thumbnailPath ? paths.thumbnail : urls.posterUrl,
    thumbnailUrl: urls.posterUrl,
    contentType: 'video/mp4',
    isCloudinaryHosted: Boolean(video.externalUrl),
    creator: personShape(video.creator),
    likes: video.likes,
    hasLiked: video.hasLiked,
    views: video.views,
    durationSeconds: video.durationSeconds,
    createdAt: iso(video.createdAt),
    uploadDate: iso(video.createdAt),
    ...(lesson === undefined
      ? {}
      : { lesson: lesson && { _id: lesson.id, title: lesson.title, at: lesson.at, url: lesson.href } }),
  }
}

export function commentShape(comment: CommentView): z.infer<typeof CommentSchema> {
  return { _id: comment.id, text: comment.body, user: personShape(comment.user), createdAt: iso(comment.createdAt) }
}

/** One's own user object (with email and portfolio). */
export function accountShape(account: Account): z.infer<typeof UserSchema> {
  const approved = account.categories.find((category) => category.status === 'approved')
  return {
    _id: account.id,
    username: account.username,
    email: account.email,
    role: account.role,
    bio: account.bio,
    profilePicture: avatarUrl(browserSupabaseUrl(), account.avatarPath),
    isVerified: account.isVerified,
    creatorCategories: account.categories,
    creatorCategory: (approved ?? account.categories[0])?.name ?? null,
    fieldOfInterest: account.fieldOfInterest,
    concentration: account.concentration,
    interests: account.interests,
    portfolio: account.portfolioPath ? { path: account.portfolioPath } : null,
    createdAt: account.createdAt,
  }
}

export interface ReportRow {
  id: string
  contentId: string
  contentType: 'video' | 'quote' | 'comment'
  reason: string
  details: string
  reporter: string | null
  status: 'pending' | 'reviewed' | 'dismissed' | 'removed'
  createdAt: string
}

export function reportShape(report: ReportRow): z.infer<typeof ReportSchema> {
  return {
    _id: report.id,
    contentId: report.contentId,
    contentType: report.contentType,
    reason: report.reason,
    details: report.details,
    reportedBy: { username: report.reporter },
    status: report.status,
    createdAt: iso(report.createdAt),
  }
}

export function feedbackShape(entry: FeedbackEntry): z.infer<typeof FeedbackSchema> {
  return {
    _id: entry.id,
    liked: entry.liked ? 'yes' : 'no',
    usage: entry.usage,
    recommendations: entry.recommendations,
    user: { _id: entry.userId, username: entry.username },
    createdAt: iso(entry.createdAt),
  }
}

export function applicationShape(application: PendingApplication): z.infer<typeof CreatorApplicationSchema> {
  return {
    _id: application.id,
    user: {
      _id: application.creatorId,
      username: application.username,
      email: application.email,
      bio: application.bio,
      fieldOfInterest: application.fieldOfInterest,
      concentration: application.concentration,
      creatorCategories: application.categories,
    },
    portfolio: {
      available: application.hasPortfolio,
      type: application.portfolioType,
      path: application.hasPortfolio ? `/admin/portfolio/${application.creatorId}` : null,
    },
    status: 'pending',
    createdAt: iso(application.appliedAt),
  }
}

export function adminUserShape(user: AdminUser): z.infer<typeof AdminUserSchema> {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    isVerified: user.isVerified,
    videoCount: user.videoCount,
    isCurrentUser: user.isCurrentUser,
    createdAt: iso(user.createdAt),
  }
}

/** Another user's public card (Discover Creators, GET /users/creators): no email, no private field. */
export function publicUserShape(card: CreatorCard): z.infer<typeof PublicUserSchema> {
  return {
    _id: card.id,
    username: card.username,
    role: card.role,
    bio: card.bio,
    profilePicture: card.avatarUrl,
    isVerified: card.isVerified,
    videoCount: card.videoCount,
    isFollowed: card.isFollowed,
    isSelf: card.isSelf,
  }
}

/** A creator's page header (GET /users/:id): the public card with followers and following. */
export function creatorProfileShape(page: CreatorPageData): z.infer<typeof CreatorProfileSchema> {
  return { ...publicUserShape(page), followers: page.followers, following: page.following, createdAt: iso(page.joinedAt) }
}

export function followedShape(person: FollowedCreator): z.infer<typeof FollowingSchema> {
  return { _id: person.id, username: person.username, role: person.role, bio: person.bio, profilePicture: person.avatarUrl }
}

/** The dashboard stats (docs/product.md, Data), with the recent uploads. */
export function dashboardShape(stats: DashboardStats, uploads: RecentUpload[]): z.infer<typeof DashboardStatsSchema> {
  const supabaseUrl = browserSupabaseUrl()
  return {
    totalVideos: stats.totalVideos,
    totalViews: stats.totalViews,
    totalLikes: stats.totalLikes,
    totalComments: stats.totalComments,
    avgViewsPerVideo: stats.avgViewsPerVideo,
    avgLikesPerVideo: stats.avgLikesPerVideo,
    avgCommentsPerVideo: stats.avgCommentsPerVideo,
    videosByCategory: stats.videosByCategory,
    mostPopularCategory: stats.mostPopularCategory,
    viewsOverTime: stats.viewsOverTime,
    likesOverTime: stats.likesOverTime,
    recentUploads: uploads.map((video) => ({
      _id: video.id,
      title: video.title,
      type: video.type,
      isSpark: video.type === 'spark',
      isPublic: video.isPublic,
      status: video.status,
      views: video.views,
      likes: video.likes,
      comments: video.comments,
      thumbnailUrl: thumbnailUrl(supabaseUrl, video.thumbnailPath),
      createdAt: iso(video.createdAt),
    })),
    totalWatchSeconds: stats.totalWatchSeconds,
    change: stats.change,
    timeZone: stats.timeZone,
    days: stats.days,
  }
}

export function quoteShape(quote: UserQuote): z.infer<typeof QuoteSchema> {
  const original = quote.originalVideo
  return {
    _id: quote.id,
    text: quote.body,
    type: quote.type,
    moment: quote.moment,
    originalVideo: {
      _id: original.id,
      title: original.title,
      thumbnailUrl: original.thumbnailUrl,
      creator: { _id: original.creator.id, username: original.creator.username },
    },
    responseVideo: quote.response
      ? {
          status: quote.response.status,
          videoUrl: quote.response.mp4Url,
          hlsUrl: quote.response.hlsUrl,
          thumbnailUrl: quote.response.posterUrl,
        }
      : null,
    isCloudinaryHosted: false,
    likes: quote.likes,
    hasLiked: quote.hasLiked,
    canDelete: quote.canDelete,
    creator: personShape({ id: quote.creator.id, username: quote.creator.username, avatarUrl: quote.creator.avatarUrl }),
    createdAt: iso(quote.createdAt),
  }
}
