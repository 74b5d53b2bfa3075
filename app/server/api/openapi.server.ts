import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi'
import { z, type ZodTypeAny } from 'zod'
import {
  AddUserBody,
  AdminUserSchema,
  AuthSchema,
  CommentBody,
  CommentSchema,
  CreatorApplicationSchema,
  EmailBody,
  ErrorSchema,
  FeedbackBody,
  FeedbackSchema,
  LikeStateSchema,
  LoginBody,
  MessageSchema,
  ReportBody,
  ReportSchema,
  ReportStatusBody,
  ReviewBody,
  SignupBody,
  CreatorProfileSchema,
  DashboardStatsSchema,
  FollowBody,
  FollowingSchema,
  FollowStateSchema,
  LikeBody,
  ProfileBody,
  PublicUserSchema,
  QuoteSchema,
  QuoteUploadBody,
  UserStatsSchema,
  UploadBody,
  UserSchema,
  VideoListSchema,
  ShortsListSchema,
  NotInterestedSchema,
  VideoQuery,
  VideoSchema,
  HistoryListSchema,
  PositionBody,
  WatchPositionSchema,
} from './schemas.server'
import { CHECKPOINT_ENDPOINTS } from './checkpoints.server'
import { NOTE_ENDPOINTS } from './notes.server'
import { COURSE_ENDPOINTS } from './courses.server'
import { SPARK_LESSON_ENDPOINTS } from './spark-lessons.server'
import { LEARNING_ENDPOINTS } from './learning.server'
import { NOTIFICATION_ENDPOINTS } from './notifications.server'
import { ChaptersBody, ChaptersSchema, VideoEditBody } from './chapters.server'
import { PlayerPreferencesSchema, PROFILE_PREFERENCE_ENDPOINTS } from './preferences.server'

/**
 * Every /api call (docs/product.md, The JSON API) in one table: method, path, who may call,
 * what it takes and what it answers. The OpenAPI 3.1 document at
 * /api/openapi.json is generated from this table and the zod schemas
 * (nothing is written by hand), and tests/integration/api-contract.test.ts
 * fails when a route file and this table disagree, or when an answer does
 * not match its schema.
 */
export type EndpointMethod = 'get' | 'head' | 'post' | 'put' | 'delete'

/** none: no token needed; optional: a token changes the answer; bearer: signed in; admin: an admin. */
export type Access = 'none' | 'optional' | 'bearer' | 'admin'

export interface Endpoint {
  method: EndpointMethod
  /** OpenAPI style, under /api: `/videos/{id}`. */
  path: string
  summary: string
  tag: string
  access: Access
  query?: z.AnyZodObject
  body?: ZodTypeAny
  multipart?: ZodTypeAny
  ok: { status: number; schema?: ZodTypeAny; description: string; binary?: string }
  /** The refusals it can answer (besides 429 and 500). */
  errors: number[]
}

const id = z.object({ id: z.string().openapi({ description: 'A uuid (anything else is 404)' }) })
const JSON_FAIL = [400, 401, 403, 404]

export const ENDPOINTS: Endpoint[] = [
  // Authentication
  {
    method: 'get',
    path: '/auth/me',
    tag: 'Auth',
    access: 'bearer',
    summary: 'The signed-in user (with creatorCategories)',
    ok: { status: 200, schema: UserSchema, description: 'Your user object' },
    errors: [401],
  },
  {
    method: 'post',
    path: '/auth/login',
    tag: 'Auth',
    access: 'none',
    summary: 'Sign in with email and password',
    body: LoginBody,
    ok: { status: 200, schema: AuthSchema, description: 'The token and user' },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/auth/signup',
    tag: 'Auth',
    access: 'none',
    summary: 'Create an account (a learner, or a creator waiting for review); never an admin',
    body: SignupBody,
    ok: { status: 201, schema: AuthSchema, description: 'The token and user' },
    errors: [400, 409],
  },
  {
    method: 'post',
    path: '/auth/forgot-password',
    tag: 'Auth',
    access: 'none',
    summary: 'Email a password-reset link',
    body: EmailBody,
    ok: { status: 200, schema: MessageSchema, description: 'Sent (the same answer for unknown addresses)' },
    errors: [400],
  },
  {
    method: 'post',
    path: '/auth/check-email',
    tag: 'Auth',
    access: 'none',
    summary: 'Whether an email has an account (throttled per address)',
    query: z.object({ email: z.string() }),
    ok: { status: 200, schema: z.object({ exists: z.boolean() }), description: 'The answer' },
    errors: [400],
  },
  // Videos
  {
    method: 'get',
    path: '/videos',
    tag: 'Videos',
    access: 'optional',
    summary: 'Ready videos (type=feed|video) or sparks (type=spark), newest first',
    query: VideoQuery,
    ok: { status: 200, schema: VideoListSchema, description: 'One page' },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/videos/shorts',
    tag: 'Videos',
    access: 'optional',
    summary:
      'Sparks. With `feed=for-you|following` (`cursor`, `limit`): the reel viewer’s order, each with its `reason` (ADR 0045); without: newest first (page, limit, category, search as for /videos)',
    query: VideoQuery.extend({
      feed: z
        .enum(['for-you', 'following'])
        .optional()
        .openapi({ description: 'A ranked feed; `page`, `category` and `search` are then ignored' }),
      cursor: z.string().optional().openapi({ description: 'With `feed`: the X-Next-Cursor of the previous page' }),
    }),
    ok: {
      status: 200,
      schema: ShortsListSchema,
      description: 'One page; with `feed`, the next page’s cursor is in the `X-Next-Cursor` header',
    },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/videos/{id}/not-interested',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Not interested: the clip (and with `{ "creator": true }` its creator’s clips) goes down in your For You',
    body: z.object({ creator: z.boolean().optional() }),
    ok: { status: 200, schema: NotInterestedSchema, description: 'What was recorded' },
    errors: [400, 401, 404],
  },
  {
    method: 'post',
    path: '/videos/upload-cloudinary',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Upload a video or spark (verified creators and admins); streamed, up to 30 minutes',
    multipart: UploadBody,
    ok: { status: 201, schema: VideoSchema, description: 'The new video (processing)' },
    errors: [400, 401, 403, 413, 415],
  },
  {
    method: 'get',
    path: '/videos/creator/{id}',
    tag: 'Videos',
    access: 'optional',
    summary: "A creator's videos and sparks",
    ok: { status: 200, schema: VideoListSchema, description: 'Newest first' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/videos/{id}',
    tag: 'Videos',
    access: 'optional',
    summary: 'One video',
    ok: { status: 200, schema: VideoSchema, description: 'The video' },
    errors: [401, 404],
  },
  {
    method: 'delete',
    path: '/videos/{id}',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Delete a video (its owner or an admin) and all its files',
    ok: { status: 200, schema: MessageSchema, description: "'video deleted successfully'" },
    errors: [401, 403, 404],
  },
  {
    method: 'put',
    path: '/videos/{id}',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Edit a video (its owner or an admin): title, description, category and, when given, its chapters',
    body: VideoEditBody,
    ok: { status: 200, schema: VideoSchema, description: 'The video as edited' },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: '/videos/{id}/chapters',
    tag: 'Videos',
    access: 'optional',
    summary: 'The chapters of a video you can see',
    ok: { status: 200, schema: ChaptersSchema, description: 'Its chapters in time order (empty when it has none)' },
    errors: [401, 404],
  },
  {
    method: 'put',
    path: '/videos/{id}/chapters',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Replace the chapters of a video (its owner or an admin); an empty list removes them',
    body: ChaptersBody,
    ok: { status: 200, schema: ChaptersSchema, description: 'The chapters as saved' },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: '/videos/{id}/like',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Toggle your like (or set it: body `{ "like": true|false }`)',
    body: z.object({ like: z.boolean().optional() }),
    ok: { status: 200, schema: LikeStateSchema, description: 'The count and your like after the change' },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/videos/{id}/progress',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Where you left off in a video (`progress` null when you have not watched it)',
    ok: { status: 200, schema: z.object({ progress: WatchPositionSchema.nullable() }), description: 'Your position' },
    errors: [401, 404],
  },
  {
    method: 'put',
    path: '/videos/{id}/progress',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Save where you are in a video (the player does this while you watch); past 95 % it counts as finished',
    body: PositionBody,
    ok: { status: 200, schema: z.object({ progress: WatchPositionSchema }), description: 'Your position as saved' },
    errors: [400, 401, 404],
  },
  {
    method: 'post',
    path: '/videos/{id}/unlike',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Remove your like',
    ok: { status: 200, schema: LikeStateSchema, description: 'The count and your like after the change' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/videos/{id}/comments',
    tag: 'Videos',
    access: 'optional',
    summary: 'Comments, newest first',
    ok: { status: 200, schema: z.array(CommentSchema), description: 'Up to 100' },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/videos/{id}/comment',
    tag: 'Videos',
    access: 'bearer',
    summary: 'Add a comment',
    body: CommentBody,
    ok: { status: 201, schema: CommentSchema, description: 'The comment' },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/videos/{id}/stream',
    tag: 'Media',
    access: 'bearer',
    summary: 'The video file (MP4); Range requests answer 206',
    ok: { status: 200, description: 'The bytes', binary: 'video/mp4' },
    errors: [401, 404, 416],
  },
  {
    method: 'head',
    path: '/videos/{id}/stream',
    tag: 'Media',
    access: 'bearer',
    summary: 'Whether you may watch: 401, 404 or 200 (the video card’s check)',
    ok: { status: 200, description: 'Playable', binary: 'video/mp4' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/videos/{id}/thumbnail',
    tag: 'Media',
    access: 'optional',
    summary: 'The thumbnail (JPEG); Range supported',
    ok: { status: 200, description: 'The bytes', binary: 'image/jpeg' },
    errors: [401, 404],
  },
  {
    method: 'head',
    path: '/videos/{id}/thumbnail',
    tag: 'Media',
    access: 'optional',
    summary: 'Whether the thumbnail can be shown',
    ok: { status: 200, description: 'Present', binary: 'image/jpeg' },
    errors: [401, 404],
  },
  // Reports and feedback
  {
    method: 'post',
    path: '/reports',
    tag: 'Reports',
    access: 'bearer',
    summary: 'Report a video, quote or comment',
    body: ReportBody,
    ok: { status: 201, schema: MessageSchema, description: 'Stored (or already pending from you)' },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: '/reports/create',
    tag: 'Reports',
    access: 'bearer',
    summary: 'Report (the second variant of POST /reports)',
    body: ReportBody,
    ok: { status: 201, schema: MessageSchema, description: 'Stored' },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: '/reports',
    tag: 'Reports',
    access: 'bearer',
    summary: 'Reports: all for admins, your own for others',
    ok: { status: 200, schema: z.array(ReportSchema), description: 'Newest first' },
    errors: [401],
  },
  {
    method: 'put',
    path: '/reports/{id}',
    tag: 'Reports',
    access: 'admin',
    summary: "Decide a report (and the content's other open reports): reviewed, dismissed or removed",
    body: ReportStatusBody,
    ok: { status: 200, schema: MessageSchema, description: 'Decided' },
    errors: JSON_FAIL,
  },
  {
    method: 'post',
    path: '/feedback',
    tag: 'Feedback',
    access: 'bearer',
    summary: 'Send feedback (all fields required)',
    body: FeedbackBody,
    ok: { status: 201, schema: MessageSchema, description: "'Thank you for your feedback!'" },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/feedback',
    tag: 'Feedback',
    access: 'admin',
    summary: 'Read feedback (admins)',
    ok: { status: 200, schema: z.array(FeedbackSchema), description: 'Newest first' },
    errors: [401, 403],
  },
  // Admin
  {
    method: 'get',
    path: '/admin/test',
    tag: 'Admin',
    access: 'admin',
    summary: 'Whether the admin API answers you',
    ok: {
      status: 200,
      schema: MessageSchema.extend({ user: z.object({ _id: z.string(), username: z.string(), role: z.string() }) }),
      description: 'It does',
    },
    errors: [401, 403],
  },
  {
    method: 'get',
    path: '/admin/creator-applications',
    tag: 'Admin',
    access: 'admin',
    summary: 'Pending creator applications, oldest first',
    ok: { status: 200, schema: z.array(CreatorApplicationSchema), description: 'The list' },
    errors: [401, 403],
  },
  {
    method: 'put',
    path: '/admin/creator-applications/{id}',
    tag: 'Admin',
    access: 'admin',
    summary: 'Approve or reject an application',
    body: ReviewBody,
    ok: { status: 200, schema: MessageSchema.extend({ status: z.enum(['approved', 'rejected']) }), description: 'Reviewed' },
    errors: JSON_FAIL,
  },
  {
    method: 'get',
    path: '/admin/users',
    tag: 'Admin',
    access: 'admin',
    summary: 'Users, newest first (`search`, `cursor`)',
    query: z.object({ search: z.string().optional(), cursor: z.string().optional() }),
    ok: {
      status: 200,
      schema: z.array(AdminUserSchema),
      description: 'One page; the next page’s cursor is in the `X-Next-Cursor` header',
    },
    errors: [401, 403],
  },
  {
    method: 'post',
    path: '/admin/users',
    tag: 'Admin',
    access: 'admin',
    summary: 'Add a user who can sign in at once',
    body: AddUserBody,
    ok: {
      status: 201,
      schema: MessageSchema.extend({ user: AdminUserSchema.pick({ _id: true, username: true, email: true, role: true }) }),
      description: 'Added',
    },
    errors: [400, 401, 403, 409],
  },
  {
    method: 'delete',
    path: '/admin/users/{id}',
    tag: 'Admin',
    access: 'admin',
    summary: 'Delete a user and everything they own (never yourself)',
    ok: { status: 200, schema: MessageSchema, description: 'Deleted' },
    errors: [401, 403, 404],
  },
  {
    method: 'post',
    path: '/admin/fix-portfolios',
    tag: 'Admin',
    access: 'admin',
    summary: 'Reconcile portfolio records with stored files',
    ok: {
      status: 200,
      schema: z.object({ fixedCount: z.number().int(), message: z.string() }),
      description: 'How many were fixed',
    },
    errors: [401, 403],
  },
  // Quotes
  {
    method: 'get',
    path: '/quotes/video/{id}',
    tag: 'Quotes',
    access: 'optional',
    summary: "A video's quotes, newest first",
    ok: { status: 200, schema: z.array(QuoteSchema), description: 'Up to 100' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/quotes/user/{id}',
    tag: 'Quotes',
    access: 'optional',
    summary: "A user's quotes of videos you can see, newest first (your own: My Quotes)",
    ok: { status: 200, schema: z.array(QuoteSchema), description: 'Up to 100' },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/quotes/upload-cloudinary',
    tag: 'Quotes',
    access: 'bearer',
    summary: 'Quote a video: a text quote, or a video response (processed like an upload)',
    multipart: QuoteUploadBody,
    ok: { status: 201, schema: QuoteSchema, description: 'The new quote (a response is processing)' },
    errors: [400, 401, 404, 413, 415],
  },
  {
    method: 'get',
    path: '/quotes/{id}',
    tag: 'Quotes',
    access: 'optional',
    summary: 'One quote with its original',
    ok: { status: 200, schema: QuoteSchema, description: 'The quote' },
    errors: [401, 404],
  },
  {
    method: 'delete',
    path: '/quotes/{id}',
    tag: 'Quotes',
    access: 'bearer',
    summary: 'Delete a quote (its author or an admin) and its response files',
    ok: { status: 200, schema: MessageSchema, description: "'Quote deleted successfully'" },
    errors: [401, 403, 404],
  },
  {
    method: 'post',
    path: '/quotes/{id}/like',
    tag: 'Quotes',
    access: 'bearer',
    summary: 'Toggle your like of a quote (or set it: body `{ "like": true|false }`)',
    body: LikeBody,
    ok: { status: 200, schema: LikeStateSchema, description: 'The count and your like after the change' },
    errors: [400, 401, 404],
  },
  // Users
  {
    method: 'get',
    path: '/users/creators',
    tag: 'Users',
    access: 'optional',
    summary:
      'Discover Creators: verified creators with public videos first, then by followers, latest upload and name (best match first with `search`); pending creators for admins only',
    query: z.object({ search: z.string().optional(), cursor: z.string().optional(), limit: z.string().optional() }),
    ok: {
      status: 200,
      schema: z.array(PublicUserSchema),
      description: 'One page; `X-Total-Count` says how many match, `X-Next-Cursor` gives the next page',
    },
    errors: [401],
  },
  ...PROFILE_PREFERENCE_ENDPOINTS,
  {
    method: 'put',
    path: '/users/profile',
    tag: 'Users',
    access: 'bearer',
    summary: 'Edit your profile (fields left out keep their value); new categories await admin review',
    multipart: ProfileBody,
    ok: {
      status: 200,
      schema: MessageSchema.extend({ user: UserSchema, preferences: PlayerPreferencesSchema }).openapi('ProfileSaved'),
      description: "'Profile updated successfully!', your user object and your player preferences",
    },
    errors: [400, 401, 409, 413, 415],
  },
  {
    method: 'get',
    path: '/users/following/status/{id}',
    tag: 'Users',
    access: 'bearer',
    summary: 'Whether you follow a creator',
    ok: { status: 200, schema: z.object({ isFollowing: z.boolean() }), description: 'The answer' },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/users/follow/{id}',
    tag: 'Users',
    access: 'bearer',
    summary: 'Toggle following a creator or admin (or set it: body `{ "follow": true|false }`)',
    body: FollowBody,
    ok: { status: 200, schema: FollowStateSchema, description: 'Your state and their follower count after the change' },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/users/{id}',
    tag: 'Users',
    access: 'optional',
    summary: "Your own user object, or a creator's or admin's public page (a learner has none: 404)",
    ok: { status: 200, schema: z.union([UserSchema, CreatorProfileSchema]), description: 'The user' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/users/{id}/stats',
    tag: 'Users',
    access: 'optional',
    summary: "Anyone's followers, following and public videos (0 videos for a learner)",
    ok: { status: 200, schema: UserStatsSchema, description: 'Counted rows' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/users/{id}/liked-videos',
    tag: 'Users',
    access: 'bearer',
    summary: 'Your liked videos, latest like first (`cursor`, `limit`); only your own',
    query: z.object({ cursor: z.string().optional(), limit: z.string().optional() }),
    ok: { status: 200, schema: VideoListSchema, description: 'One page; the next page’s cursor is in `X-Next-Cursor`' },
    errors: [401, 403, 404],
  },
  {
    method: 'get',
    path: '/users/{id}/history',
    tag: 'Users',
    access: 'bearer',
    summary: 'The videos you watched, latest first, with your position (`cursor`, `limit`); only your own',
    query: z.object({ cursor: z.string().optional(), limit: z.string().optional() }),
    ok: { status: 200, schema: HistoryListSchema, description: 'One page; the next page’s cursor is in `X-Next-Cursor`' },
    errors: [401, 403, 404],
  },
  {
    method: 'delete',
    path: '/users/{id}/history',
    tag: 'Users',
    access: 'bearer',
    summary: 'Clear your history (every saved position); only your own',
    ok: { status: 200, schema: MessageSchema, description: 'Cleared' },
    errors: [401, 403, 404],
  },
  {
    method: 'delete',
    path: '/users/{id}/history/{videoId}',
    tag: 'Users',
    access: 'bearer',
    summary: 'Remove one video from your history; only your own',
    ok: { status: 200, schema: MessageSchema, description: 'Removed (also when it was not there)' },
    errors: [401, 403, 404],
  },
  {
    method: 'get',
    path: '/users/{id}/following',
    tag: 'Users',
    access: 'bearer',
    summary: 'Whom you follow, latest first (`cursor`, `limit`); only your own',
    query: z.object({ cursor: z.string().optional(), limit: z.string().optional() }),
    ok: { status: 200, schema: z.array(FollowingSchema), description: 'One page; the next page’s cursor is in `X-Next-Cursor`' },
    errors: [401, 403, 404],
  },
  {
    method: 'get',
    path: '/users/{id}/dashboard-stats',
    tag: 'Users',
    access: 'bearer',
    summary: 'Creator dashboard figures (`days`: 7, 28 or 90): your own, or anyone’s for an admin; not for learners',
    query: z.object({ days: z.enum(['7', '28', '90']).optional() }),
    ok: { status: 200, schema: DashboardStatsSchema, description: 'The dashboard stats' },
    errors: [401, 403, 404],
  },
  {
    method: 'get',
    path: '/users/{id}/fallback-dashboard-stats',
    tag: 'Users',
    access: 'bearer',
    summary: 'The same figures with 7 daily points',
    ok: { status: 200, schema: DashboardStatsSchema, description: 'The dashboard stats' },
    errors: [401, 403, 404],
  },
  ...NOTIFICATION_ENDPOINTS,
  ...CHECKPOINT_ENDPOINTS,
  ...NOTE_ENDPOINTS,
  ...COURSE_ENDPOINTS,
  ...SPARK_LESSON_ENDPOINTS,
  ...LEARNING_ENDPOINTS,
  // The document itself
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'Meta',
    access: 'none',
    summary: 'This document',
    ok: { status: 200, schema: z.object({ openapi: z.string() }).passthrough(), description: 'OpenAPI 3.1' },
    errors: [],
  },
]

/** Route files under app/routes that are not calls of the API (the reference page, the 404 for unknown paths). */
export const UNDOCUMENTED_ROUTE_FILES = ['api+/docs.ts', 'api+/$.ts']

export function findEndpoint(method: string, path: string): Endpoint | undefined {
  const wanted = method.toLowerCase()
  return ENDPOINTS.find((endpoint) => endpoint.method === wanted && matchPath(endpoint.path, path) !== null)
}

/** `/videos/{id}` against `/videos/abc` → `{ id: 'abc' }`, or null. */
export function matchPath(template: string, path: string): Record<string, string> | null {
  const names: string[] = []
  const pattern = new RegExp(
    `^${template.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_match, name: string) => {
      names.push(name)
      return '([^/]+)'
    })}$`,
  )
  const found = pattern.exec(path)
  if (!found) return null
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)]))
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad input: `error` is the spec's message",
  401: 'No token, or an expired or unknown one',
  403: 'Signed in, without the right',
  404: 'Unknown or invisible id (malformed ids too)',
  409: 'Already taken',
  413: 'A file over its limit',
  415: 'Not multipart/form-data',
  416: 'Range not satisfiable',
  429: 'Too many requests: see Retry-After',
}

let cached: object | undefined

export function openApiDocument(): object {
  if (cached) return cached
  const registry = new OpenAPIRegistry()
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token from /auth/login or /auth/signup (the same token the pages’ sessions hold)',
  })
  for (const endpoint of ENDPOINTS) {
    const hasId = endpoint.path.includes('{id}')
    const responses: Record<string, { description: string; content?: Record<string, { schema: ZodTypeAny }> }> = {
      [endpoint.ok.status]: {
        description: endpoint.ok.description,
        content: endpoint.ok.binary
          ? { [endpoint.ok.binary]: { schema: z.string().openapi({ format: 'binary' }) } }
          : endpoint.ok.schema
            ? { 'application/json': { schema: endpoint.ok.schema } }
            : undefined,
      },
    }
    for (const status of [...endpoint.errors, 429]) {
      responses[status] = {
        description: STATUS_TEXT[status] ?? 'Refused',
        ...(endpoint.ok.binary || status === 416 ? {} : { content: { 'application/json': { schema: ErrorSchema } } }),
      }
    }
    registry.registerPath({
      method: endpoint.method,
      path: endpoint.path,
      summary: endpoint.summary,
      tags: [endpoint.tag],
      security: endpoint.access === 'none' ? [] : endpoint.access === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }],
      request: {
        ...(hasId ? { params: id } : {}),
        ...(endpoint.query ? { query: endpoint.query } : {}),
        ...(endpoint.body ? { body: { content: { 'application/json': { schema: endpoint.body } } } } : {}),
        ...(endpoint.multipart ? { body: { content: { 'multipart/form-data': { schema: endpoint.multipart } } } } : {}),
      },
      responses,
    })
  }
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Lumen API',
      version: '1.0.0',
      description:
        'The JSON API of Lumen under /api. Send `Authorization: Bearer <token>`; cookies are not accepted. ' +
        "Refusals answer `{ error, fieldErrors? }` with the spec's message. Rate limits answer 429 with Retry-After.",
    },
    servers: [{ url: '/api' }],
  })
  return cached
}
