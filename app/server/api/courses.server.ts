import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import type { CourseCardItem, CourseDetail } from '~/lib/course-types'
import type { Endpoint } from './openapi.server'
import { categoryId } from './videos.server'

extendZodWithOpenApi(z)

/**
 * The course calls of the /api (ADR 0048; their rows in the OpenAPI table come from here),
 * through the same domain functions as the pages (app/server/courses.server.ts) and the
 * same schema of a course's fields (app/lib/schemas/courses.ts).
 */
const uuid = z.string().uuid().openapi({ description: 'A uuid' })
const timestamp = z.string().openapi({ description: 'ISO 8601 date and time' })
const person = z.object({ _id: uuid, username: z.string(), profilePicture: z.string().nullable() })

export const CourseCardSchema = z
  .object({
    _id: uuid,
    title: z.string(),
    description: z.string(),
    category: z.string().openapi({ description: 'The category’s name' }),
    categoryId: z.string(),
    imageUrl: z.string().nullable().openapi({ description: 'The cover, else the first lesson’s thumbnail' }),
    isPublished: z.boolean(),
    creator: person,
    lessonCount: z.number().int(),
    totalDurationSeconds: z.number().int(),
    createdAt: timestamp,
  })
  .openapi('CourseCard', { description: 'A course in a list' })

export const CourseLessonSchema = z
  .object({
    videoId: uuid,
    position: z.number().int().openapi({ description: '0, 1, 2 … in course order' }),
    sectionTitle: z.string().nullable().openapi({ description: 'Starts a section (the lessons after it belong to it until the next title)' }),
    title: z.string(),
    type: z.enum(['video', 'spark']),
    durationSeconds: z.number().nullable(),
    thumbnailUrl: z.string().nullable(),
  })
  .openapi('CourseLesson')

export const CourseSchema = z
  .object({
    _id: uuid,
    title: z.string(),
    description: z.string(),
    category: z.string().openapi({ description: 'The category’s name' }),
    categoryId: z.string(),
    coverUrl: z.string().nullable(),
    isPublished: z.boolean(),
    creator: person,
    lessons: z.array(CourseLessonSchema),
    totalDurationSeconds: z.number().int(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Course', { description: 'A course with its lessons in order' })

const LessonBody = z.object({
  videoId: uuid.openapi({ description: 'One of your own public videos or sparks' }),
  sectionTitle: z.string().nullable().optional().openapi({ description: 'Up to 120 characters; starts a section here' }),
})

export const CourseBody = z
  .object({
    title: z.string().openapi({ description: '1 to 200 characters' }),
    description: z.string().optional().openapi({ description: 'Up to 5,000 characters' }),
    category: z.string().optional().openapi({ description: "A category id or name you may publish in; default 'other'" }),
    lessons: z.array(LessonBody).optional().openapi({ description: 'The whole lesson list in order (each video once, at most 200)' }),
    published: z.boolean().optional().openapi({ description: 'Publish (needs a lesson) or unpublish' }),
  })
  .openapi('CourseBody')

export const CourseUpdateBody = CourseBody.partial().openapi('CourseUpdateBody', {
  description:
    'Fields left out keep their value; `lessons`, when given, replaces the list. `{ "published": false }` alone is also an admin’s unpublish.',
})

export function courseCardShape(course: CourseCardItem): z.infer<typeof CourseCardSchema> {
  return {
    _id: course.id,
    title: course.title,
    description: course.description,
    category: course.category.name,
    categoryId: course.category.id,
    imageUrl: course.imageUrl,
    isPublished: course.isPublished,
    creator: { _id: course.creator.id, username: course.creator.username, profilePicture: course.creator.avatarUrl },
    lessonCount: course.lessonCount,
    totalDurationSeconds: course.totalSeconds,
    createdAt: course.createdAt,
  }
}

export function courseShape(course: CourseDetail): z.infer<typeof CourseSchema> {
  return {
    _id: course.id,
    title: course.title,
    description: course.description,
    category: course.category.name,
    categoryId: course.category.id,
    coverUrl: course.coverUrl,
    isPublished: course.isPublished,
    creator: { _id: course.creator.id, username: course.creator.username, profilePicture: course.creator.avatarUrl },
    lessons: course.lessons.map((lesson) => ({
      videoId: lesson.videoId,
      position: lesson.position,
      sectionTitle: lesson.sectionTitle,
      title: lesson.title,
      type: lesson.type,
      durationSeconds: lesson.durationSeconds,
      thumbnailUrl: lesson.thumbnailUrl,
    })),
    totalDurationSeconds: course.totalSeconds,
    createdAt: course.createdAt,
    updatedAt: course.updatedAt,
  }
}

/** A category by id or by name, as the video calls take it; anything else goes on to be refused by the schema. */
export function courseCategory(value: unknown): unknown {
  return typeof value === 'string' ? (categoryId(value) ?? value) : value
}

export const COURSE_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/courses',
    tag: 'Courses',
    access: 'optional',
    summary:
      'Published courses, newest first (`cursor`, `limit`); with `creator=<id>` that creator’s courses (yours include your drafts)',
    query: z.object({
      cursor: z.string().optional().openapi({ description: 'The `nextCursor` of the previous page' }),
      limit: z.string().optional().openapi({ description: '1 to 50, default 12' }),
      creator: z.string().optional().openapi({ description: 'A creator’s id: their courses, newest first (not paged)' }),
    }),
    ok: {
      status: 200,
      schema: z.object({ courses: z.array(CourseCardSchema), nextCursor: z.string().nullable() }),
      description: 'One page; the next page’s cursor also in `X-Next-Cursor`',
    },
    errors: [401],
  },
  {
    method: 'post',
    path: '/courses',
    tag: 'Courses',
    access: 'bearer',
    summary: 'Create a course (verified creators): its fields and, optionally, its lessons and publishing',
    body: CourseBody,
    ok: { status: 201, schema: CourseSchema, description: 'The new course' },
    errors: [400, 401, 403],
  },
  {
    method: 'get',
    path: '/courses/{id}',
    tag: 'Courses',
    access: 'optional',
    summary: 'A course with its lessons in order (a draft only for its creator and admins)',
    ok: { status: 200, schema: CourseSchema, description: 'The course' },
    errors: [401, 404],
  },
  {
    method: 'put',
    path: '/courses/{id}',
    tag: 'Courses',
    access: 'bearer',
    summary: 'Change your course (fields, the whole lesson list, publishing); an admin may only unpublish',
    body: CourseUpdateBody,
    ok: { status: 200, schema: CourseSchema, description: 'The course as saved' },
    errors: [400, 401, 403, 404, 409],
  },
  {
    method: 'delete',
    path: '/courses/{id}',
    tag: 'Courses',
    access: 'bearer',
    summary: 'Delete a course (its creator or an admin) and its cover',
    ok: { status: 200, schema: z.object({ message: z.string() }), description: "'Course deleted'" },
    errors: [401, 403, 404],
  },
]
