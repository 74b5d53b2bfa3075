/**
 * Shapes the creator dashboard renders (ADR 0015); plain types, so
 * components can use them without importing a server module.
 */

/** One day in the creator's time zone (YYYY-MM-DD), zero-filled. */
export interface DailyPoint {
  date: string
  views: number
  likes: number
  comments: number
  watchSeconds: number
}

export interface CategoryFigure {
  category: string
  name: string
  videos: number
  views: number
}

/** The Dashboard stats of docs/product.md (Data), plus the change over 7 days and watch time. */
export interface DashboardStats {
  totalVideos: number
  totalViews: number
  totalLikes: number
  totalComments: number
  /** What the last 7 days added: new videos, views, likes and comments. */
  change: { videos: number; views: number; likes: number; comments: number }
  totalWatchSeconds: number
  avgViewsPerVideo: number
  avgLikesPerVideo: number
  avgCommentsPerVideo: number
  likesPer100Views: number
  commentsPer100Views: number
  videosByCategory: CategoryFigure[]
  mostPopularCategory: string | null
  viewsOverTime: Array<{ date: string; count: number }>
  likesOverTime: Array<{ date: string; count: number }>
  daily: DailyPoint[]
  timeZone: string
  days: number
}

export interface DashboardVideo {
  id: string
  title: string
  type: 'video' | 'spark'
  status: 'uploading' | 'processing' | 'ready' | 'failed'
  createdAt: string
  views: number
  likes: number
  comments: number
  watchSeconds: number
  plays: number
  /** Average share of the video a play watched (0–1), null before any play or without a duration. */
  avgShareWatched: number | null
}

export interface VideoInsight {
  id: string
  title: string
  type: 'video' | 'spark'
  createdAt: string
  durationSeconds: number | null
  views: number
  likes: number
  comments: number
  plays: number
  watchSeconds: number
  /** Share of plays (0–1) that played each tenth of the video. */
  retention: Array<{ tenth: number; share: number }>
  daily: DailyPoint[]
  timeZone: string
  days: number
}

export interface RecentUpload {
  id: string
  title: string
  type: 'video' | 'spark'
  status: 'uploading' | 'processing' | 'ready' | 'failed'
  /** Why processing failed — shown to the owner only. */
  statusMessage: string | null
  /** Ready, playing one rendition while the worker adds the rest (ADR 0025). */
  moreQualitiesPending: boolean
  isPublic: boolean
  views: number
  likes: number
  comments: number
  thumbnailPath: string | null
  createdAt: string
}

export interface PlatformDay {
  date: string
  users: number
  uploads: number
  views: number
}
