import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import type {
  CategoryFigure,
  DailyPoint,
  DashboardStats,
  DashboardVideo,
  PlatformDay,
  RecentUpload,
  VideoInsight,
} from '~/lib/dashboard-types'
import { DASHBOARD_MESSAGES, DEFAULT_RANGE, timeZoneSchema, type VideoSort } from '~/lib/schemas/dashboard'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError } from './errors.server'
import { allowed } from './permissions.server'

/**
 * The creator dashboard's figures (docs/product.md, Data: Dashboard stats; ADR
 * 0015), read as the caller through row-level security: a creator reads the
 * analytics of their own videos, an admin anyone's. Daily figures come from
 * the roll-ups Postgres keeps (`creator_activity`, `video_activity`,
 * `video_stats`, ADR 0015), in the creator's time zone, zero-filled, so a
 * creator with a million views costs what an empty one does.
 *
 * No HTTP here: the page and the JSON API (`/api/users/:id/dashboard-stats`)
 * shape the same `DashboardStats`.
 */

export type { DashboardStats, DashboardVideo, RecentUpload, VideoInsight } from '~/lib/dashboard-types'

const RECENT_UPLOADS = 12
const VIDEO_LIST = 50
const CHANGE_DAYS = 7

/** The creator's figures: totals with their change over 7 days, averages, categories and `days` daily points. */
export async function dashboardStats(
  claims: JwtClaims,
  creatorId: string,
  options: { days?: number } = {},
): Promise<DashboardStats> {
  const days = options.days ?? DEFAULT_RANGE
  return asCaller(claims, async (tx) => {
    await mayRead(tx, claims, creatorId)
    const timeZone = await timeZoneOf(tx, creatorId)
    const totals = await sql<{
      videos: number
      views: string
      likes: string
      comments: string
      new_videos: number
      watch: number
    }>`
      select count(*)::int as videos,
             coalesce(sum(v.view_count), 0)::text as views,
             coalesce(sum(v.like_count), 0)::text as likes,
             coalesce(sum(v.comment_count), 0)::text as comments,
             (count(*) filter (where v.created_at >= now() - make_interval(days => ${CHANGE_DAYS})))::int as new_videos,
             coalesce((select sum(s.watch_seconds) from public.video_stats s join public.videos w on w.id = s.video_id
                        where w.creator_id = ${creatorId}), 0)::float8 as watch
        from public.videos v
       where v.creator_id = ${creatorId}`.execute(tx)
    const recent = await sql<{ views: number; likes: number; comments: number }>`
      select coalesce(sum(a.views), 0)::int as views, coalesce(sum(a.likes), 0)::int as likes, coalesce(sum(a.comments), 0)::int as comments
        from public.creator_activity a
       where a.creator_id = ${creatorId} and a.bucket >= now() - make_interval(days => ${CHANGE_DAYS})`.execute(tx)
    const categories = await sql<{ id: string; name: string; videos: number; views: string }>`
      select v.category_id as id, c.name, count(*)::int as videos, coalesce(sum(v.view_count), 0)::text as views
        from public.videos v join public.categories c on c.id = v.category_id
       where v.creator_id = ${creatorId}
       group by v.category_id, c.name, c.position
       order by sum(v.view_count) desc, count(*) desc, c.position`.execute(tx)
    const daily = await dailyPoints(tx, sql`public.creator_activity a where a.creator_id = ${creatorId}`, timeZone, days)

    const t = totals.rows[0]!
    const totalVideos = t.videos
    const totalViews = Number(t.views)
    const totalLikes = Number(t.likes)
    const totalComments = Number(t.comments)
    const per = (value: number, of: number, scale = 1) => (of > 0 ? round((value / of) * scale) : 0)
    const videosByCategory: CategoryFigure[] = categories.rows.map((row) => ({
      category: row.id,
      name: row.name,
      videos: row.videos,
      views: Number(row.views),
    }))
    return {
      totalVideos,
      totalViews,
      totalLikes,
      totalComments,
      change: { videos: t.new_videos, ...recent.rows[0]! },
      totalWatchSeconds: round(t.watch),
      avgViewsPerVideo: per(totalViews, totalVideos),
      avgLikesPerVideo: per(totalLikes, totalVideos),
      avgCommentsPerVideo: per(totalComments, totalVideos),
      likesPer100Views: per(totalLikes, totalViews, 100),
      commentsPer100Views: per(totalComments, totalViews, 100),
      videosByCategory,
      mostPopularCategory: videosByCategory[0]?.name ?? null,
      viewsOverTime: daily.map((point) => ({ date: point.date, count: point.views })),
      likesOverTime: daily.map((point) => ({ date: point.date, count: point.likes })),
      daily,
      timeZone,
      days,
    }
  })
}

/** The creator's videos with their figures, sorted (Videos tab). */
export async function dashboardVideos(
  claims: JwtClaims,
  creatorId: string,
  sort: VideoSort = 'views',
): Promise<DashboardVideo[]> {
  const order = {
    views: sql`v.view_count desc`,
    likes: sql`v.like_count desc`,
    comments: sql`v.comment_count desc`,
    watch: sql`watch desc`,
    retention: sql`avg_share desc nulls last`,
    newest: sql`v.created_at desc`,
  }[sort]
  return asCaller(claims, async (tx) => {
    await mayRead(tx, claims, creatorId)
    const { rows } = await sql<{
      id: string
      title: string
      type: 'video' | 'spark'
      status: RecentUpload['status']
      created_at: string
      view_count: string
      like_count: number
      comment_count: number
      watch: number
      plays: number
      avg_share: number | null
    }>`
      select v.id, v.title, v.type, v.status, v.created_at, v.view_count::text, v.like_count, v.comment_count,
             coalesce(s.watch_seconds, 0)::float8 as watch, coalesce(s.plays, 0) as plays,
             case when s.plays > 0 and v.duration_seconds > 0
                  then least(1, s.watch_seconds / (s.plays * v.duration_seconds))::float8 end as avg_share
        from public.videos v left join public.video_stats s on s.video_id = v.id
       where v.creator_id = ${creatorId}
       order by ${order}, v.created_at desc, v.id
       limit ${VIDEO_LIST}`.execute(tx)
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      type: row.type,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
      views: Number(row.view_count),
      likes: row.like_count,
      comments: row.comment_count,
      watchSeconds: round(row.watch),
      plays: row.plays,
      avgShareWatched: row.avg_share === null ? null : round(row.avg_share, 3),
    }))
  })
}

/** One video's insight: views and likes per day, watch time and the audience retention curve. Owner or admin. */
export async function videoInsight(claims: JwtClaims, videoId: string, options: { days?: number } = {}): Promise<VideoInsight> {
  const days = options.days ?? DEFAULT_RANGE
  if (!isUuid(videoId)) throw new DomainError('not_found', DASHBOARD_MESSAGES.videoNotFound)
  return asCaller(claims, async (tx) => {
    const video = await tx
      .selectFrom('videos')
      .select([
        'id',
        'title',
        'type',
        'creator_id',
        'duration_seconds',
        'view_count',
        'like_count',
        'comment_count',
        'created_at',
      ])
      .where('id', '=', videoId)
      .executeTakeFirst()
    if (!video) throw new DomainError('not_found', DASHBOARD_MESSAGES.videoNotFound)
    await mayRead(tx, claims, video.creator_id)
    const timeZone = await timeZoneOf(tx, video.creator_id)
    const daily = await dailyPoints(tx, sql`public.video_activity a where a.video_id = ${videoId}`, timeZone, days)
    const stats = await tx
      .selectFrom('video_stats')
      .select(['plays', 'watch_seconds', 'tenths'])
      .where('video_id', '=', videoId)
      .executeTakeFirst()
    const plays = stats?.plays ?? 0
    const tenths = (stats?.tenths ?? []) as number[]
    return {
      id: video.id,
      title: video.title,
      type: video.type as VideoInsight['type'],
      createdAt: new Date(video.created_at).toISOString(),
      durationSeconds: video.duration_seconds === null ? null : Number(video.duration_seconds),
      views: Number(video.view_count),
      likes: video.like_count,
      comments: video.comment_count,
      plays,
      watchSeconds: round(Number(stats?.watch_seconds ?? 0)),
      retention: Array.from({ length: 10 }, (_, k) => ({
        tenth: k,
        share: plays > 0 ? round(Math.min(1, (tenths[k] ?? 0) / plays), 3) : 0,
      })),
      daily,
      timeZone,
      days,
    }
  })
}

/**
 * Your Content: the caller's latest uploads with their status (and, when
 * failed, the reason — theirs to read). An admin may name another creator
 * (the JSON API's dashboard-stats); anyone else only themself.
 */
export async function recentUploads(claims: JwtClaims, creatorId: string = claims.sub): Promise<RecentUpload[]> {
  return asCaller(claims, async (tx) => {
    await mayRead(tx, claims, creatorId)
    const rows = await tx
      .selectFrom('videos')
      .select((eb) => [
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
        'more_qualities_pending',
        sql<string | null>`case when ${eb.ref('status')} = 'failed' then public.video_status_message(${eb.ref('id')}) end`.as(
          'status_message',
        ),
      ])
      .where('creator_id', '=', creatorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RECENT_UPLOADS)
      .execute()
    return rows.map((video) => ({
      id: video.id,
      title: video.title,
      type: video.type as RecentUpload['type'],
      status: video.status as RecentUpload['status'],
      statusMessage: video.status_message,
      moreQualitiesPending: video.more_qualities_pending,
      isPublic: video.is_public,
      views: Number(video.view_count),
      likes: video.like_count,
      comments: video.comment_count,
      thumbnailPath: video.thumbnail_path,
      createdAt: new Date(video.created_at).toISOString(),
    }))
  })
}

/** An admin's platform overview: new users, uploads and views per day, in the admin's time zone. */
export async function platformOverview(
  claims: JwtClaims,
  options: { days?: number } = {},
): Promise<{ daily: PlatformDay[]; timeZone: string; days: number }> {
  const days = options.days ?? DEFAULT_RANGE
  return asCaller(claims, async (tx) => {
    if (!(await allowed(tx, sql<boolean>`public.is_admin()`))) throw new DomainError('forbidden', DASHBOARD_MESSAGES.notYours)
    const timeZone = await timeZoneOf(tx, claims.sub)
    const { rows } = await sql<{ date: string; users: number; uploads: number; views: number }>`
      with range as (
        select first_day, last_day, (first_day::timestamp at time zone ${timeZone}) as starts, ((last_day + 1)::timestamp at time zone ${timeZone}) as ends
          from (select (now() at time zone ${timeZone})::date - ${days - 1}::int as first_day, (now() at time zone ${timeZone})::date as last_day) r
      ),
      users as (
        select (p.created_at at time zone ${timeZone})::date as day, count(*) as n from public.profiles p, range
         where p.created_at >= range.starts and p.created_at < range.ends group by 1
      ),
      uploads as (
        select (v.created_at at time zone ${timeZone})::date as day, count(*) as n from public.videos v, range
         where v.created_at >= range.starts and v.created_at < range.ends group by 1
      ),
      views as (
        select (a.bucket at time zone ${timeZone})::date as day, sum(a.views) as n from public.creator_activity a, range
         where a.bucket >= range.starts and a.bucket < range.ends group by 1
      )
      select to_char(d::date, 'YYYY-MM-DD') as date, coalesce(users.n, 0)::int as users,
             coalesce(uploads.n, 0)::int as uploads, coalesce(views.n, 0)::int as views
        from range, generate_series(range.first_day, range.last_day, interval '1 day') d
        left join users on users.day = d::date
        left join uploads on uploads.day = d::date
        left join views on views.day = d::date
       order by d`.execute(tx)
    return { daily: rows, timeZone, days }
  })
}

/** Sets the caller's time zone (the dashboard's days). Throws invalid for a zone Postgres does not know. */
export async function setTimeZone(claims: JwtClaims, timeZone: unknown): Promise<string> {
  const parsed = timeZoneSchema.safeParse(timeZone)
  if (!parsed.success) throw new DomainError('invalid', DASHBOARD_MESSAGES.badTimeZone)
  try {
    await asCaller(claims, (tx) =>
      tx.updateTable('profiles').set({ time_zone: parsed.data }).where('id', '=', claims.sub).execute(),
    )
  } catch (error) {
    if ((error as { code?: string }).code === '22023') throw new DomainError('invalid', DASHBOARD_MESSAGES.badTimeZone)
    throw error
  }
  return parsed.data
}

// Helpers ------------------------------------------------------------------------------

/** A creator reads their own analytics; an admin anyone's (as Postgres judges it); an unknown user is 404. */
async function mayRead(tx: Tx, claims: JwtClaims, creatorId: string): Promise<void> {
  if (!isUuid(creatorId)) throw new DomainError('not_found', DASHBOARD_MESSAGES.noUser)
  if (creatorId === claims.sub) return
  if (!(await allowed(tx, sql<boolean>`public.is_admin()`))) throw new DomainError('forbidden', DASHBOARD_MESSAGES.notYours)
  const known = await tx.selectFrom('profiles').select('id').where('id', '=', creatorId).executeTakeFirst()
  if (!known) throw new DomainError('not_found', DASHBOARD_MESSAGES.noUser)
}

/** The user's dashboard time zone: private, so read through `public.profile_time_zone` (oneself or an admin). */
async function timeZoneOf(tx: Tx, userId: string): Promise<string> {
  const { rows } = await sql<{ zone: string | null }>`select public.profile_time_zone(${userId}::uuid) as zone`.execute(tx)
  return rows[0]?.zone ?? 'UTC'
}

/** `days` zero-filled daily sums of a roll-up (`<table> a where <filter>`), the days being the time zone's. */
async function dailyPoints(tx: Tx, rollUp: ReturnType<typeof sql>, timeZone: string, days: number): Promise<DailyPoint[]> {
  // The buckets of the range are summed by their local day in one pass (a join on each day's bounds
  // compared every bucket with every day: a second for 90 days of a busy creator), then zero-filled.
  const { rows } = await sql<{ date: string; views: number; likes: number; comments: number; watch: number }>`
    with range as (
      select (now() at time zone ${timeZone})::date - ${days - 1}::int as first_day, (now() at time zone ${timeZone})::date as last_day
    ),
    activity as (
      select (a.bucket at time zone ${timeZone})::date as day,
             sum(a.views) as views, sum(a.likes) as likes, sum(a.comments) as comments, sum(a.watch_seconds) as watch
        from ${rollUp}
         and a.bucket >= ((select first_day from range)::timestamp at time zone ${timeZone})
         and a.bucket < (((select last_day from range) + 1)::timestamp at time zone ${timeZone})
       group by 1
    )
    select to_char(d::date, 'YYYY-MM-DD') as date,
           coalesce(activity.views, 0)::int as views, coalesce(activity.likes, 0)::int as likes,
           coalesce(activity.comments, 0)::int as comments, coalesce(activity.watch, 0)::float8 as watch
      from range, generate_series(range.first_day, range.last_day, interval '1 day') d
      left join activity on activity.day = d::date
     order by d`.execute(tx)
  return rows.map((row) => ({
    date: row.date,
    views: row.views,
    likes: row.likes,
    comments: row.comments,
    watchSeconds: round(row.watch),
  }))
}

function round(value: number, digits = 2): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}
