import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import { REPORT_STATUSES, USER_ROLES } from '~/lib/schemas/admin'
import { REPORT_CONTENT_TYPES } from '~/lib/schemas/report'

/**
 * The /api's shapes as zod schemas (the field names of docs/product.md, Data): the
 * OpenAPI document is generated from these (openapi.server.ts), the tests
 * validate every answer against them, and shapes.server.ts builds the
 * objects they describe. Request bodies are parsed with the domain's own
 * schemas (app/lib/schemas/*); the ones here add only the API's spelling.
 */
extendZodWithOpenApi(z)

const id = z.string().uuid().openapi({ description: 'A uuid', example: '3f1c2a7e-9b1d-4c55-8f0e-0d6f3b2a1c9e' })
const timestamp = z.string().openapi({ description: 'ISO 8601 date and time' })

export const ErrorSchema = z
  .object({ error: z.string(), fieldErrors: z.record(z.string()).optional(), message: z.string().optional() })
  .openapi('Error', { description: "A refusal: `error` is the spec's message; `fieldErrors` names the fields at fault" })

export const MessageSchema = z.object({ message: z.string() }).openapi('Message')

export const PersonSchema = z
  .object({ _id: id, username: z.string(), profilePicture: z.string().nullable() })
  .openapi('Person', { description: 'A user as others see them on a card' })

export const CreatorCategorySchema = z
  .object({ id: z.string(), name: z.string(), status: z.enum(['pending', 'approved', 'rejected']) })
  .openapi('CreatorCategory')

export const UserSchema = z
  .object({
    _id: id,
    username: z.string(),
    email: z.string().optional().openapi({ description: 'Only in your own user object and to admins' }),
    role: z.enum(USER_ROLES),
    bio: z.string(),
    profilePicture: z.string().nullable(),
    isVerified: z.boolean(),
    creatorCategories: z.array(CreatorCategorySchema),
    creatorCategory: z.string().nullable(),
    fieldOfInterest: z.string().nullable(),
    concentration: z.string().nullable(),
    interests: z.array(z.string()),
    portfolio: z.object({ path: z.string() }).nullable().optional().openapi({ description: 'Only in your own user object' }),
    createdAt: timestamp,
  })
  .openapi('User', { description: 'Never carries a password or hash; another user’s object never carries their email' })

export const AuthSchema = z
  .object({ token: z.string(), refreshToken: z.string(), expiresAt: z.number().int().nullable(), user: UserSchema })
  .openapi('Auth', { description: 'Send `token` as `Authorization: Bearer <token>`; refresh through /auth/v1/token' })

export const LessonLinkSchema = z
  .object({
    _id: id,
    title: z.string(),
    at: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({ description: 'Where the lesson opens, in whole seconds; null for its start' }),
    url: z.string().openapi({ description: 'The lesson page at that moment (a path with `?t=`)' }),
  })
  .openapi('LessonLink', { description: 'The long-form video a spark leads to (“Watch the full lesson”, ADR 0050)' })

export const VideoSchema = z
  .object({
    _id: id,
    id,
    title: z.string(),
    description: z.string(),
    category: z.string().openapi({ description: "The category's name from the fixed list, e.g. 'Natural Sciences - Physics'" }),
    categoryId: z.string().openapi({ description: "The category's slug, e.g. 'natural-sciences-physics'" }),
    categoryName: z.string().openapi({ description: 'The same as `category`' }),
    type: z.enum(['video', 'spark']),
    isSpark: z.boolean(),
    isPublic: z.boolean(),
    status: z.enum(['uploading', 'processing', 'ready', 'failed']),
    url: z.string().nullable(),
    videoUrl: z.string().nullable(),
    hlsUrl: z.string().nullable(),
    thumbnail: z.string().nullable(),
    thumbnailUrl: z.string().nullable(),
    contentType: z.string(),
    isCloudinaryHosted: z.boolean(),
    creator: PersonSchema,
    likes: z.number().int(),
    hasLiked: z.boolean(),
    views: z.number().int(),
    durationSeconds: z.number().nullable(),
    createdAt: timestamp,
    uploadDate: timestamp,
    lesson: LessonLinkSchema.nullable().optional().openapi({
      description:
        'In GET and PUT /videos/{id}: a spark’s lesson when you can see it (null when it has none, or its lesson is hidden from you)',
    }),
  })
  .openapi('Video', { description: 'A video or spark' })

export const VideoListSchema = z.array(VideoSchema).openapi('VideoList')

export const FeedReasonSchema = z
  .object({
    kind: z.enum(['follow', 'interest', 'new', 'discovery', 'popular', 'watched']),
    text: z.string().openapi({ description: "One line, e.g. 'Because you follow maya.creates', 'Popular in Physics', 'New'" }),
  })
  .openapi('FeedReason', { description: 'Why a clip is in your For You or Following feed' })

export const ShortsListSchema = z
  .array(VideoSchema.extend({ reason: FeedReasonSchema.optional().openapi({ description: 'With `feed=` only' }) }))
  .openapi('ShortsList')

export const NotInterestedSchema = z
  .object({
    videoId: z.string(),
    creatorId: z
      .string()
      .nullable()
      .openapi({ description: 'The creator whose clips also go down (with `creator: true`), else null' }),
  })
  .openapi('NotInterested')

export const WatchPositionSchema = z
  .object({
    position: z.number().openapi({ description: 'Seconds into the video' }),
    duration: z.number().nullable(),
    finished: z.boolean().openapi({ description: 'Watched past 95 %' }),
    updatedAt: timestamp,
  })
  .openapi('WatchPosition', { description: 'Where you are in a video (private to you)' })

export const PositionBody = z
  .object({
    position: z.number().min(0).openapi({ description: 'Seconds into the video' }),
    duration: z.number().positive().optional().openapi({ description: 'Only used when the video has no length on record' }),
  })
  .openapi('PositionBody')

export const HistoryListSchema = z
  .array(VideoSchema.extend({ progress: WatchPositionSchema }))
  .openapi('History', { description: 'Videos you watched, latest first, each with your position' })

export const LikeStateSchema = z.object({ likes: z.number().int(), hasLiked: z.boolean() }).openapi('LikeState')

export const CommentSchema = z.object({ _id: id, text: z.string(), user: PersonSchema, createdAt: timestamp }).openapi('Comment')

export const ReportSchema = z
  .object({
    _id: id,
    contentId: id,
    contentType: z.enum(REPORT_CONTENT_TYPES),
    reason: z.string(),
    details: z.string(),
    reportedBy: z.object({ username: z.string().nullable() }),
    status: z.enum(REPORT_STATUSES),
    createdAt: timestamp,
  })
  .openapi('Report')

export const FeedbackSchema = z
  .object({
    _id: id,
    liked: z.enum(['yes', 'no']),
    usage: z.string(),
    recommendations: z.string(),
    user: z.object({ _id: id, username: z.string().nullable() }),
    createdAt: timestamp,
  })
  .openapi('Feedback')

export const CreatorApplicationSchema = z
  .object({
    _id: id,
    user: z.object({
      _id: id,
      username: z.string(),
      email: z.string().nullable(),
      bio: z.string(),
      fieldOfInterest: z.string().nullable(),
      concentration: z.string().nullable(),
      creatorCategories: z.array(CreatorCategorySchema),
    }),
    portfolio: z.object({
      available: z.boolean(),
      type: z.enum(['video', 'image', 'document']).nullable(),
      path: z.string().nullable(),
    }),
    status: z.literal('pending'),
    createdAt: timestamp,
  })
  .openapi('CreatorApplication')

export const AdminUserSchema = z
  .object({
    _id: id,
    username: z.string(),
    email: z.string(),
    role: z.enum(USER_ROLES),
    isVerified: z.boolean(),
    videoCount: z.number().int(),
    isCurrentUser: z.boolean(),
    createdAt: timestamp,
  })
  .openapi('AdminUser')

// Request bodies (the API's spelling; the domain schemas check the values) ---------------------------

export const LoginBody = z.object({ email: z.string(), password: z.string() }).openapi('LoginBody')
export const SignupBody = z
  .object({
    username: z.string(),
    email: z.string(),
    password: z.string(),
    role: z.enum(['user', 'creator']).optional().openapi({ description: "'admin' is never accepted" }),
    bio: z.string().optional(),
    creatorCategories: z.array(z.object({ name: z.string() })).optional(),
    fieldOfInterest: z.string().optional(),
    concentration: z.string().optional(),
  })
  .openapi('SignupBody')
export const EmailBody = z.object({ email: z.string() }).openapi('EmailBody')
export const CommentBody = z.object({ text: z.string() }).openapi('CommentBody')
export const ReportBody = z
  .object({ contentId: z.string(), contentType: z.enum(REPORT_CONTENT_TYPES), reason: z.string() })
  .openapi('ReportBody', {
    description: '`reason`: one of inappropriate, copyright, misinformation, harmful, spam, other — or free text',
  })
export const ReportStatusBody = z.object({ status: z.enum(REPORT_STATUSES) }).openapi('ReportStatusBody')
export const FeedbackBody = z
  .object({ liked: z.enum(['yes', 'no']), usage: z.string(), recommendations: z.string() })
  .openapi('FeedbackBody')
export const ReviewBody = z.object({ approved: z.boolean(), reviewNotes: z.string().optional() }).openapi('ReviewBody')
export const AddUserBody = z
  .object({ username: z.string(), email: z.string(), password: z.string(), role: z.enum(USER_ROLES) })
  .openapi('AddUserBody')
export const UploadBody = z
  .object({
    videoFile: z.string().openapi({ format: 'binary', description: 'The video (up to 100 MB)' }),
    thumbnailFile: z.string().openapi({ format: 'binary', description: 'An image (up to 5 MB)' }),
    title: z.string().optional().openapi({ description: "Default 'Untitled'" }),
    description: z.string(),
    category: z
      .string()
      .optional()
      .openapi({ description: "A category's name (or slug) from the fixed list; default 'other'; an unknown one is 400" }),
    type: z.enum(['video', 'spark']).optional(),
    isSpark: z.enum(['true', 'false']).optional(),
    isPublic: z.enum(['true', 'false']).optional(),
    lessonId: z.string().optional().openapi({ description: 'A spark only: one of your long-form videos it leads to (ADR 0050)' }),
    lessonAt: z
      .string()
      .optional()
      .openapi({ description: 'Where that lesson opens: "3:12", "1:02:03" or seconds; empty for its start' }),
  })
  .openapi('UploadBody')

export const VideoQuery = z.object({
  type: z.enum(['feed', 'video', 'spark']).optional(),
  isSpark: z.enum(['true', 'false']).optional(),
  category: z.string().optional().openapi({
    description: "A category's name (or slug) from the fixed list; an unknown one is 400 with `fieldErrors.category`",
  }),
  search: z.string().optional(),
  page: z.string().optional().openapi({ description: '1-based page number' }),
  limit: z.string().optional().openapi({ description: 'Items per page (1–50, default 12)' }),
})

// Users, follows, the dashboard and quotes ---------------------------------------------------

export const PublicUserSchema = z
  .object({
    _id: id,
    username: z.string(),
    role: z.enum(USER_ROLES),
    bio: z.string(),
    profilePicture: z.string().nullable(),
    isVerified: z.boolean(),
    videoCount: z.number().int().openapi({ description: 'Public, ready videos and sparks' }),
    isFollowed: z.boolean().openapi({ description: 'Whether you follow them (false signed out)' }),
    isSelf: z.boolean(),
    createdAt: timestamp.optional(),
  })
  .openapi('PublicUser', { description: 'Another user as anyone may see them: never an email or a private field' })

export const CreatorProfileSchema = PublicUserSchema.extend({
  followers: z.number().int(),
  following: z.number().int(),
  createdAt: timestamp,
}).openapi('CreatorProfile')

export const UserStatsSchema = z
  .object({ followers: z.number().int(), following: z.number().int(), videos: z.number().int() })
  .openapi('UserStats', { description: 'A user’s followers, following and videos counts' })

export const FollowingSchema = z
  .object({ _id: id, username: z.string(), role: z.enum(USER_ROLES), bio: z.string(), profilePicture: z.string().nullable() })
  .openapi('FollowedCreator')

export const FollowStateSchema = z
  .object({ isFollowing: z.boolean(), isFollowed: z.boolean(), followers: z.number().int() })
  .openapi('FollowState', { description: '`isFollowing` and `isFollowed` say the same (clients read both)' })

const dailyCount = z.object({ date: z.string().openapi({ description: 'YYYY-MM-DD' }), count: z.number().int() })

export const DashboardStatsSchema = z
  .object({
    totalVideos: z.number().int(),
    totalViews: z.number().int(),
    totalLikes: z.number().int(),
    totalComments: z.number().int(),
    avgViewsPerVideo: z.number(),
    avgLikesPerVideo: z.number(),
    avgCommentsPerVideo: z.number(),
    videosByCategory: z.array(z.object({ category: z.string(), name: z.string(), videos: z.number().int(), views: z.number() })),
    mostPopularCategory: z.string().nullable(),
    viewsOverTime: z.array(dailyCount).openapi({ description: 'One point a day, 7 by default (`days`: 7, 28 or 90)' }),
    likesOverTime: z.array(dailyCount),
    recentUploads: z.array(
      z.object({
        _id: id,
        title: z.string(),
        type: z.enum(['video', 'spark']),
        isSpark: z.boolean(),
        isPublic: z.boolean(),
        status: z.enum(['uploading', 'processing', 'ready', 'failed']),
        views: z.number().int(),
        likes: z.number().int(),
        comments: z.number().int(),
        thumbnailUrl: z.string().nullable(),
        createdAt: timestamp,
      }),
    ),
    totalWatchSeconds: z.number(),
    change: z.object({ videos: z.number().int(), views: z.number().int(), likes: z.number().int(), comments: z.number().int() }),
    timeZone: z.string(),
    days: z.number().int(),
  })
  .openapi('DashboardStats', { description: 'The dashboard stats (and the last 7 days’ change, watch time)' })

export const QuoteSchema = z
  .object({
    _id: id,
    text: z.string(),
    type: z.enum(['text', 'video']),
    moment: z.number().nullable().openapi({ description: 'Seconds into the original the quote is about' }),
    originalVideo: z.object({
      _id: id,
      title: z.string(),
      thumbnailUrl: z.string().nullable(),
      creator: z.object({ _id: id, username: z.string() }),
    }),
    responseVideo: z
      .object({
        status: z.enum(['processing', 'ready', 'failed']),
        videoUrl: z.string().nullable(),
        hlsUrl: z.string().nullable(),
        thumbnailUrl: z.string().nullable(),
      })
      .nullable(),
    isCloudinaryHosted: z.boolean(),
    likes: z.number().int(),
    hasLiked: z.boolean(),
    canDelete: z.boolean(),
    creator: PersonSchema,
    createdAt: timestamp,
  })
  .openapi('Quote')

export const ProfileBody = z
  .object({
    username: z.string(),
    bio: z.string().optional(),
    categories: z
      .string()
      .optional()
      .openapi({ description: 'Creators: a JSON list of category names or ids, e.g. ["Media"]; new ones await review' }),
    profilePicture: z.string().optional().openapi({ format: 'binary', description: 'An image (up to 5 MB)' }),
    portfolioFile: z.string().optional().openapi({ format: 'binary', description: 'Creators: a new portfolio' }),
    portfolioType: z
      .enum(['video', 'image', 'document'])
      .optional()
      .openapi({ description: 'The portfolio’s kind; read from its content when left out' }),
    playbackRate: z
      .enum(['0.5', '0.75', '1', '1.25', '1.5', '1.75', '2'])
      .optional()
      .openapi({ description: 'The speed the players start at (ADR 0043)' }),
    captionsOn: z.enum(['true', 'false']).optional().openapi({ description: 'Captions on by default in the players' }),
  })
  .openapi('ProfileBody')

export const QuoteUploadBody = z
  .object({
    originalVideoId: z.string(),
    quoteType: z.enum(['text', 'video']).optional().openapi({ description: "Default 'text'" }),
    text: z.string().optional().openapi({ description: 'Required for a text quote' }),
    moment: z.string().optional().openapi({ description: 'Seconds into the original' }),
    videoFile: z.string().optional().openapi({ format: 'binary', description: 'A video quote’s response (up to 100 MB)' }),
  })
  .openapi('QuoteUploadBody')

export const LikeBody = z.object({ like: z.boolean().optional() }).openapi('LikeBody')
export const FollowBody = z.object({ follow: z.boolean().optional() }).openapi('FollowBody')
