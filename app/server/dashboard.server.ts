import { asCaller, type JwtClaims } from './db.server'

/**
 * The creator dashboard's figures (spec: Dashboard stats), computed from the
 * creator's own rows of `public.videos`, read as the caller — so a creator
 * sees their private and still-processing videos too, and nobody else's.
 */
export interface DashboardStats {
  totalVideos: number
  totalViews: number
  totalLikes: number
  totalComments: number
}

export interface RecentUpload {
  id: string
  title: string
  type: 'video' | 'spark'
  status: 'uploading' | 'processing' | 'ready' | 'failed'
  isPublic: boolean
  views: number
  likes: number
  comments: number
  thumbnailPath: string | null
  createdAt: string
}

export interface CreatorDashboard {
  stats: DashboardStats
  recentUploads: RecentUpload[]
}

const RECENT_UPLOADS = 12

export async function creatorDashboard(claims: JwtClaims): Promise<CreatorDashboard> {
  return asCaller(claims, async (tx) => {
    const totals = await tx
      .selectFrom('videos')
      .select((eb) => [
        eb.fn.countAll<string>().as('videos'),
        eb.fn.coalesce(eb.fn.sum<string>('view_count'), eb.lit(0)).as('views'),
        eb.fn.coalesce(eb.fn.sum<string>('like_count'), eb.lit(0)).as('likes'),
        eb.fn.coalesce(eb.fn.sum<string>('comment_count'), eb.lit(0)).as('comments'),
      ])
      .where('creator_id', '=', claims.sub)
      .executeTakeFirstOrThrow()
    const recent = await tx
      .selectFrom('videos')
      .select([
        'id',
        'title',
        'type',
        'status',
        'is_public',
        'view_count',
        'like_count',
        'comment_count',
        'thumbnail_path',
        'created_at',
      ])
      .where('creator_id', '=', claims.sub)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RECENT_UPLOADS)
      .execute()
    return {
      stats: {
        totalVideos: Number(totals.videos),
        totalViews: Number(totals.views),
        totalLikes: Number(totals.likes),
        totalComments: Number(totals.comments),
      },
      recentUploads: recent.map((video) => ({
        id: video.id,
        title: video.title,
        type: video.type as RecentUpload['type'],
        status: video.status as RecentUpload['status'],
        isPublic: video.is_public,
        views: Number(video.view_count),
        likes: video.like_count,
        comments: video.comment_count,
        thumbnailPath: video.thumbnail_path,
        createdAt: video.created_at,
      })),
    }
  })
}
