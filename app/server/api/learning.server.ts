import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import type { Endpoint } from './openapi.server'

extendZodWithOpenApi(z)

/**
 * The course-learning calls of the /api (their rows in the OpenAPI table come from
 * here): enrolling and leaving, the caller's progress in a course, My learning and the
 * creator's funnel, through the same domain functions as the pages
 * (app/server/course-progress.server.ts). Enrolments and progress are the caller's own,
 * always; the funnel is counts only.
 */
const uuid = z.string().uuid().openapi({ description: 'A uuid' })
const timestamp = z.string().openapi({ description: 'ISO 8601 date and time' })

const ContinueSchema = z
  .object({
    videoId: uuid,
    number: z.number().int().min(1).openapi({ description: 'The lesson’s place in the course, from 1' }),
    title: z.string(),
    href: z.string().openapi({ description: 'The video page, at the saved moment (`?t=`) when you stopped part-way' }),
  })
  .openapi('ContinueLesson', { description: 'The first lesson you have not finished' })

export const CourseProgressSchema = z
  .object({
    courseId: uuid,
    enrolled: z.boolean(),
    lessons: z.array(
      z.object({
        videoId: uuid,
        number: z.number().int().min(1),
        state: z.enum(['not_started', 'in_progress', 'finished']),
        needsAnswers: z.boolean().openapi({ description: 'Watched to the end, a required checkpoint not answered right yet' }),
        positionSeconds: z.number().nullable(),
      }),
    ),
    finished: z.number().int().min(0),
    total: z.number().int().min(0),
    next: ContinueSchema.nullable(),
  })
  .openapi('CourseProgress', {
    description:
      'Your progress in a course: a lesson is finished once watched to the end (past 95 %, kept when watched again) with every required checkpoint answered right',
  })

export const LearningSchema = z
  .array(
    z.object({
      courseId: uuid,
      title: z.string(),
      creator: z.string().openapi({ description: 'The creator’s username' }),
      enrolledAt: timestamp,
      lastActivityAt: timestamp,
      finished: z.number().int().min(0),
      total: z.number().int().min(0),
      next: ContinueSchema.nullable(),
    }),
  )
  .openapi('Learning', { description: 'The courses you are enrolled in, newest activity first' })

export const FunnelSchema = z
  .object({
    courseId: uuid,
    title: z.string(),
    isPublished: z.boolean(),
    enrolled: z.number().int().min(0),
    lessons: z.array(
      z.object({
        number: z.number().int().min(1),
        videoId: uuid,
        title: z.string(),
        reached: z.number().int().min(0).openapi({ description: 'Enrolled learners with a saved position in the lesson' }),
        finished: z.number().int().min(0).openapi({ description: 'Enrolled learners who finished it' }),
      }),
    ),
  })
  .openapi('CourseFunnel', { description: 'Counts only, never a learner; the creator’s own watching is not counted' })

export const LEARNING_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/courses/{id}/enrollment',
    tag: 'Courses',
    access: 'bearer',
    summary: 'Whether you are enrolled in a course, and your progress in it',
    ok: { status: 200, schema: z.object({ progress: CourseProgressSchema }), description: 'Your progress' },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/courses/{id}/enrollment',
    tag: 'Courses',
    access: 'bearer',
    summary: 'Enroll in a published course (enrolling again changes nothing)',
    ok: { status: 200, schema: z.object({ progress: CourseProgressSchema }), description: 'Enrolled, with your progress' },
    errors: [400, 401, 404],
  },
  {
    method: 'delete',
    path: '/courses/{id}/enrollment',
    tag: 'Courses',
    access: 'bearer',
    summary: 'Leave a course (leaving one you are not in changes nothing; your watch history stays)',
    ok: { status: 200, schema: z.object({ courseId: uuid, enrolled: z.literal(false) }), description: 'Not enrolled' },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/courses/{id}/funnel',
    tag: 'Courses',
    access: 'bearer',
    summary: 'Enrolled learners and, per lesson, how many reached and finished it: the course’s creator or an admin',
    ok: { status: 200, schema: z.object({ funnel: FunnelSchema }), description: 'The counts' },
    errors: [401, 403, 404],
  },
  {
    method: 'get',
    path: '/users/{id}/learning',
    tag: 'Users',
    access: 'bearer',
    summary: 'My learning: your courses with k of n lessons finished and the lesson to continue; only your own',
    ok: { status: 200, schema: LearningSchema, description: 'Your courses' },
    errors: [401, 403, 404],
  },
]
